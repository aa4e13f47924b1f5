// Plain against tiled weights (QuantTiles.h, issue 31): the runtime's
// quantized products of the working tree (CpuQuantGemv.h, compiled into
// this program by quant_tiles_ab.sh in a namespace of its own) on the same
// weights in the plain layout and in tiles, called alternately, call by
// call, on weights cycled beyond the last-level cache by the loop of
// quant_ab_driver.h, which prints each layout's GB/s, their fraction of
// the read-only ceiling measured beside them, tiles/plain, and the largest
// difference between the two layouts' outputs (0 for the int8
// activations, whose tile kernels are bit-identical to the plain ones). A
// product the runtime refuses for a layout is reported and skipped.
#include "CpuQuantGemv.h"
#include "RelaxDialect/Runtime/QuantTiles.h"
#include "quant_ab_driver.h"

#include <cstdint>
#include <vector>

namespace rt = relax::runtime;
namespace qt = relax::runtime::quant_tiles;

namespace {
/// The plain layout (side 0) and tiles (side 1) of the same weights.
struct Layouts {
  const char *names[2] = {"plain", "tiles"};
  const char *ratio = "tiles/plain";
  rt::CpuIsa isa = rt::CpuIsa::Avx512;
  const std::vector<ab::QuantWeight> *weights = nullptr;
  std::vector<ab::PageBuffer<uint8_t>> tiles;

  const char *whyNot(int64_t n, int64_t k) {
    return qt::whyNotTileable(8, n, k);
  }
  void prepared(const ab::Format &format, int64_t n, int64_t k,
                const std::vector<ab::QuantWeight> &all) {
    weights = &all;
    tiles.clear();
    for (const ab::QuantWeight &w : all) {
      tiles.emplace_back(size_t(qt::weightBytes(format.bits, n, k)));
      qt::pack(format.bits, n, k, w.q.data,
               reinterpret_cast<const uint16_t *>(w.scales.data),
               tiles.back().data);
    }
  }
  bool call(int side, size_t weight, const ab::Format &format, int64_t n,
            int64_t k, int m, const float *x, float *y, int threads) {
    rt::QuantizedWeight w;
    w.bits = format.bits;
    w.n = n;
    w.k = k;
    w.group = 32;
    w.scalesF16 = true;
    if (side) {
      w.layout = rt::QuantLayout::Tiles;
      w.q = tiles[weight].data;
    } else {
      w.q = (*weights)[weight].q.data;
      w.scales = (*weights)[weight].scales.data;
    }
    return rt::quantLinearWith(isa, m, x, k, w, y, n, threads,
                               format.a8 ? rt::QuantActivations::Int8
                                         : rt::QuantActivations::F32);
  }
};
} // namespace

int main(int argc, char **argv) {
  Layouts layouts;
  if (argc > 1)
    layouts.isa = rt::CpuIsa(std::atoi(argv[1]));
  return ab::quantAbMain(argc, argv, layouts);
}
