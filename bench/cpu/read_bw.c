/* The read-only ceiling of the decode products: a GEMV streams its weight
 * and writes almost nothing, so the triad (two reads and a write, whose
 * write-allocate traffic it does not count) understates what it can reach.
 * Sums n floats (an array beyond the last-level cache) in 8 sequential
 * runs at once, with a vector of 16 accumulators per run so that the
 * loop is bound by the loads; -O3 -march=native, -fopenmp (the threads
 * share the runs' elements). Timed as triad.c (median of runs after one
 * warm-up); prints GB/s of bytes read.
 *
 * The array is read twice per run, alternated: once in 4 KiB pages and once
 * in transparent huge pages (2 MiB-aligned, madvise(MADV_HUGEPAGE) before
 * it is first written; nothing changes where THP is `never`). The runtime
 * keeps weights in huge pages (RelaxDialect/Runtime/HugePages.h), so the
 * ceiling is the faster of the two: the line ends with the better one's
 * median ms and GB/s, after both figures. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench_util.h"

#define LANES 16
#define STREAMS 8

/* The sum of the n floats of `a`, read in STREAMS sequential runs at once,
 * as a decode product reads 4 to 8 rows of its weight at once: one run
 * alone leaves the core too few misses in flight to reach the memory's
 * bandwidth. Lane l of acc[s] sums run s's elements l mod LANES: one vector
 * add per 16 floats, no chain longer than the loop's. */
static float readAll(const float *a, long n) {
  float sum = 0.0f;
#pragma omp parallel reduction(+ : sum)
  {
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
  return sum;
}

/* n floats, 2 MiB-aligned, in huge pages when `huge` (advised before the
 * first write) and in 4 KiB pages otherwise. */
static float *allocate(long n, int huge) {
  size_t align = (size_t)2 << 20;
  size_t bytes = ((size_t)n * sizeof(float) + align - 1) & ~(align - 1);
  float *a = aligned_alloc(align, bytes);
  if (!a) {
    fprintf(stderr, "read_bw: cannot allocate %zu bytes\n", bytes);
    exit(1);
  }
  madvise(a, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  return a;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : (1L << 26);
  int runs = argc > 2 ? atoi(argv[2]) : 20;
  if (n < LANES * STREAMS || runs < 1 || runs > 1000) {
    fprintf(stderr, "usage: read_bw [floats >= %d] [runs 1..1000]\n",
            LANES * STREAMS);
    return 1;
  }
  n -= n % (LANES * STREAMS);
  float *arrays[2] = {allocate(n, 0), allocate(n, 1)};
  for (int p = 0; p < 2; ++p) {
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i)
      arrays[p][i] = (float)(i % 7);
  }
  /* One warm-up read of each, then the two alternated run by run, so that
   * both see the same minutes of a shared machine. */
  double times[2][1000];
  float total = readAll(arrays[0], n) + readAll(arrays[1], n);
  for (int r = 0; r < runs; ++r)
    for (int p = 0; p < 2; ++p) {
      double t0 = now_ms();
      total += readAll(arrays[p], n);
      times[p][r] = now_ms() - t0;
    }
  double small = median_ms(times[0], runs), huge = median_ms(times[1], runs);
  double best = small < huge ? small : huge;
  printf("read: n=%ld 4 KiB pages %.2f GB/s, huge pages %.2f GB/s "
         "(checksum %.1f); the better: median %.4f ms %.2f GB/s\n",
         n, 4.0 * n / (small * 1e6), 4.0 * n / (huge * 1e6), total, best,
         4.0 * n / (best * 1e6));
  return 0;
}
