//===- CpuGemvAvx512.cpp - Streamed few-row products for AVX-512 ----------===//
//
// CpuGemvKernels.inc over 512-bit vectors. This file alone is compiled with
// -mavx512f (lib/Runtime/CMakeLists.txt); CpuGemv.cpp calls it only on
// CPUs with AVX-512F.
//
//===----------------------------------------------------------------------===//

#include "CpuGemvIsa.h"
#include "CpuQuantGemv.h"

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

/// The integer side of the quantized kernels (CpuQuantKernels.inc).
struct QVec : Vec {
  using IReg = __m512i;
  static Reg q8(const int8_t *p) {
    return _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(p))));
  }
  static IReg u8(const uint8_t *p) {
    return _mm512_cvtepu8_epi32(
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
  }
  static IReg splat(int v) { return _mm512_set1_epi32(v); }
  static Reg lowNibble(IReg b, IReg zero) {
    return _mm512_cvtepi32_ps(
        _mm512_sub_epi32(_mm512_and_si512(b, _mm512_set1_epi32(15)), zero));
  }
  static Reg highNibble(IReg b, IReg zero) {
    return _mm512_cvtepi32_ps(_mm512_sub_epi32(_mm512_srli_epi32(b, 4), zero));
  }
  static Reg mul(Reg a, Reg b) { return _mm512_mul_ps(a, b); }
  static void halvesToFloats(const uint16_t *p, int64_t n, float *out) {
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
      _mm512_storeu_ps(out + i,
                       _mm512_cvtph_ps(_mm256_loadu_si256(
                           reinterpret_cast<const __m256i *>(p + i))));
    if (i < n) {
      alignas(32) uint16_t tail[16] = {};
      alignas(64) float converted[16];
      std::copy(p + i, p + n, tail);
      _mm512_store_ps(converted, _mm512_cvtph_ps(_mm256_load_si256(
                                     reinterpret_cast<const __m256i *>(tail))));
      std::copy(converted, converted + (n - i), out + i);
    }
  }
};

#include "CpuQuantKernels.inc"
} // namespace

void relax::runtime::detail::quantRangeAvx512(
    int64_t m, const float *x, int64_t ldx, const QuantizedWeight &w, float *y,
    int64_t ldy, int64_t begin, int64_t end, float *scales, float *block) {
  quantRange(m, x, ldx, w, y, ldy, begin, end, scales, block);
}

void relax::runtime::detail::gemvRangeAvx512(int64_t m, bool transposed,
                                             const float *x, int64_t ldx,
                                             const float *b, int64_t ldb,
                                             int64_t k, float *y, int64_t ldy,
                                             int64_t begin, int64_t end) {
  gemvRange(m, transposed, x, ldx, b, ldb, k, y, ldy, begin, end);
}
