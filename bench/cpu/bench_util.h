/* Timing shared by the C peers of the CPU benchmarks (triad.c,
 * blas_gemm.c): a monotonic clock in milliseconds and the median of the
 * timed runs, the figure relax-run --benchmark reports too. */
#ifndef RELAX_BENCH_CPU_BENCH_UTIL_H
#define RELAX_BENCH_CPU_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

static inline double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static inline int bench_cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* Sorts the `runs` times in place and returns their median (the upper one
 * for an even count). */
static inline double median_ms(double *times, int runs) {
  qsort(times, runs, sizeof(double), bench_cmp_double);
  return times[runs / 2];
}

#endif /* RELAX_BENCH_CPU_BENCH_UTIL_H */
