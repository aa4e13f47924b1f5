//===- RelaxCUBLAS.cpp - cuBLAS binding of the extern matmul built-ins ----===//
//
// The GPU side of `--relax-dispatch-library=target=cuda`: the
// `relax_cublas_*` built-ins (RelaxDialect/Extern/IR/Builtins.h) take memref
// descriptors of device buffers, like their CPU `relax_blas_*` twins, and run
// one cublasGemmStridedBatchedEx (f32, or f16 / bf16 with f32 accumulation).
// Row-major C = A * B is computed as the column-major C^T = B^T * A^T, so no
// operand is copied; the inner dimension of every operand must be
// contiguous. libcublas is opened with dlopen, and one handle lives for the
// process on the context of RelaxCUDA.cpp. Failures (no cuBLAS, bad shapes,
// a cuBLAS error) go to the runtime's error slot, never abort.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxCUDA.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include <cublas_api.h>
#include <cuda.h>
#include <dlfcn.h>

#include <cstdint>
#include <mutex>
#include <string>

using relax_rt::MemRef;

namespace {
using GemmFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t,
                                  cublasOperation_t, int, int, int,
                                  const void *, const void *, cudaDataType, int,
                                  long long, const void *, cudaDataType, int,
                                  long long, const void *, void *, cudaDataType,
                                  int, long long, int, cublasComputeType_t,
                                  cublasGemmAlgo_t);
using CreateFn = cublasStatus_t (*)(cublasHandle_t *);
using StatusNameFn = const char *(*)(cublasStatus_t);
using SyncFn = CUresult (*)(CUstream);

struct CuBLAS {
  GemmFn gemm = nullptr;
  StatusNameFn statusName = nullptr;
  SyncFn streamSync = nullptr;
  cublasHandle_t handle = nullptr;
  std::string failure;
};

/// Loads cuBLAS and creates the handle once; null after recording why not.
CuBLAS *cublas() {
  static CuBLAS lib;
  static std::once_flag once;
  std::call_once(once, [] {
    if (!relax_rt_cuda_init(0)) {
      lib.failure = "cuBLAS needs a CUDA device";
      return;
    }
    void *so = nullptr;
    for (const char *name : {"libcublas.so.13", "libcublas.so.12",
                             "libcublas.so.11", "libcublas.so"})
      if ((so = dlopen(name, RTLD_NOW | RTLD_GLOBAL)))
        break;
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!so) {
      lib.failure = "cuBLAS not available: cannot load libcublas.so";
      return;
    }
    auto create = reinterpret_cast<CreateFn>(dlsym(so, "cublasCreate_v2"));
    lib.gemm =
        reinterpret_cast<GemmFn>(dlsym(so, "cublasGemmStridedBatchedEx"));
    lib.statusName =
        reinterpret_cast<StatusNameFn>(dlsym(so, "cublasGetStatusName"));
    lib.streamSync =
        cuda ? reinterpret_cast<SyncFn>(dlsym(cuda, "cuStreamSynchronize"))
             : nullptr;
    if (!create || !lib.gemm || !lib.streamSync) {
      lib.failure = "cuBLAS too old: missing cublasGemmStridedBatchedEx";
      return;
    }
    if (cublasStatus_t s = create(&lib.handle)) {
      lib.failure = std::string("cublasCreate failed: ") +
                    (lib.statusName ? lib.statusName(s) : "error");
      lib.handle = nullptr;
    }
  });
  if (!lib.handle) {
    relax_rt_error(lib.failure.c_str());
    return nullptr;
  }
  return &lib;
}

/// One operand as (batch, rows, cols) with strides; rank 2 has batch 1.
struct Operand {
  void *data;
  int64_t batch, rows, cols, batchStride, rowStride, colStride;
};

template <typename T, int N> Operand operand(MemRef<T, N> *m) {
  Operand o;
  o.data = m->aligned + m->offset;
  o.batch = N == 3 ? m->sizes[0] : 1;
  o.batchStride = N == 3 ? m->strides[0] : 0;
  o.rows = m->sizes[N - 2];
  o.cols = m->sizes[N - 1];
  o.rowStride = m->strides[N - 2];
  o.colStride = m->strides[N - 1];
  return o;
}

bool fail(const char *name, const std::string &why) {
  std::string message = std::string(name) + ": " + why;
  relax_rt_error(message.c_str());
  return false;
}

