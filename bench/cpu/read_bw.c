/* The read-only ceiling of the decode products: a GEMV streams its weight
 * and writes almost nothing, so the triad (two reads and a write, whose
 * write-allocate traffic it does not count) understates what it can reach.
 * Sums n floats (an array beyond the last-level cache) in 8 sequential
 * runs at once, with a vector of 16 accumulators per run so that the
 * loop is bound by the loads; -O3 -march=native, -fopenmp (the threads
 * share the runs' elements). Timed as triad.c (median of runs after one
 * warm-up); prints GB/s of bytes read. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"

#define LANES 16
#define STREAMS 8

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : (1L << 26);
  int runs = argc > 2 ? atoi(argv[2]) : 20;
  n -= n % (LANES * STREAMS);
  float *a = aligned_alloc(64, n * sizeof(float));
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i)
    a[i] = (float)(i % 7);
  double times[1000];
  float total = 0.0f;
  for (int r = -1; r < runs; ++r) {
    double t0 = now_ms();
    float sum = 0.0f;
#pragma omp parallel reduction(+ : sum)
    {
      /* STREAMS sequential runs at once, as a decode product reads 4 to 8
       * rows of its weight at once: one run alone leaves the core too few
       * misses in flight to reach the memory's bandwidth. Lane l of
       * acc[s] sums run s's elements l mod LANES: one vector add per 16
       * floats, no chain longer than the loop's. */
      float acc[STREAMS][LANES] = {{0}};
#pragma omp for schedule(static)
      for (long i = 0; i < n / STREAMS; i += LANES)
        for (int s = 0; s < STREAMS; ++s)
          for (int l = 0; l < LANES; ++l)
            acc[s][l] += a[s * (n / STREAMS) + i + l];
      for (int s = 0; s < STREAMS; ++s)
        for (int l = 0; l < LANES; ++l)
          sum += acc[s][l];
    }
    double t1 = now_ms();
    total += sum;
    if (r >= 0)
      times[r] = t1 - t0;
  }
  double median = median_ms(times, runs);
  printf("read: n=%ld median %.4f ms %.2f GB/s (checksum %.1f)\n", n, median,
         4.0 * n / (median * 1e6), total);
  return 0;
}
