//===- CpuQuantInt8Tiles.cpp - int8 rows by tiled weights, plain C++ ------===//
//
// The plain C++ kernel of QuantActivations::Int8 for weights in tiles
// (QuantTiles.h): the tiles of a block of 8 rows front to back, each row's
// sum of scaled block sums added block by block as int8RangeGeneric
// (CpuQuantGemv.cpp) adds them, so the outputs are bit-identical to it.
// The vector kernels are CpuQuantInt8Tiles.inc's.
//
//===----------------------------------------------------------------------===//

#include "CpuGemvIsa.h"
#include "CpuQuantGemv.h"
#include "RelaxDialect/Runtime/Half.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

#include <cstring>

namespace qt = relax::runtime::quant_tiles;

void relax::runtime::detail::int8TilesGeneric(const Int8Rows &x,
                                              const QuantizedWeight &w,
                                              float *y, int64_t ldy,
                                              int64_t begin, int64_t end) {
  const int64_t tilesPerRow = w.k / qt::kCols;
  const int64_t tileBytes = qt::tileBytes(w.bits);
  const int64_t chunk = qt::chunkBytes(w.bits);
  for (int64_t j0 = begin; j0 < end; j0 += qt::kRows) {
    const uint8_t *tile = static_cast<const uint8_t *>(w.q) +
                          qt::tileOffset(w.bits, w.k, j0, 0);
    float acc[kMaxGemvRows][qt::kRows] = {};
    for (int64_t t = 0; t < tilesPerRow; ++t, tile += tileBytes)
      for (int64_t g = 0; g < qt::kGroups; ++g) {
        const int64_t b = t * qt::kGroups + g;
        for (int64_t r = 0; r < qt::kRows; ++r) {
          uint16_t half;
          std::memcpy(&half, tile + 2 * (g * qt::kRows + r), sizeof(half));
          const float scale = halfToFloat(half);
          const uint8_t *bytes =
              tile + qt::kScaleBytes + (g * qt::kRows + r) * chunk;
          for (int64_t i = 0; i < x.m; ++i) {
            const int32_t sum = int8BlockSum(
                w.bits, bytes, x.q + i * x.ldq + 32 * b,
                w.bits == 8 ? 0
                            : x.centre[(i * x.paddedBlocks + b) *
                                       x.centreLanes]);
            acc[i][r] += float(sum) * (scale * x.scales[i * x.paddedBlocks + b]);
          }
        }
      }
    for (int64_t i = 0; i < x.m; ++i)
      for (int64_t r = 0; r < qt::kRows; ++r)
        y[i * ldy + j0 + r] = acc[i][r];
  }
}
