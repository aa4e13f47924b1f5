//===- CpuGemvAvx2.cpp - Streamed few-row products for AVX2 + FMA ---------===//
//
// CpuGemvKernels.inc over 256-bit vectors. This file alone is compiled with
// -mavx2 -mfma (lib/Runtime/CMakeLists.txt); CpuGemv.cpp calls it only on
// CPUs that have both.
//
//===----------------------------------------------------------------------===//

#include "CpuGemvIsa.h"

#include <immintrin.h>

#include <algorithm>
#include <type_traits>

namespace {
struct Vec {
  using Reg = __m256;
  static constexpr int kLanes = 8;
  static constexpr int kRegisters = 16;
  static Reg zero() { return _mm256_setzero_ps(); }
  static Reg load(const float *p) { return _mm256_loadu_ps(p); }
  static Reg broadcast(float s) { return _mm256_set1_ps(s); }
  static Reg fma(Reg a, Reg b, Reg c) { return _mm256_fmadd_ps(a, b, c); }
  static void store(float *p, Reg v) { _mm256_storeu_ps(p, v); }
  static float sum(Reg v) {
    __m128 s =
        _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
  }
};

#include "CpuGemvKernels.inc"
} // namespace

void relax::runtime::detail::gemvRangeAvx2(int64_t m, bool transposed,
                                           const float *x, int64_t ldx,
                                           const float *b, int64_t ldb,
                                           int64_t k, float *y, int64_t ldy,
                                           int64_t begin, int64_t end) {
  gemvRange(m, transposed, x, ldx, b, ldb, k, y, ldy, begin, end);
}
