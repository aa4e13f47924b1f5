//===- CpuQuantGemv.h - Products with group-quantized weights ----*- C++
//-*-===//
//
// Y = X * W^T where W [n, k] (a linear layer's weight, torch's layout) is
// stored quantized by groups of `group` consecutive elements along k, the
// layout of docs/quantization.md:
//
//   W[j, l] = (q(j, l) - zero(j, l / group)) * scale[j, l / group]
//
//   - 8 bits: q is int8 [n, k]; zero is 0 (symmetric, llama.cpp's Q8_0 at
//     group 32 with f16 scales);
//   - 4 bits: q is uint4 packed two to a byte along k, [n, k / 2] uint8,
//     element 2i in the low nibble of byte i and 2i + 1 in the high one;
//     zero is 8 (symmetric, Q4_0 at group 32) or read from `zeros`,
//     [n, k / group] uint8 holding 0..15 (asymmetric, AWQ/GPTQ-style).
//   - scales are [n, k / group], f32 or f16 (IEEE binary16).
//
// The weights are dequantized in registers (or in blocks that stay in
// cache) and never materialised in f32: a decode step streams the
// quantized bytes once. Kernels for AVX-512, AVX2 + FMA and plain C++,
// chosen from cpuid as CpuGemv.h's.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_CPUQUANTGEMV_H
#define RELAX_RUNTIME_CPUQUANTGEMV_H

#include "CpuGemv.h"

#include <cstdint>

namespace relax::runtime {

/// How a QuantizedWeight's bytes are ordered.
enum class QuantLayout {
  /// The header's layout: q [n, k] (or [n, k / 2]) beside scales
  /// [n, k / group] (and zeros).
  Plain,
  /// RelaxDialect/Runtime/QuantTiles.h: tiles of 8 rows x 128 elements,
  /// each its f16 scales then its bytes, one sequential stream. Group 32,
  /// f16 scales, no zero points; `q` points to the tiles and `scales` is
  /// unused (null).
  Tiles,
};

/// A weight W [n, k] quantized by groups along k (the header's layout).
struct QuantizedWeight {
  int bits = 8;            ///< 4 or 8
  int64_t n = 0, k = 0;    ///< W's rows (outputs) and depth
  int64_t group = 32;      ///< elements per scale; divides k
  const void *q = nullptr; ///< int8 [n, k] or packed uint4 [n, k / 2]
  const void *scales = nullptr; ///< [n, k / group]
  bool scalesF16 = false;       ///< scales are binary16, else f32
  const uint8_t *zeros = nullptr; ///< 4 bits only: [n, k / group], or null
  QuantLayout layout = QuantLayout::Plain;
};

/// What a product with quantized weights does with X
/// (docs/quantization.md).
enum class QuantActivations {
  /// X as it is: every product in f32, exact up to the order of the sums
  /// (the default).
  F32,
  /// For 1 to 4 rows of X (decode steps), X quantized by blocks of 32 to
  /// int8 with one f32 scale each (quantizeActivations, llama.cpp's Q8_0
  /// activations) and dotted with the 4-bit or 8-bit weights in integers
  /// (VNNI where the CPU has it): about 2^-8 of each block's largest |x|
  /// per element, for about twice the speed where the f32 products bound
  /// the kernel. More rows of X are computed as F32.
  Int8,
};

/// X's row `x` [k] (k a multiple of 32) by blocks of 32: with amax = max
/// |x| over block b, d[b] = amax / 127 and q[l] = x[l] * (127 / amax)
/// rounded to nearest (even), in [-127, 127], all in f32 (in double where
/// 127 / amax overflows f32); a block of zeros has d = 0, one holding a
/// NaN or an infinity d = NaN and q = 0 (the product is then NaN, as the
/// f32 one would be NaN or infinite).
void quantizeActivations(const float *x, int64_t k, int8_t *q, float *d);

/// Why `w` is not a layout the kernels take, or null when it is: bits other
/// than 4 and 8, a group that does not divide k, zero points with 8 bits,
/// an odd k with 4 bits, null pointers; for QuantLayout::Tiles, anything
/// but groups of 32 with f16 scales and no zero points, n not a multiple of
/// 8 or k of 128, null tiles (the scales are in the tiles: null is fine).
const char *whyUnsupported(const QuantizedWeight &w);

/// Y[i, j] = sum_l X[i, l] * W[j, l] for i < m, j < w.n, l < w.k; X and Y
/// have unit column strides. Cut over the runtime's pool when `threads` >
/// 1. Returns false (and writes nothing) when whyUnsupported(w) says so.
/// A tiled W gives the plain layout's results bit for bit (the same sums
/// in the same order), with either `activations`.
bool quantLinear(int64_t m, const float *x, int64_t ldx,
                 const QuantizedWeight &w, float *y, int64_t ldy, int threads,
                 QuantActivations activations = QuantActivations::F32);

/// quantLinear with the kernels of `isa`, which the CPU must run (tests
/// compare every level the machine has).
bool quantLinearWith(CpuIsa isa, int64_t m, const float *x, int64_t ldx,
                     const QuantizedWeight &w, float *y, int64_t ldy,
                     int threads,
                     QuantActivations activations = QuantActivations::F32);

/// W[j, l] as f32 (the reference the kernels are tested against).
float dequantizedElement(const QuantizedWeight &w, int64_t j, int64_t l);

} // namespace relax::runtime

#endif // RELAX_RUNTIME_CPUQUANTGEMV_H
