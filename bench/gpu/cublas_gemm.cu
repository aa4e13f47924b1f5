// The cuBLAS peer of bench/gpu/matmul.mlir: C[m, n] = A[m, k] * B[k, n] in
// f32 (row-major, computed as the column-major product B^T A^T), timed with
// CUDA events after a warm-up. Prints "cublasSgemm MxKxN: median X ms".
// usage: cublas_gemm M K N RUNS
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    if ((x) != 0) {                                                            \
      std::fprintf(stderr, "cublas_gemm: %s failed\n", #x);                    \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: cublas_gemm M K N RUNS\n");
    return 1;
  }
  int m = std::atoi(argv[1]), k = std::atoi(argv[2]), n = std::atoi(argv[3]);
  int runs = std::atoi(argv[4]);
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, sizeof(float) * m * k));
  CHECK(cudaMalloc(&b, sizeof(float) * k * n));
  CHECK(cudaMalloc(&c, sizeof(float) * m * n));
  CHECK(cudaMemset(a, 0, sizeof(float) * m * k));
  CHECK(cudaMemset(b, 0, sizeof(float) * k * n));
  cublasHandle_t handle;
  CHECK(cublasCreate(&handle));
  const float one = 1.0f, zero = 0.0f;
  auto gemm = [&]() {
    return cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, b, n,
                       a, k, &zero, c, n);
  };
  CHECK(gemm());
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int r = 0; r < runs; ++r) {
    CHECK(cudaEventRecord(start));
    CHECK(gemm());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  std::printf("cublasSgemm %dx%dx%d: median %.4f ms\n", m, k, n,
              times[times.size() / 2]);
  cublasDestroy(handle);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
