//===- CpuGemvAvx512.cpp - Streamed few-row products for AVX-512 ----------===//
//
// CpuGemvKernels.inc over 512-bit vectors. This file alone is compiled with
// -mavx512f (lib/Runtime/CMakeLists.txt); CpuGemv.cpp calls it only on
// CPUs with AVX-512F.
//
//===----------------------------------------------------------------------===//

#include "CpuGemvIsa.h"
#include "CpuQuantGemv.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

// GCC 12's AVX-512 headers build some intrinsics (the reductions) on
// _mm512_undefined_ps(), which -Wmaybe-uninitialized reports at every use.
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include "CpuGemvVec.h"

#include <immintrin.h>

#include <algorithm>
#include <type_traits>

namespace {
using Vec = Vec512;

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
  // The nibble is the index of a lookup in a table of 0..15 as floats:
  // vpermps reads the low four bits of each lane, so neither a mask nor a
  // conversion is needed (one instruction instead of two; the same speed
  // on a Zen 4, where the FMAs bound the loop).
  static Reg nibbles() {
    return _mm512_setr_ps(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                          15);
  }
  static Reg lowNibble(IReg b) {
    return _mm512_permutexvar_ps(b, nibbles());
  }
  static Reg highNibble(IReg b) {
    return _mm512_permutexvar_ps(_mm512_srli_epi32(b, 4), nibbles());
  }
  static void interleave(Reg e, Reg o, Reg &first, Reg &second) {
    first = _mm512_permutex2var_ps(
        e, _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23),
        o);
    second = _mm512_permutex2var_ps(
        e,
        _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30,
                          15, 31),
        o);
  }
  static Reg u8ToFloat(const uint8_t *p) { return _mm512_cvtepi32_ps(u8(p)); }
  static Reg sub(Reg a, Reg b) { return _mm512_sub_ps(a, b); }
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
    int64_t ldy, int64_t begin, int64_t end, const float *xsums, float *scales,
    float *block) {
  quantRange(m, x, ldx, w, y, ldy, begin, end, xsums, scales, block);
}

const relax::runtime::detail::GemvKernels
    relax::runtime::detail::gemvKernelsAvx512 = {gemvRange, dotsPackX};
