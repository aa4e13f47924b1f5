//===- CpuGemvAvx512.cpp - Streamed few-row products for AVX-512 ----------===//
//
// CpuGemvKernels.inc over 512-bit vectors. This file alone is compiled with
// -mavx512f (lib/Runtime/CMakeLists.txt); CpuGemv.cpp calls it only on
// CPUs with AVX-512F.
//
//===----------------------------------------------------------------------===//

#include "CpuGemvIsa.h"

// GCC 12's AVX-512 headers build some intrinsics (the reductions) on
// _mm512_undefined_ps(), which -Wmaybe-uninitialized reports at every use.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>

#include <algorithm>
#include <type_traits>

namespace {
struct Vec {
  using Reg = __m512;
  static constexpr int kLanes = 16;
  static constexpr int kRegisters = 32;
  static Reg zero() { return _mm512_setzero_ps(); }
  static Reg load(const float *p) { return _mm512_loadu_ps(p); }
  static Reg broadcast(float s) { return _mm512_set1_ps(s); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm512_fmadd_ps(a, b, c); }
  static void store(float *p, Reg v) { _mm512_storeu_ps(p, v); }
  static float sum(Reg v) { return _mm512_reduce_add_ps(v); }
};

#include "CpuGemvKernels.inc"
} // namespace

void relax::runtime::detail::gemvRangeAvx512(int64_t m, bool transposed,
                                             const float *x, int64_t ldx,
                                             const float *b, int64_t ldb,
                                             int64_t k, float *y, int64_t ldy,
                                             int64_t begin, int64_t end) {
  gemvRange(m, transposed, x, ldx, b, ldb, k, y, ldy, begin, end);
}
