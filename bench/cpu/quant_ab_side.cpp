// One side of quant_ab.cpp: the quantized products of one version of
// lib/Runtime (CpuQuantGemv.cpp and the kernels it dispatches to), compiled
// by quant_ab.sh with -Drelax=<a namespace of its own> so that the base's
// and the working tree's copies link into one program. The C entry
// AB_ENTRY hides each version's QuantizedWeight behind plain arguments.
// `tiled`: q holds the weight in QuantTiles.h's tiles (scales unused), for
// versions that have them (AB_HAS_TILES, defined by quant_ab.sh); other
// versions refuse it.
#include "CpuQuantGemv.h"

extern "C" bool AB_ENTRY(int isa, int64_t m, const float *x, int64_t ldx,
                         int bits, int64_t n, int64_t k, int64_t group,
                         const void *q, const void *scales, bool scalesF16,
                         const uint8_t *zeros, float *y, int64_t ldy,
                         int threads, bool int8Activations, bool tiled) {
  relax::runtime::QuantizedWeight w;
#ifdef AB_HAS_TILES
  if (tiled)
    w.layout = relax::runtime::QuantLayout::Tiles;
#else
  if (tiled)
    return false;
#endif
  w.bits = bits;
  w.n = n;
  w.k = k;
  w.group = group;
  w.q = q;
  w.scales = scales;
  w.scalesF16 = scalesF16;
  w.zeros = zeros;
  return relax::runtime::quantLinearWith(
      relax::runtime::CpuIsa(isa), m, x, ldx, w, y, ldy, threads,
      int8Activations ? relax::runtime::QuantActivations::Int8
                      : relax::runtime::QuantActivations::F32);
}
