/* The peer of the extern-GEMM benchmark: cblas_sgemm called directly on
 * row-major [m, k] x [k, n], median of runs after one warm-up. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_util.h"

int main(int argc, char **argv) {
  int m = atoi(argv[1]), k = atoi(argv[2]), n = atoi(argv[3]);
  int runs = argc > 4 ? atoi(argv[4]) : 20;
  float *a = malloc(sizeof(float) * m * k), *b = malloc(sizeof(float) * k * n);
  float *c = malloc(sizeof(float) * m * n);
  for (long i = 0; i < (long)m * k; ++i)
    a[i] = (float)(i % 3) - 1.0f;
  for (long i = 0; i < (long)k * n; ++i)
    b[i] = (float)(i % 5) - 2.0f;
  double times[1000];
  for (int r = -1; r < runs; ++r) {
    double t0 = now_ms();
    /* The relax module allocates its output per call; so does this. */
    float *out = malloc(sizeof(float) * m * n);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a,
                k, b, n, 0.0f, out, n);
    double t1 = now_ms();
    c[0] = out[0];
    free(out);
    if (r >= 0)
      times[r] = t1 - t0;
  }
  double median = median_ms(times, runs);
  printf("cblas_sgemm: %dx%dx%d median %.4f ms (c0 %.1f)\n", m, k, n, median,
         c[0]);
  return 0;
}
