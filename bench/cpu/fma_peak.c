/* The measured f32 FMA peak of one core: independent chains of vector FMAs
 * (enough to cover the FMA latency on both FMA ports of current x86 cores),
 * with the widest vectors the CPU has (AVX-512, else AVX2 + FMA), chosen at
 * run time from cpuid. Prints GFLOP/s (2 flops per lane per FMA), the
 * median of runs: the roofline's compute ceiling for bench/cpu/roofline.sh;
 * and the same in the thread's CPU time, the ceiling of A/B programs that
 * time kernels in CPU time on a machine other processes load
 * (bench/cpu/gemv_ab.sh).
 * Usage: fma_peak [runs] [isa: avx512 | avx2] */
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

#define ITERS 20000000L

static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The CPU time of the last peak_* call, in ms. */
static double last_cpu_ms;
#define CHAINS 12
/* Twelve chains spelled out, so that each stays in a register at any
 * optimisation level (an array indexed in a loop may live in memory). */
#define FMA12(fma)                                                             \
  do {                                                                         \
    c0 = fma(c0, a, b);                                                        \
    c1 = fma(c1, a, b);                                                        \
    c2 = fma(c2, a, b);                                                        \
    c3 = fma(c3, a, b);                                                        \
    c4 = fma(c4, a, b);                                                        \
    c5 = fma(c5, a, b);                                                        \
    c6 = fma(c6, a, b);                                                        \
    c7 = fma(c7, a, b);                                                        \
    c8 = fma(c8, a, b);                                                        \
    c9 = fma(c9, a, b);                                                        \
    c10 = fma(c10, a, b);                                                      \
    c11 = fma(c11, a, b);                                                      \
  } while (0)

__attribute__((target("avx512f"))) static double peak_avx512(void) {
  /* Distinct starting values: equal chains would be merged into one. */
  __m512 c0 = _mm512_set1_ps(0.0f), c1 = _mm512_set1_ps(1.0f),
         c2 = _mm512_set1_ps(2.0f), c3 = _mm512_set1_ps(3.0f),
         c4 = _mm512_set1_ps(4.0f), c5 = _mm512_set1_ps(5.0f),
         c6 = _mm512_set1_ps(6.0f), c7 = _mm512_set1_ps(7.0f),
         c8 = _mm512_set1_ps(8.0f), c9 = _mm512_set1_ps(9.0f),
         c10 = _mm512_set1_ps(10.0f), c11 = _mm512_set1_ps(11.0f);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  double t0 = now_ms(), cpu0 = cpu_ms();
  for (long it = 0; it < ITERS; ++it)
    FMA12(_mm512_fmadd_ps);
  double ms = now_ms() - t0;
  last_cpu_ms = cpu_ms() - cpu0;
  __m512 all = _mm512_add_ps(_mm512_add_ps(_mm512_add_ps(c0, c1), c2),
                             _mm512_add_ps(_mm512_add_ps(c3, c4), c5));
  all = _mm512_add_ps(all, _mm512_add_ps(_mm512_add_ps(c6, c7), c8));
  all = _mm512_add_ps(all, _mm512_add_ps(_mm512_add_ps(c9, c10), c11));
  float sink = _mm512_reduce_add_ps(all);
  if (sink == 12345.0f)
    puts("");
  return 2.0 * 16 * CHAINS * ITERS / (ms * 1e6);
}

__attribute__((target("avx2,fma"))) static double peak_avx2(void) {
  /* Distinct starting values: equal chains would be merged into one. */
  __m256 c0 = _mm256_set1_ps(0.0f), c1 = _mm256_set1_ps(1.0f),
         c2 = _mm256_set1_ps(2.0f), c3 = _mm256_set1_ps(3.0f),
         c4 = _mm256_set1_ps(4.0f), c5 = _mm256_set1_ps(5.0f),
         c6 = _mm256_set1_ps(6.0f), c7 = _mm256_set1_ps(7.0f),
         c8 = _mm256_set1_ps(8.0f), c9 = _mm256_set1_ps(9.0f),
         c10 = _mm256_set1_ps(10.0f), c11 = _mm256_set1_ps(11.0f);
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  double t0 = now_ms(), cpu0 = cpu_ms();
  for (long it = 0; it < ITERS; ++it)
    FMA12(_mm256_fmadd_ps);
  double ms = now_ms() - t0;
  last_cpu_ms = cpu_ms() - cpu0;
  __m256 all = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(c0, c1), c2),
                             _mm256_add_ps(_mm256_add_ps(c3, c4), c5));
  all = _mm256_add_ps(all, _mm256_add_ps(_mm256_add_ps(c6, c7), c8));
  all = _mm256_add_ps(all, _mm256_add_ps(_mm256_add_ps(c9, c10), c11));
  float lanes[8], sink = 0;
  _mm256_storeu_ps(lanes, all);
  for (int i = 0; i < 8; ++i)
    sink += lanes[i];
  if (sink == 12345.0f)
    puts("");
  return 2.0 * 8 * CHAINS * ITERS / (ms * 1e6);
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 5;
  const char *isa = argc > 2 ? argv[2] : NULL;
  int avx512 =
      __builtin_cpu_supports("avx512f") && (!isa || strcmp(isa, "avx2") != 0);
  if (!avx512 &&
      !(__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))) {
    fprintf(stderr, "fma_peak: the CPU has neither AVX-512 nor AVX2 + FMA\n");
    return 1;
  }
  double gflops[64], cpuGflops[64];
  if (runs < 1 || runs > 64)
    runs = 5;
  for (int r = 0; r < runs; ++r) {
    gflops[r] = avx512 ? peak_avx512() : peak_avx2();
    cpuGflops[r] =
        2.0 * (avx512 ? 16 : 8) * CHAINS * ITERS / (last_cpu_ms * 1e6);
  }
  /* median_ms sorts ascending; the median of rates is what is reported. */
  double median = median_ms(gflops, runs);
  printf("fma_peak: %s one core median %.1f GFLOP/s (thread CPU time: %.1f)\n",
         avx512 ? "avx512" : "avx2", median, median_ms(cpuGflops, runs));
  return 0;
}
