//===- CpuHalves.h - binary16 to f32 with F16C --------------------*- C++ -*-===//
//
// For the translation units compiled with -mf16c (CpuGemvAvx2.cpp and the
// int8-activation kernels): the kernels convert a block of rows' f16
// scales at a time.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_CPUHALVES_H
#define RELAX_RUNTIME_CPUHALVES_H

#include <immintrin.h>

#include <cstdint>

namespace relax::runtime::detail {

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

#endif // RELAX_RUNTIME_CPUHALVES_H
