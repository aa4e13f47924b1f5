//===- BlasSupport.h - Internals of the CPU BLAS binding --------*- C++ -*-===//
//
// The internals that the files of the CPU BLAS binding (RelaxBlas.h) share:
// BlasGemm.cpp (the GEMM entry points: cblas, the runtime's few-row
// kernels, splitting over the pool), DnnlGemm.cpp (GEMMs with a constant B
// on oneDNN), Convolution.cpp and Attention.cpp. Memref checks and error
// reports, the matrix view and the GEMM epilogue, how work is cut over the
// runtime's pool, the products every file calls (multiply, multiplySplit,
// multiplyPacked) and oneDNN's engine, team size, streams and scratchpads.
//
//===----------------------------------------------------------------------===//

#ifndef RELAX_RUNTIME_BLASSUPPORT_H
#define RELAX_RUNTIME_BLASSUPPORT_H

#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"
#include "RuntimeReport.h"
#include "ThreadPool.h"

#include <cblas.h>
#ifdef RELAX_RUNTIME_HAS_DNNL
#include <omp.h>
#include <oneapi/dnnl/dnnl.hpp>
#endif

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>

namespace relax::runtime::blas {

using relax_rt::MemRef;

using relax::runtime::reportError;
using relax::runtime::shapeString;

/// A rank-2 view: element (i, j) is data[i * rowStride + j * colStride].
template <typename T> struct Matrix {
  T *data;
  int64_t rows, cols, rowStride, colStride;
};

/// The activation after a GEMM's bias: GELU in the erf form
/// (x/2 (1 + erf(x / sqrt 2))) or ReLU.
enum class GemmActivation { None, Gelu, Relu };

/// What a GEMM with constant B does to C after the product: a bias over its
/// columns (null: none), an activation, then a residual R of C's shape
/// added.
template <typename T> struct GemmEpilogue {
  const T *bias = nullptr;
  int64_t biasStride = 1;
  GemmActivation activation = GemmActivation::None;
  bool residual = false;
  bool empty() const {
    return !bias && activation == GemmActivation::None && !residual;
  }
};

/// Applies `epilogue` to C in place (the path without oneDNN's post-ops);
/// `r` is the matching view of R.
template <typename T>
void applyEpilogue(Matrix<T> c, const GemmEpilogue<T> &epilogue, Matrix<T> r) {
  if (epilogue.empty())
    return;
  for (int64_t i = 0; i < c.rows; ++i)
    for (int64_t j = 0; j < c.cols; ++j) {
      T &v = c.data[i * c.rowStride + j * c.colStride];
      if (epilogue.bias)
        v += epilogue.bias[j * epilogue.biasStride];
      if (epilogue.activation == GemmActivation::Gelu)
        v = T(0.5) * v * (T(1) + std::erf(v * T(M_SQRT1_2)));
      else if (epilogue.activation == GemmActivation::Relu)
        v = std::max(v, T(0));
      if (epilogue.residual)
        v += r.data[i * r.rowStride + j * r.colStride];
    }
}

inline bool fitsBlasInt(int64_t v) {
  return v >= 0 && v <= std::numeric_limits<blasint>::max();
}

/// Strides of a dim of extent 1 never matter; normalising them lets
/// vectors and single-row slices reach BLAS without a copy.
template <typename T> Matrix<T> normalise(Matrix<T> m) {
  if (m.rows == 1)
    m.rowStride = std::max<int64_t>(m.cols, 1);
  if (m.cols == 1)
    m.colStride = 1;
  return m;
}

template <typename T, int N> bool hasNegativeSize(const MemRef<T, N> *d) {
  for (int i = 0; i < N; ++i)
    if (d->sizes[i] < 0)
      return true;
  return false;
}

/// Products smaller than this (2 m n k, summed over batches) run on the
/// calling thread: starting the pool's workers costs about a microsecond
/// when they spin, about what a single core needs for a million flops.
constexpr double kMinParallelFlops = 1 << 16;

/// How many threads a product of `flops` may use.
inline int threadsFor(double flops) {
  return flops >= kMinParallelFlops ? relax::runtime::poolThreads() : 1;
}

/// fn(0), ..., fn(count - 1), over the runtime's pool when `threads` > 1.
template <typename Fn> void parallelFor(int64_t count, int threads, Fn fn) {
  if (threads > 1 && count > 1) {
    relax::runtime::parallelTasks(count, fn);
    return;
  }
  for (int64_t i = 0; i < count; ++i)
    fn(i);
}

/// Where piece `q` of `parts` starts when [0, extent) is cut into
/// near-equal pieces whose inner boundaries are multiples of `grain`
/// (q == parts: the end).
inline int64_t pieceStart(int64_t extent, int64_t parts, int64_t q,
                          int64_t grain = 1) {
  return q == parts ? extent : extent * q / parts / grain * grain;
}

/// Rows [begin, end) and columns [begin, end) of a matrix view.
template <typename T>
Matrix<T> rowsOf(Matrix<T> m, int64_t begin, int64_t end) {
  return {m.data + begin * m.rowStride, end - begin, m.cols, m.rowStride,
          m.colStride};
}
template <typename T>
Matrix<T> colsOf(Matrix<T> m, int64_t begin, int64_t end) {
  return {m.data + begin * m.colStride, m.rows, end - begin, m.rowStride,
          m.colStride};
}

// The products of every job, defined in BlasGemm.cpp for float and double.

/// C = A * B for one matrix triple whose shapes were validated.
template <typename T> void multiply(Matrix<T> a, Matrix<T> b, Matrix<T> c);

/// C = A * B on `threads` threads: C's larger dim is cut into one block per
/// thread, so each thread reads the whole of the smaller operand.
template <typename T>
void multiplySplit(Matrix<T> a, Matrix<T> b, Matrix<T> c, int threads);

#ifdef RELAX_RUNTIME_HAS_DNNL
// oneDNN, shared by the GEMMs with a constant B and the convolutions
// (defined in DnnlGemm.cpp, but for releaseFusedConvs).

/// The CPU engine of every primitive.
dnnl::engine &cpuEngine();

/// Guards the caches of constant operands: DnnlGemm.cpp's packed B's and
/// Convolution.cpp's fused convolutions.
extern std::mutex packedMutex;

/// This thread's OpenMP team size for a scope: what oneDNN forks, and what
/// a primitive created meanwhile plans its work for (oneDNN fixes a
/// primitive's thread count when it creates it).
class TeamSize {
public:
  explicit TeamSize(int threads)
      : previous(omp_get_max_threads()), threads(threads) {
    if (previous != threads)
      omp_set_num_threads(threads);
  }
  ~TeamSize() {
    if (previous != threads)
      omp_set_num_threads(previous);
  }

private:
  int previous, threads;
};

/// Runs `submit(stream)` on this thread's oneDNN stream and waits for it.
/// Callers hold a TeamSize of one (or run on a pool worker, whose team is
/// one): the primitives run on this thread alone.
template <typename Fn> void runOnStream(Fn submit) {
  static thread_local dnnl::stream stream(cpuEngine());
  submit(stream);
  stream.wait();
}

/// `args` plus this thread's scratchpad for `primitive` (made with the
/// user scratchpad mode): the pool runs primitives on several threads at
/// once, and the library's own scratchpad is one for all of them unless
/// oneDNN was built for concurrent execution. Kept across calls.
std::unordered_map<int, dnnl::memory>
withScratchpad(const dnnl::primitive &primitive,
               std::unordered_map<int, dnnl::memory> args);

/// C = A * B through oneDNN, on B as it is stored until it has been
/// multiplied by kPackAfterRows rows, then on a copy packed once; cut into
/// one piece per thread of the pool: blocks of C's rows, or for a product
/// of few rows blocks of columns (each with its own packing of B's
/// columns). A piece oneDNN has no kernel for runs on the BLAS. False when
/// the layouts do not suit oneDNN (the caller then runs the BLAS).
bool multiplyPacked(Matrix<float> a, Matrix<float> b, Matrix<float> c,
                    int threads, const GemmEpilogue<float> &epilogue,
                    Matrix<float> r);

/// Forgets the fused convolutions' primitives and packed weights
/// (Convolution.cpp), for relax_rt_blas_release_constants. The caller holds
/// packedMutex.
void releaseFusedConvs();
#endif

} // namespace relax::runtime::blas

#endif // RELAX_RUNTIME_BLASSUPPORT_H
