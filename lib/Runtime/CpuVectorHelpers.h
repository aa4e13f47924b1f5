//===- CpuVectorHelpers.h - Shared AVX2 / F16C helpers ------------*- C++ -*-===//
//
// For the translation units compiled with -mavx2 -mf16c or for AVX-512
// (CpuGemvAvx2.cpp and the int8-activation kernels): the sum of a 256-bit
// vector's lanes, and binary16 scales to f32 a block of rows at a time.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_CPUVECTORHELPERS_H
#define RELAX_RUNTIME_CPUVECTORHELPERS_H

#include <immintrin.h>

#include <cstdint>

namespace relax::runtime::detail {

/// The sum of v's eight lanes.
inline float sumLanes(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

/// out[i] = p[i] as f32 for i < n (exact: every binary16 is an f32).
inline void halvesToFloatsF16c(const uint16_t *p, int64_t n, float *out) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(
                                  reinterpret_cast<const __m128i *>(p + i))));
  for (; i < n; ++i)
    out[i] = _cvtsh_ss(p[i]);
}

} // namespace relax::runtime::detail

#endif // RELAX_RUNTIME_CPUVECTORHELPERS_H
