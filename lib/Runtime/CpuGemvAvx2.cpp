//===- CpuGemvAvx2.cpp - Streamed few-row products for AVX2 + FMA ---------===//
//
// CpuGemvKernels.inc over 256-bit vectors. This file alone is compiled with
// -mavx2 -mfma (lib/Runtime/CMakeLists.txt); CpuGemv.cpp calls it only on
// CPUs that have both.
//
//===----------------------------------------------------------------------===//

#include "CpuGemvIsa.h"
#include "CpuGemvVec.h"
#include "CpuQuantGemv.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

#include <immintrin.h>

#include <algorithm>
#include <type_traits>

namespace {
using Vec = Vec256;

#include "CpuGemvKernels.inc"

/// The integer side of the quantized kernels (CpuQuantKernels.inc).
struct QVec : Vec {
  using IReg = __m256i;
  static __m128i load8(const void *p) {
    return _mm_loadl_epi64(static_cast<const __m128i *>(p));
  }
  static Reg q8(const int8_t *p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(load8(p)));
  }
  static IReg u8(const uint8_t *p) { return _mm256_cvtepu8_epi32(load8(p)); }
  static Reg lowNibble(IReg b) {
    return _mm256_cvtepi32_ps(_mm256_and_si256(b, _mm256_set1_epi32(15)));
  }
  static Reg highNibble(IReg b) {
    return _mm256_cvtepi32_ps(_mm256_srli_epi32(b, 4));
  }
  static void interleave(Reg e, Reg o, Reg &first, Reg &second) {
    // Per 128-bit half: e0 o0 e1 o1 | e4 o4 e5 o5 and e2 o2 e3 o3 | e6 ...
    Reg low = _mm256_unpacklo_ps(e, o), high = _mm256_unpackhi_ps(e, o);
    first = _mm256_permute2f128_ps(low, high, 0x20);
    second = _mm256_permute2f128_ps(low, high, 0x31);
  }
  static Reg u8ToFloat(const uint8_t *p) { return _mm256_cvtepi32_ps(u8(p)); }
  static Reg sub(Reg a, Reg b) { return _mm256_sub_ps(a, b); }
  static Reg mul(Reg a, Reg b) { return _mm256_mul_ps(a, b); }
  static void halvesToFloats(const uint16_t *p, int64_t n, float *out) {
    relax::runtime::detail::halvesToFloatsF16c(p, n, out);
  }
};

#include "CpuQuantKernels.inc"
} // namespace

void relax::runtime::detail::quantRangeAvx2(
    int64_t m, const float *x, int64_t ldx, const QuantizedWeight &w, float *y,
    int64_t ldy, int64_t begin, int64_t end, const float *xsums, float *scales,
    float *block) {
  quantRange(m, x, ldx, w, y, ldy, begin, end, xsums, scales, block);
}

const relax::runtime::detail::GemvKernels
    relax::runtime::detail::gemvKernelsAvx2 = {gemvRange, dotsPackX};
