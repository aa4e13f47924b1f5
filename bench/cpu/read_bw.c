/* The read-only ceiling of the decode products: a GEMV streams its weight
 * and writes almost nothing, so the triad (two reads and a write, whose
 * write-allocate traffic it does not count) understates what it can reach.
 * Sums n floats (an array beyond the last-level cache) with a vector of 16
 * accumulators per sequential run, so that the loop is bound by the loads;
 * -O3 -march=native, -fopenmp (the threads share the runs' elements).
 * Timed as triad.c (median of runs after one warm-up); prints GB/s of
 * bytes read.
 *
 * The array is read four ways, alternated run by run: in 4 KiB pages and
 * in transparent huge pages (2 MiB-aligned, madvise(MADV_HUGEPAGE) before
 * it is first written; nothing changes where THP is `never`), each as one
 * sequential run per thread and as 8 runs at once per thread. In 4 KiB
 * pages one run leaves the core too few misses in flight (its hardware
 * prefetch stops at every page); in huge pages one run is the faster (one
 * Zen 4 core: 32 GB/s, 8 runs 23-28 GB/s, 2026-12-08). The runtime keeps
 * weights in huge pages (RelaxDialect/Runtime/HugePages.h) and may read
 * them either way, so the ceiling is the fastest of the four: the line
 * ends with its median ms and GB/s, after all four figures. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench_util.h"

#define LANES 16
#define STREAMS 8

/* The sum of the n floats of `a`, read in `streams` (1 or STREAMS)
 * sequential runs at once per thread, as a decode product reads one
 * stream of tiles or 4 to 8 rows of its weight at once. Lane l of acc[s]
 * sums run s's elements l mod LANES: one vector add per 16 floats, no
 * chain longer than the loop's. */
static float readAll(const float *a, long n, int streams) {
  float sum = 0.0f;
  if (streams == 1) {
#pragma omp parallel reduction(+ : sum)
    {
      float acc[LANES] = {0};
#pragma omp for schedule(static)
      for (long i = 0; i < n; i += LANES)
        for (int l = 0; l < LANES; ++l)
          acc[l] += a[i + l];
      for (int l = 0; l < LANES; ++l)
        sum += acc[l];
    }
    return sum;
  }
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
  /* One warm-up read of each, then the four ways alternated run by run,
   * so that all see the same minutes of a shared machine. */
  static const char *names[4] = {"4 KiB pages, 8 runs", "4 KiB pages, 1 run",
                                 "huge pages, 8 runs", "huge pages, 1 run"};
  double times[4][1000], medians[4];
  float total = readAll(arrays[0], n, STREAMS) + readAll(arrays[1], n, 1);
  for (int r = 0; r < runs; ++r)
    for (int w = 0; w < 4; ++w) {
      double t0 = now_ms();
      total += readAll(arrays[w / 2], n, w % 2 ? 1 : STREAMS);
      times[w][r] = now_ms() - t0;
    }
  double best = 0;
  printf("read: n=%ld", n);
  for (int w = 0; w < 4; ++w) {
    medians[w] = median_ms(times[w], runs);
    printf("%s %s %.2f GB/s", w ? "," : "", names[w],
           4.0 * n / (medians[w] * 1e6));
    if (w == 0 || medians[w] < best)
      best = medians[w];
  }
  printf(" (checksum %.1f); the best: median %.4f ms %.2f GB/s\n", total,
         best, 4.0 * n / (best * 1e6));
  return 0;
}
