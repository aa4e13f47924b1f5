//===- QuantTiles.h - The tiled layout of group-quantized weights -*- C++ -*-===//
//
// Weights quantized by groups of 32 along k with f16 scales and no zero
// points (llama.cpp's Q8_0 and Q4_0; docs/quantization.md) can be stored
// in tiles so that a decode product reads them as one sequential stream:
// the plain layout (q [n, k] or [n, k / 2] beside scales [n, k / 32])
// makes a block of R rows R streams of q plus one of scales, and one Zen 4
// core streamed it at 70-76% of the read-only ceiling where the tiles ran
// at 91-98% (docs/perf.md, "Tiled quantized weights").
//
// A tile is 8 rows x 128 elements (4 groups of 32) of W [n, k]; tiles are
// stored row block by row block, and within a row block along k:
//
//   tile (bj, bk), bj < n / 8, bk < k / 128, at byte
//       (bj * (k / 128) + bk) * tileBytes(bits)
//   bytes [0, 64):  the 32 f16 scales of the tile, scale of row r of the
//                   block and group g of the tile at byte 2 * (g * 8 + r)
//   then, for g < 4 and r < 8 in that order, chunkBytes(bits) bytes: row
//                   r's group g exactly as the plain layout stores it
//                   (8 bits: 32 int8; 4 bits: 16 bytes, element 2i in the
//                   low nibble of byte i and 2i + 1 in the high one)
//
// So tileBytes is 1088 (8 bits: 17 cache lines) or 576 (4 bits: 9), and a
// weight is [n / 8, k / 128, tileBytes] bytes: n a multiple of 8, k of 128.
// The values are those of the plain layout, W[j, l] = (q - zero) * scale
// with zero 0 (8 bits) or 8 (4 bits): only the order of the bytes differs.
// Header-only: the runtime's kernels and the host tools that write weights
// (llama-generate) share it.
//
//===----------------------------------------------------------------------===//

#ifndef RELAXDIALECT_RUNTIME_QUANTTILES_H
#define RELAXDIALECT_RUNTIME_QUANTTILES_H

#include <cstdint>
#include <cstring>

namespace relax::runtime::quant_tiles {

/// Rows of W per tile.
constexpr int64_t kRows = 8;
/// Elements of a group (one scale each) and groups per tile.
constexpr int64_t kGroup = 32;
constexpr int64_t kGroups = 4;
/// Elements of a row per tile.
constexpr int64_t kCols = kGroup * kGroups;
/// Bytes of a tile's scales (kRows * kGroups f16).
constexpr int64_t kScaleBytes = kRows * kGroups * 2;

/// Bytes of one row's group: 32 (8 bits) or 16 (4 bits).
constexpr int64_t chunkBytes(int bits) { return kGroup * bits / 8; }
/// Bytes of a tile: 1088 (8 bits) or 576 (4 bits).
constexpr int64_t tileBytes(int bits) {
  return kScaleBytes + kGroups * kRows * chunkBytes(bits);
}

/// Why W [n, k] at `bits` cannot be tiled, or null when it can.
inline const char *whyNotTileable(int bits, int64_t n, int64_t k) {
  if (bits != 4 && bits != 8)
    return "tiles hold 4-bit or 8-bit weights only";
  if (n <= 0 || n % kRows != 0)
    return "tiles need a positive number of rows (n) divisible by 8";
  if (k <= 0 || k % kCols != 0)
    return "tiles need a positive depth (k) divisible by 128";
  return nullptr;
}

/// Bytes of W [n, k] in tiles.
inline int64_t weightBytes(int bits, int64_t n, int64_t k) {
  return n / kRows * (k / kCols) * tileBytes(bits);
}

/// Byte offset of the tile holding W[j, l].
inline int64_t tileOffset(int bits, int64_t k, int64_t j, int64_t l) {
  return (j / kRows * (k / kCols) + l / kCols) * tileBytes(bits);
}

/// Writes W [n, k] (tileable) in tiles to `out` (weightBytes bytes) from
/// the plain layout: `q` int8 [n, k] or uint8 [n, k / 2], `scales` f16
/// bits [n, k / 32].
inline void pack(int bits, int64_t n, int64_t k, const void *q,
                 const uint16_t *scales, uint8_t *out) {
  const int64_t chunk = chunkBytes(bits), rowBytes = k * bits / 8;
  const int64_t groups = k / kGroup;
  const auto *src = static_cast<const uint8_t *>(q);
  for (int64_t j0 = 0; j0 < n; j0 += kRows)
    for (int64_t l0 = 0; l0 < k; l0 += kCols) {
      uint8_t *tile = out + tileOffset(bits, k, j0, l0);
      for (int64_t g = 0; g < kGroups; ++g)
        for (int64_t r = 0; r < kRows; ++r) {
          int64_t group = l0 / kGroup + g;
          std::memcpy(tile + 2 * (g * kRows + r),
                      scales + (j0 + r) * groups + group, 2);
          std::memcpy(tile + kScaleBytes + (g * kRows + r) * chunk,
                      src + (j0 + r) * rowBytes + group * chunk, chunk);
        }
    }
}

/// The inverse of pack: the plain `q` and `scales` of a tiled W.
inline void unpack(int bits, int64_t n, int64_t k, const uint8_t *tiles,
                   void *q, uint16_t *scales) {
  const int64_t chunk = chunkBytes(bits), rowBytes = k * bits / 8;
  const int64_t groups = k / kGroup;
  auto *dst = static_cast<uint8_t *>(q);
  for (int64_t j0 = 0; j0 < n; j0 += kRows)
    for (int64_t l0 = 0; l0 < k; l0 += kCols) {
      const uint8_t *tile = tiles + tileOffset(bits, k, j0, l0);
      for (int64_t g = 0; g < kGroups; ++g)
        for (int64_t r = 0; r < kRows; ++r) {
          int64_t group = l0 / kGroup + g;
          std::memcpy(scales + (j0 + r) * groups + group,
                      tile + 2 * (g * kRows + r), 2);
          std::memcpy(dst + (j0 + r) * rowBytes + group * chunk,
                      tile + kScaleBytes + (g * kRows + r) * chunk, chunk);
        }
    }
}

} // namespace relax::runtime::quant_tiles

#endif // RELAXDIALECT_RUNTIME_QUANTTILES_H
