//===- RelaxQuant.cpp - Products with quantized weights, C ABI ------------===//
//
// The CPU side of the quantized-linear built-ins (Extern/IR/Builtins.h,
// docs/extern.md): Y = X * W^T where W [n, k] is stored in the layout of
// docs/quantization.md (CpuQuantGemv.h) and never decoded to f32 as a
// whole. Link names:
//
//   relax_quant_linear[_batch]_<q8|q4|q4z>_<f32|f16>[_a8]
//   relax_quant_linear[_batch]_<q8t|q4t>_f32[_a8]
//
// `batch` for X [b, m, k] and Y [b, m, n] (else [m, k] and [m, n]), then the
// weight format (int8; packed uint4 with zero 8; packed uint4 with a zeros
// operand), then the scales' dtype; `a8` quantizes 1 to 4 rows of X to
// int8 for the products (QuantActivations::Int8, CpuQuantGemv.h). The
// operands are memref descriptors
// (RelaxBlas.h): X, Q ([n, k] i8 or [n, k / 2] ui8), scales [n, g],
// (zeros [n, g] ui8,) Y. The group is k / g. The `t` formats take the
// weight in tiles (RelaxDialect/Runtime/QuantTiles.h): X, T [n / 8,
// k / 128, 1088 or 576] ui8, Y; group 32, f16 scales inside the tiles. Every
// dim is checked before anything is read; a mismatch or a layout the kernels
// refuse is a message in the runtime's error slot, and Y is left untouched.
//
//===----------------------------------------------------------------------===//

#include "CpuQuantGemv.h"
#include "RelaxDialect/Runtime/QuantTiles.h"
#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"
#include "RuntimeReport.h"
#include "ThreadPool.h"

#include <cstdarg>
#include <cstdio>
#include <string>

using relax_rt::MemRef;