/// C = A * op(B) where op transposes when `nt`; batches of 1 broadcast.
bool matmul(const char *name, Operand a, Operand b, Operand c, bool nt,
            cudaDataType type) {
  int64_t k = a.cols, n = nt ? b.rows : b.cols;
  int64_t kb = nt ? b.cols : b.rows;
  if (kb != k || c.rows != a.rows || c.cols != n)
    return fail(
        name, "shape mismatch: A is " + std::to_string(a.rows) + "x" +
                  std::to_string(a.cols) + ", B is " + std::to_string(b.rows) +
                  "x" + std::to_string(b.cols) + ", C is " +
                  std::to_string(c.rows) + "x" + std::to_string(c.cols));
  int64_t batch = c.batch;
  if ((a.batch != batch && a.batch != 1) || (b.batch != batch && b.batch != 1))
    return fail(name, "batch mismatch");
  if (c.rows == 0 || c.cols == 0 || batch == 0)
    return true;
  for (const Operand *o : {&a, &b, &c})
    if (o->colStride != 1 || o->rowStride < std::max<int64_t>(o->cols, 1) ||
        o->rowStride > INT32_MAX)
      return fail(name, "operands must be row-major with a contiguous "
                        "inner dimension");
  if (c.rows > INT32_MAX || c.cols > INT32_MAX || k > INT32_MAX ||
      batch > INT32_MAX)
    return fail(name, "dims exceed cuBLAS's int range");
  CuBLAS *lib = cublas();
  if (!lib)
    return false;
  // Kernels a CUDA graph call deferred produce the operands: issue them.
  relax_rt_cuda_graphs_flush();
  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t s = lib->gemm(
      lib->handle, nt ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N,
      static_cast<int>(n), static_cast<int>(c.rows), static_cast<int>(k),
      &alpha, b.data, type, static_cast<int>(b.rowStride),
      b.batch == 1 ? 0 : b.batchStride, a.data, type,
      static_cast<int>(a.rowStride), a.batch == 1 ? 0 : a.batchStride, &beta,
      c.data, type, static_cast<int>(c.rowStride), c.batchStride,
      static_cast<int>(batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS)
    return fail(name, std::string("cublasGemmStridedBatchedEx failed: ") +
                          (lib->statusName ? lib->statusName(s) : "error"));
  // Kernels run on their own non-blocking streams: finish the GEMM first.
  if (lib->streamSync(nullptr) != CUDA_SUCCESS)
    return fail(name, "the GEMM failed on the device");
  return true;
}
} // namespace

// f16 and bf16 travel as 16-bit storage; cuBLAS reads them by type tag.
#define RELAX_CUBLAS_DEFINE(T, SUFFIX, TYPE)                                   \
  extern "C" void _mlir_ciface_relax_cublas_matmul_##SUFFIX(                   \
      MemRef<T, 2> *a, MemRef<T, 2> *b, MemRef<T, 2> *c) {                     \
    matmul("relax_cublas_matmul_" #SUFFIX, operand(a), operand(b), operand(c), \
           false, TYPE);                                                       \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_cublas_matmul_nt_##SUFFIX(                \
      MemRef<T, 2> *a, MemRef<T, 2> *b, MemRef<T, 2> *c) {                     \
    matmul("relax_cublas_matmul_nt_" #SUFFIX, operand(a), operand(b),          \
           operand(c), true, TYPE);                                            \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_cublas_batch_matmul_##SUFFIX(             \
      MemRef<T, 3> *a, MemRef<T, 3> *b, MemRef<T, 3> *c) {                     \
    matmul("relax_cublas_batch_matmul_" #SUFFIX, operand(a), operand(b),       \
           operand(c), false, TYPE);                                           \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_cublas_batch_matmul_nt_##SUFFIX(          \
      MemRef<T, 3> *a, MemRef<T, 3> *b, MemRef<T, 3> *c) {                     \
    matmul("relax_cublas_batch_matmul_nt_" #SUFFIX, operand(a), operand(b),    \
           operand(c), true, TYPE);                                            \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_cublas_batch_matmul_bcast_##SUFFIX(       \
      MemRef<T, 3> *a, MemRef<T, 2> *b, MemRef<T, 3> *c) {                     \
    matmul("relax_cublas_batch_matmul_bcast_" #SUFFIX, operand(a), operand(b), \
           operand(c), false, TYPE);                                           \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_cublas_batch_matmul_bcast_nt_##SUFFIX(    \
      MemRef<T, 3> *a, MemRef<T, 2> *b, MemRef<T, 3> *c) {                     \
    matmul("relax_cublas_batch_matmul_bcast_nt_" #SUFFIX, operand(a),          \
           operand(b), operand(c), true, TYPE);                                \
  }

RELAX_CUBLAS_DEFINE(float, f32, CUDA_R_32F)
RELAX_CUBLAS_DEFINE(uint16_t, f16, CUDA_R_16F)
RELAX_CUBLAS_DEFINE(uint16_t, bf16, CUDA_R_16BF)
