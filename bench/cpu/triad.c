/* The peer of the elementwise-chain benchmark: a STREAM-style triad
 * a[i] = b[i] + s * c[i] compiled with -O3 -march=native, timed the same way
 * relax-run times a module (median of runs after one warm-up). Built with
 * -fopenmp (bench/cpu/roofline.sh) it runs on OMP_NUM_THREADS threads, each
 * first touching the part it later streams. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : (1L << 24);
  int runs = argc > 2 ? atoi(argv[2]) : 20;
  float *a = aligned_alloc(64, n * sizeof(float));
  float *b = aligned_alloc(64, n * sizeof(float));
  float *c = aligned_alloc(64, n * sizeof(float));
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    a[i] = 0.0f;
    b[i] = (float)(i % 7);
    c[i] = (float)(i % 5);
  }
  double times[1000];
  float s = 2.0f;
  for (int r = -1; r < runs; ++r) {
    double t0 = now_ms();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i)
      a[i] = b[i] + s * c[i];
    double t1 = now_ms();
    if (r >= 0)
      times[r] = t1 - t0;
  }
  double median = median_ms(times, runs);
  /* Print a checksum so the loop cannot be optimised away. */
  double sum = 0;
  for (long i = 0; i < n; i += 4096)
    sum += a[i];
  printf("triad: n=%ld median %.4f ms (checksum %.1f)\n", n, median, sum);
  return 0;
}