namespace {

using relax::runtime::reportError;
using relax::runtime::shapeString;

/// Whether `m` is dense row-major (the kernels take no strides).
template <typename T, int N> bool isDense(const MemRef<T, N> *m) {
  int64_t expected = 1;
  for (int i = N - 1; i >= 0; --i) {
    if (m->sizes[i] < 0)
      return false;
    if (m->sizes[i] != 1 && m->strides[i] != expected)
      return false;
    expected *= m->sizes[i];
  }
  return true;
}

/// The rows of a rank-N activation [..., m, k] with unit column stride and
/// rows evenly spaced by strides[N - 2] (a dense batch is one block of
/// rows); false when it is not such a view.
template <int N>
bool rowsOf(const MemRef<float, N> *m, int64_t &rows, int64_t &ld) {
  if (m->sizes[N - 1] > 1 && m->strides[N - 1] != 1)
    return false;
  rows = 1;
  for (int i = 0; i < N - 1; ++i)
    rows *= m->sizes[i];
  ld = N >= 2 ? m->strides[N - 2] : 0;
  if (N >= 2 && m->sizes[N - 2] <= 1)
    ld = m->sizes[N - 1];
  for (int i = 0; i + 2 < N; ++i)
    if (m->sizes[i] > 1 && m->strides[i] != m->sizes[i + 1] * ld)
      return false;
  return ld >= m->sizes[N - 1];
}

/// The part every entry shares once its weight is checked: Y's dims and
/// the strides, then the product. `weightDense` says whether the weight's
/// operands are dense (`weightOperands` names them in the message);
/// `weightText` describes them for the kernel's refusals.
template <int N>
void runQuantLinear(const char *fn, MemRef<float, N> *x, MemRef<float, N> *y,
                    const relax::runtime::QuantizedWeight &w, bool weightDense,
                    const char *weightOperands, const std::string &weightText,
                    relax::runtime::QuantActivations activations) {
  int64_t n = w.n;
  bool yOk = y->sizes[N - 1] == n;
  for (int i = 0; i + 1 < N; ++i)
    yOk = yOk && y->sizes[i] == x->sizes[i];
  if (!yOk) {
    reportError("%s: Y is %s, expected X's rows %s by %lld", fn,
                shapeString(y).c_str(), shapeString(x).c_str(), (long long)n);
    return;
  }
  int64_t rows, ldx, yRows, ldy;
  if (!weightDense || !rowsOf(x, rows, ldx) || !rowsOf(y, yRows, ldy)) {
    reportError("%s: unsupported strides (X %s, Y %s; %s must be dense)", fn,
                shapeString(x).c_str(), shapeString(y).c_str(), weightOperands);
    return;
  }
  if (rows == 0 || n == 0)
    return;
  if (const char *why = relax::runtime::whyUnsupported(w)) {
    reportError("%s: %s (%s)", fn, why, weightText.c_str());
    return;
  }
  // Small products are not worth waking the pool for.
  double work = 2.0 * double(rows) * double(n) * double(w.k);
  int threads = work >= 65536.0 ? relax::runtime::poolThreads() : 1;
  if (!relax::runtime::quantLinear(rows, x->aligned + x->offset, ldx, w,
                                   y->aligned + y->offset, ldy, threads,
                                   activations))
    reportError("%s: the kernel refused %s", fn, weightText.c_str());
}

template <int N, typename QT, typename ST>
void quantLinearEntry(const char *fn, int bits, MemRef<float, N> *x,
                      MemRef<QT, 2> *q, MemRef<ST, 2> *scales,
                      MemRef<uint8_t, 2> *zeros, MemRef<float, N> *y,
                      relax::runtime::QuantActivations activations =
                          relax::runtime::QuantActivations::F32) {
  if (!x || !q || !scales || !y) {
    reportError("%s: null memref descriptor", fn);
    return;
  }
  int64_t k = x->sizes[N - 1], n = q->sizes[0];
  int64_t qk = bits == 8 ? q->sizes[1] : 2 * q->sizes[1];
  int64_t g = scales->sizes[1];
  if (qk != k || scales->sizes[0] != n) {
    reportError("%s: X %s, Q %s and scales %s do not agree (expected Q [n, "
                "%s] and scales [n, g])",
                fn, shapeString(x).c_str(), shapeString(q).c_str(),
                shapeString(scales).c_str(), bits == 8 ? "k" : "k / 2");
    return;
  }
  if (g <= 0 || k % g != 0) {
    reportError("%s: scales %s: %lld groups do not divide the row of %lld "
                "elements",
                fn, shapeString(scales).c_str(), (long long)g, (long long)k);
    return;
  }
  if (zeros && (zeros->sizes[0] != n || zeros->sizes[1] != g)) {
    reportError("%s: zeros %s differ from scales %s", fn,
                shapeString(zeros).c_str(), shapeString(scales).c_str());
    return;
  }
  relax::runtime::QuantizedWeight w;
  w.bits = bits;
  w.n = n;
  w.k = k;
  w.group = k / g;
  w.q = q->aligned + q->offset;
  w.scales = scales->aligned + scales->offset;
  w.scalesF16 = sizeof(ST) == 2;
  w.zeros = zeros ? zeros->aligned + zeros->offset : nullptr;
  runQuantLinear(
      fn, x, y, w, isDense(q) && isDense(scales) && (!zeros || isDense(zeros)),
      "Q, scales and zeros",
      "Q " + shapeString(q) + ", scales " + shapeString(scales), activations);
}

/// The entries of weights in tiles (RelaxDialect/Runtime/QuantTiles.h):
/// T [n / 8, k / 128, tileBytes(bits)] ui8, dense.
template <int N>
void quantTilesEntry(const char *fn, int bits, MemRef<float, N> *x,
                     MemRef<uint8_t, 3> *t, MemRef<float, N> *y,
                     relax::runtime::QuantActivations activations) {
  namespace tiles = relax::runtime::quant_tiles;
  if (!x || !t || !y) {
    reportError("%s: null memref descriptor", fn);
    return;
  }
  int64_t k = x->sizes[N - 1];
  if (t->sizes[2] != tiles::tileBytes(bits) ||
      t->sizes[1] * tiles::kCols != k) {
    reportError("%s: X %s and tiles %s do not agree (expected tiles [n / 8, "
                "k / 128, %lld])",
                fn, shapeString(x).c_str(), shapeString(t).c_str(),
                (long long)tiles::tileBytes(bits));
    return;
  }
  relax::runtime::QuantizedWeight w;
  w.bits = bits;
  w.n = t->sizes[0] * tiles::kRows;
  w.k = k;
  w.group = tiles::kGroup;
  w.q = t->aligned + t->offset;
  w.scales = nullptr;
  w.scalesF16 = true;
  w.layout = relax::runtime::QuantLayout::Tiles;
  runQuantLinear(fn, x, y, w, isDense(t), "the tiles",
                 "tiles " + shapeString(t), activations);
}

} // namespace

// One entry per rank of X, weight format and scales dtype. f16 scales are
// raw binary16 bits. Every entry comes twice: as it is and with X
// quantized to int8 (`_a8`, SUFFIX and ACT below).
#define RELAX_QUANT_FORMAT_ENTRIES(RANK, BATCH, SNAME, ST, SUFFIX, ACT)        \
  extern "C" void _mlir_ciface_relax_quant_linear##BATCH##_q8_##SNAME##SUFFIX( \
      MemRef<float, RANK> *x, MemRef<int8_t, 2> *q, MemRef<ST, 2> *s,          \
      MemRef<float, RANK> *y) {                                                \
    quantLinearEntry<RANK>("relax_quant_linear" #BATCH "_q8_" #SNAME #SUFFIX,  \
                           8, x, q, s,                                         \
                           static_cast<MemRef<uint8_t, 2> *>(nullptr), y,      \
                           relax::runtime::QuantActivations::ACT);             \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_quant_linear##BATCH##_q4_##SNAME##SUFFIX( \
      MemRef<float, RANK> *x, MemRef<uint8_t, 2> *q, MemRef<ST, 2> *s,         \
      MemRef<float, RANK> *y) {                                                \
    quantLinearEntry<RANK>("relax_quant_linear" #BATCH "_q4_" #SNAME #SUFFIX,  \
                           4, x, q, s,                                         \
                           static_cast<MemRef<uint8_t, 2> *>(nullptr), y,      \
                           relax::runtime::QuantActivations::ACT);             \
  }                                                                            \
  extern "C" void                                                              \
      _mlir_ciface_relax_quant_linear##BATCH##_q4z_##SNAME##SUFFIX(            \
          MemRef<float, RANK> *x, MemRef<uint8_t, 2> *q, MemRef<ST, 2> *s,     \
          MemRef<uint8_t, 2> *z, MemRef<float, RANK> *y) {                     \
    const char *fn = "relax_quant_linear" #BATCH "_q4z_" #SNAME #SUFFIX;       \
    if (!z) {                                                                  \
      reportError("%s: null memref descriptor", fn);                           \
      return;                                                                  \
    }                                                                          \
    quantLinearEntry<RANK>(fn, 4, x, q, s, z, y,                               \
                           relax::runtime::QuantActivations::ACT);             \
  }

#define RELAX_QUANT_ENTRIES(RANK, BATCH, SNAME, ST)                            \
  RELAX_QUANT_FORMAT_ENTRIES(RANK, BATCH, SNAME, ST, , F32)                    \
  RELAX_QUANT_FORMAT_ENTRIES(RANK, BATCH, SNAME, ST, _a8, Int8)

// Weights in tiles: one entry per rank of X and bit width, with and without
// int8 activations. The scales are inside the tiles (f16); `f32` names X.
#define RELAX_QUANT_TILES_ENTRY(RANK, BATCH, BITS, SUFFIX, ACT)                \
  extern "C" void                                                              \
      _mlir_ciface_relax_quant_linear##BATCH##_q##BITS##t_f32##SUFFIX(         \
          MemRef<float, RANK> *x, MemRef<uint8_t, 3> *t,                       \
          MemRef<float, RANK> *y) {                                            \
    quantTilesEntry<RANK>(                                                     \
        "relax_quant_linear" #BATCH "_q" #BITS "t_f32" #SUFFIX, BITS, x, t, y, \
        relax::runtime::QuantActivations::ACT);                                \
  }

#define RELAX_QUANT_TILES_ENTRIES(RANK, BATCH)                                 \
  RELAX_QUANT_TILES_ENTRY(RANK, BATCH, 8, , F32)                               \
  RELAX_QUANT_TILES_ENTRY(RANK, BATCH, 8, _a8, Int8)                           \
  RELAX_QUANT_TILES_ENTRY(RANK, BATCH, 4, , F32)                               \
  RELAX_QUANT_TILES_ENTRY(RANK, BATCH, 4, _a8, Int8)

RELAX_QUANT_TILES_ENTRIES(2, )
RELAX_QUANT_TILES_ENTRIES(3, _batch)

RELAX_QUANT_ENTRIES(2, , f32, float)
RELAX_QUANT_ENTRIES(2, , f16, uint16_t)
RELAX_QUANT_ENTRIES(3, _batch, f32, float)
RELAX_QUANT_ENTRIES(3, _batch, f16, uint16_t)
