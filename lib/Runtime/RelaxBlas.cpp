//===- RelaxBlas.cpp - CPU BLAS binding of the runtime --------------------===//
//
// Maps memref descriptors onto cblas_?gemm. A matrix whose innermost stride
// is 1 goes to BLAS as is (row-major, leading dimension = row stride); one
// whose row stride is 1 goes as the transpose of a row-major matrix; any
// other layout (broadcast strides, non-unit inner strides) is packed into a
// contiguous copy first. Shapes are validated before anything is touched:
// a mismatch is recorded in the runtime's error slot and the output is left
// as it was, so generated code and relax-run report it instead of crashing.
//
// Threads: OpenBLAS is told to run single-threaded, and the runtime splits
// each large product over its own thread pool (relax_rt_parallel_for, the
// one the compiled kernels' parallel loops run on) instead: by batch, or
// into blocks of rows or columns; oneDNN's products and convolutions run as
// pieces on it, each planned for one thread. One pool then serves kernels
// and library calls alike; two pools each spin while the other works and
// collapse when another process holds a core. Products below
// kMinParallelFlops run on the calling thread.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "CpuGemv.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"
#include "ThreadPool.h"

#include <cblas.h>
#include <cstring>
#include <optional>
#include <dlfcn.h>
#include <omp.h>
#ifdef RELAX_RUNTIME_HAS_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#endif

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <vector>

using relax_rt::MemRef;

namespace {

/// Formats a message into the runtime's error slot (first error kept).
[[gnu::format(printf, 1, 2)]] void reportError(const char *format, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  relax_rt_error(buffer);
}

template <typename T, int N> std::string shapeString(const MemRef<T, N> *m) {
  std::string s = "[";
  for (int i = 0; i < N; ++i) {
    if (i)
      s += ", ";
    s += std::to_string(m->sizes[i]);
  }
  return s + "]";
}

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

bool fitsBlasInt(int64_t v) {
  return v >= 0 && v <= std::numeric_limits<blasint>::max();
}

void gemv(CBLAS_TRANSPOSE t, blasint rows, blasint cols, const float *a,
          blasint lda, const float *x, blasint incx, float *y, blasint incy) {
  cblas_sgemv(CblasRowMajor, t, rows, cols, 1.0f, a, lda, x, incx, 0.0f, y,
              incy);
}
void gemv(CBLAS_TRANSPOSE t, blasint rows, blasint cols, const double *a,
          blasint lda, const double *x, blasint incx, double *y,
          blasint incy) {
  cblas_dgemv(CblasRowMajor, t, rows, cols, 1.0, a, lda, x, incx, 0.0, y,
              incy);
}

/// A product with one row (m = 1: a decode step's x * W^T) or one column
/// (n = 1) is a matrix-vector product. sgemm would pack the whole matrix
/// operand into its panel layout first, reading and writing every weight
/// once more than the product itself does (more than half of an LLM decode
/// step); gemv streams the matrix once. Returns false for other shapes.
template <typename T>
bool gemvIfVector(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n,
                  blasint k, const T *a, blasint lda, const T *b, blasint ldb,
                  T *c, blasint ldc) {
  auto flip = [](CBLAS_TRANSPOSE t) {
    return t == CblasNoTrans ? CblasTrans : CblasNoTrans;
  };
  if (m == 1) {
    // c[0, :] = op(B)^T a[0, :]: B is stored [k, n] (NoTrans) or [n, k].
    blasint incx = ta == CblasNoTrans ? 1 : lda;
    if (tb == CblasNoTrans)
      gemv(flip(tb), k, n, b, ldb, a, incx, c, 1);
    else
      gemv(flip(tb), n, k, b, ldb, a, incx, c, 1);
    return true;
  }
  if (n == 1) {
    // c[:, 0] = op(A) b[:, 0]: A is stored [m, k] (NoTrans) or [k, m].
    blasint incx = tb == CblasNoTrans ? ldb : 1;
    if (ta == CblasNoTrans)
      gemv(ta, m, k, a, lda, b, incx, c, ldc);
    else
      gemv(ta, k, m, a, lda, b, incx, c, ldc);
    return true;
  }
  return false;
}

/// Whether f32 products with two run-time operands go to OpenBLAS instead
/// of oneDNN (RELAX_SGEMM=openblas, for side-by-side benchmarks). OpenBLAS
/// picks its kernels from a table of CPU models it knows: Debian's 0.3.21
/// runs its SSE3 kernels on CPUs newer than it (measured on a Xeon with
/// AVX-512: 18% of the core's FMA peak), where oneDNN dispatches on the
/// cpuid feature bits themselves.
bool sgemmOnOpenBlas() {
  static const bool openblas = [] {
    const char *choice = std::getenv("RELAX_SGEMM");
    return choice && std::string(choice) == "openblas";
  }();
  return openblas;
}

void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n,
          blasint k, const float *a, blasint lda, const float *b, blasint ldb,
          float *c, blasint ldc) {
#ifdef RELAX_RUNTIME_HAS_DNNL
  if (!sgemmOnOpenBlas()) {
    // On the calling thread alone: the runtime's pool splits products
    // (a team of one makes oneDNN's OpenMP loops run inline).
    int team = omp_get_max_threads();
    if (team != 1)
      omp_set_num_threads(1);
    dnnl_status_t status = dnnl_sgemm(ta == CblasNoTrans ? 'N' : 'T',
                                      tb == CblasNoTrans ? 'N' : 'T', m, n, k,
                                      1.0f, a, lda, b, ldb, 0.0f, c, ldc);
    if (team != 1)
      omp_set_num_threads(team);
    if (status == dnnl_success)
      return;
  }
#endif
  if (gemvIfVector(ta, tb, m, n, k, a, lda, b, ldb, c, ldc))
    return;
  cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c,
              ldc);
}

void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n,
          blasint k, const double *a, blasint lda, const double *b, blasint ldb,
          double *c, blasint ldc) {
  if (gemvIfVector(ta, tb, m, n, k, a, lda, b, ldb, c, ldc))
    return;
  cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
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

/// How one input reaches cblas: in place, or through `packed`.
template <typename T> struct BlasOperand {
  const T *data = nullptr;
  CBLAS_TRANSPOSE trans = CblasNoTrans;
  blasint ld = 0;
  std::vector<T> packed;

  explicit BlasOperand(Matrix<T> m) {
    m = normalise(m);
    if (m.colStride == 1 && m.rowStride >= std::max<int64_t>(m.cols, 1) &&
        fitsBlasInt(m.rowStride)) {
      data = m.data;
      ld = static_cast<blasint>(m.rowStride);
      return;
    }
    if (m.rowStride == 1 && m.colStride >= std::max<int64_t>(m.rows, 1) &&
        fitsBlasInt(m.colStride)) {
      data = m.data;
      trans = CblasTrans;
      ld = static_cast<blasint>(m.colStride);
      return;
    }
    packed.resize(m.rows * m.cols);
    for (int64_t i = 0; i < m.rows; ++i)
      for (int64_t j = 0; j < m.cols; ++j)
        packed[i * m.cols + j] = m.data[i * m.rowStride + j * m.colStride];
    data = packed.data();
    ld = static_cast<blasint>(std::max<int64_t>(m.cols, 1));
  }
};

/// Products smaller than this (2 m n k, summed over batches) run on the
/// calling thread: starting the pool's workers costs about a microsecond
/// when they spin, about what a single core needs for a million flops.
constexpr double kMinParallelFlops = 1 << 16;

/// Every thread of the pool is ours: OpenBLAS computes on the calling
/// thread only, set once, when the runtime is loaded. Its pthread build
/// starts worker threads when it loads, which then spin (sched_yield) for
/// about 0.1 s before they sleep: on a two-core machine one of them held
/// the core of the pool's worker in 5 of 8 short relax-run processes (the
/// two-thread MLP at one-thread speed; 1 of 8 with OPENBLAS_NUM_THREADS=1).
/// They are stopped through the build's own shutdown entry point where it has
/// one; OpenBLAS would start them again if it were ever given more threads.
///
/// RELAX_MAX_CPU_ISA caps oneDNN's kernels as it caps the runtime's own
/// (CpuGemv.h), so one variable runs every product at, say, the AVX2 level
/// on an AVX-512 machine.
[[gnu::constructor]] void singleThreadedBlas() {
  openblas_set_num_threads(1);
#ifdef RELAX_RUNTIME_HAS_DNNL
  if (std::getenv("RELAX_MAX_CPU_ISA")) {
    switch (relax::runtime::cpuIsa()) {
    case relax::runtime::CpuIsa::Generic:
      dnnl_set_max_cpu_isa(dnnl_cpu_isa_sse41);
      break;
    case relax::runtime::CpuIsa::Avx2:
      dnnl_set_max_cpu_isa(dnnl_cpu_isa_avx2);
      break;
    case relax::runtime::CpuIsa::Avx512:
      break;
    }
  }
#endif
  if (auto shutdown = reinterpret_cast<int (*)()>(
          dlsym(RTLD_DEFAULT, "blas_thread_shutdown_")))
    shutdown();
}

/// How many threads a product of `flops` may use.
int threadsFor(double flops) {
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
int64_t pieceStart(int64_t extent, int64_t parts, int64_t q,
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

/// C = A * B through the kernels of CpuGemv.h when A has at most
/// kMaxGemvRows rows, or kMaxDotRows with B^T stored [n, k] (f32, unit
/// column strides of A and C): B is read where it is, split by columns
/// over `threads`. False otherwise.
template <typename T>
bool multiplyFewRows(Matrix<T> a, Matrix<T> b, Matrix<T> c, int threads) {
  if constexpr (!std::is_same_v<T, float>)
    return false;
  else {
    a = normalise(a);
    b = normalise(b);
    c = normalise(c);
    // A product of few columns is one of few rows transposed:
    // C^T = B^T A^T.
    auto transpose = [](Matrix<T> m) {
      return Matrix<T>{m.data, m.cols, m.rows, m.colStride, m.rowStride};
    };
    if (c.rows > relax::runtime::kMaxGemvRows &&
        c.cols <= relax::runtime::kMaxGemvRows)
      return multiplyFewRows(transpose(b), transpose(a), transpose(c), threads);
    if (c.rows > relax::runtime::kMaxDotRows || a.colStride != 1 ||
        c.colStride != 1)
      return false;
    return relax::runtime::gemvSmallRows(
        c.rows, c.cols, a.cols, a.data, a.rowStride, b.data, b.rowStride,
        b.colStride, c.data, c.rowStride, threads);
  }
}

/// C = A * B for one matrix triple whose shapes were validated.
template <typename T> void multiply(Matrix<T> a, Matrix<T> b, Matrix<T> c) {
  int64_t m = c.rows, n = c.cols, k = a.cols;
  if (m == 0 || n == 0)
    return;
  c = normalise(c);
  if (k == 0) {
    // An empty sum: BLAS implementations disagree on whether they write C.
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        c.data[i * c.rowStride + j * c.colStride] = T(0);
    return;
  }
  if (multiplyFewRows(a, b, c, 1))
    return;
  BlasOperand<T> lhs(a), rhs(b);
  bool direct =
      c.colStride == 1 && c.rowStride >= n && fitsBlasInt(c.rowStride);
  std::vector<T> out;
  T *dst = c.data;
  blasint ldc = static_cast<blasint>(c.rowStride);
  if (!direct) {
    out.resize(m * n);
    dst = out.data();
    ldc = static_cast<blasint>(n);
  }
  gemm(lhs.trans, rhs.trans, static_cast<blasint>(m), static_cast<blasint>(n),
       static_cast<blasint>(k), lhs.data, lhs.ld, rhs.data, rhs.ld, dst, ldc);
  if (!direct)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        c.data[i * c.rowStride + j * c.colStride] = out[i * n + j];
}

/// The batch dims of a call (C's leading dims, at most two) and the flat
/// index over them that each operand's matrix is found at.
struct Batch {
  int rank = 0;
  int64_t sizes[2] = {1, 1};
  int64_t count() const { return sizes[0] * sizes[1]; }
};

/// C = A * B on `threads` threads: C's larger dim is cut into one block per
/// thread, so each thread reads the whole of the smaller operand.
template <typename T>
void multiplySplit(Matrix<T> a, Matrix<T> b, Matrix<T> c, int threads) {
  if (c.rows > 0 && c.cols > 0 && a.cols > 0 &&
      multiplyFewRows(a, b, c, threads))
    return;
  bool byRows = c.rows >= c.cols;
  int64_t extent = byRows ? c.rows : c.cols;
  int64_t parts = std::min<int64_t>(threads, extent);
  if (parts <= 1)
    return multiply(a, b, c);
  parallelFor(parts, threads, [&](int64_t p) {
    int64_t begin = pieceStart(extent, parts, p),
            end = pieceStart(extent, parts, p + 1);
    if (byRows)
      multiply(rowsOf(a, begin, end), b, rowsOf(c, begin, end));
    else
      multiply(a, colsOf(b, begin, end), colsOf(c, begin, end));
  });
}

/// The last two dims of a descriptor as a matrix, at flat batch index
/// `flat` of `batch` (ignored for rank 2). A batch dim of extent 1 in `d`
/// broadcasts.
template <typename T, int N>
Matrix<T> matrixOf(MemRef<T, N> *d, const Batch &batch, int64_t flat,
                   bool transposed) {
  T *base = d->aligned + d->offset;
  if constexpr (N > 2) {
    // Row-major over the batch dims: the last batch dim varies fastest.
    for (int i = N - 3, j = batch.rank - 1; i >= 0; --i, --j) {
      int64_t index = flat % batch.sizes[j];
      flat /= batch.sizes[j];
      if (d->sizes[i] != 1)
        base += index * d->strides[i];
    }
  }
  Matrix<T> m{base, d->sizes[N - 2], d->sizes[N - 1], d->strides[N - 2],
              d->strides[N - 1]};
  if (transposed) {
    std::swap(m.rows, m.cols);
    std::swap(m.rowStride, m.colStride);
  }
  return m;
}

template <typename T, int N> bool hasNegativeSize(const MemRef<T, N> *d) {
  for (int i = 0; i < N; ++i)
    if (d->sizes[i] < 0)
      return true;
  return false;
}

/// Whether the batch dims and the rows of `d` are one run of rows: then its
/// matrices stack into a single matrix of batch * rows rows.
template <typename T, int N> bool batchesStackAsRows(const MemRef<T, N> *d) {
  int64_t expected = d->strides[N - 2];
  for (int i = N - 3; i >= 0; --i) {
    expected *= d->sizes[i + 1];
    if (d->sizes[i] != 1 && d->strides[i] != expected)
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// GEMMs with a constant B: oneDNN, its weights packed once
//===----------------------------------------------------------------------===//

#ifdef RELAX_RUNTIME_HAS_DNNL
/// A module constant B (the weights of a linear layer), reordered once into
/// the layout oneDNN's matmul kernels read, with one primitive per shape of
/// A and C (the rows follow symbolic dims). Keyed by B's address and view:
/// constants stay where they are while their module is loaded, and
/// relax_rt_blas_release_constants forgets them when it is not.
struct PackedKey {
  const float *data;
  int64_t k, n, rowStride, colStride;
  bool operator<(const PackedKey &o) const {
    return std::tie(data, k, n, rowStride, colStride) <
           std::tie(o.data, o.k, o.n, o.rowStride, o.colStride);
  }
};
/// How one product shape runs: oneDNN's matmul on the packed weights with
/// the epilogue as post-ops where the matmul is brgemm (AVX-512 and up);
/// otherwise (oneDNN 2.6's gemm-based matmul, all it has below AVX-512)
/// dnnl_sgemm, then the bias, an eltwise primitive for the activation and
/// the residual. That matmul applies post-ops in reference code and is
/// dnnl_sgemm on B as it is: oneDNN 2.6's AVX2 sgemm takes twice its time
/// when B's rows are 64-byte aligned and a multiple of 4 KiB apart (128 x
/// 768 by 768 x 3072, a BERT-base FFN: 12 against 6 ms, measured on a Zen 4
/// capped at AVX2, 2026-12-06), so such a B is copied once with its rows
/// 64 bytes further apart, as the matmul would have packed it.
struct PackedPrimitive {
  dnnl::matmul matmul;              // null: C = A * B by dnnl_sgemm
  dnnl::eltwise_forward activation; // with sgemm: the activation, if any
  bool viaSgemm = false;
  Matrix<float> b{}; // with sgemm: B or its padded copy
  explicit operator bool() const { return matmul || viaSgemm; }
};
/// (rows, A's row stride, C's row stride, bias, activation, residual and
/// its row stride): what a primitive is made for besides B.
using ProductShape =
    std::tuple<int64_t, int64_t, int64_t, bool, int, bool, int64_t>;
struct PackedWeights {
  dnnl::memory weights;
  std::vector<float> padded; // sgemm's copy of B, if B needed one
  std::map<ProductShape, PackedPrimitive> primitives;
  /// Brgemm on B as it is stored (no weights): made by plainPrimitive; a
  /// null one records that oneDNN has none for the shape.
  std::map<ProductShape, PackedPrimitive> plainPrimitives;
  /// Rows of A multiplied by B as it is stored so far (runsOnPlainB).
  int64_t plainRows = 0;
};

/// Rows of A that a constant B is multiplied by as it is stored before it
/// is packed. Packing (a reorder into oneDNN's blocked layout) costs about
/// four 32-row products on the weights as they are (2048 x 5632, one Zen 4
/// core, 2026-12-07: 42 against 10-14 ms), and saves 5-30% of each product
/// after it (brgemm then need not copy blocks of B per call): the packing
/// is bought once its rent, about 10% of 1024 rows, has been paid. A
/// prompt's prefill (an LLM's first call, 32 rows) thus runs without the
/// 42 ms and without a second copy of the weights; repeated products of
/// the same weights (a served encoder) are packed after a few calls.
constexpr int64_t kPackAfterRows = 1024;

/// kPackAfterRows, or RELAX_PACK_AFTER_ROWS where set (0 packs at first
/// use: the tests of the packed kernels run both ways).
int64_t packAfterRows() {
  static const int64_t rows = [] {
    const char *v = std::getenv("RELAX_PACK_AFTER_ROWS");
    char *end = nullptr;
    long long parsed = v ? std::strtoll(v, &end, 10) : -1;
    return v && *v && !*end && parsed >= 0 ? int64_t(parsed) : kPackAfterRows;
  }();
  return rows;
}

dnnl::engine &cpuEngine() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

std::mutex packedMutex;
std::map<PackedKey, std::unique_ptr<PackedWeights>> packedCache;

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
               std::unordered_map<int, dnnl::memory> args) {
  static thread_local std::vector<char> scratchpad;
  dnnl::memory::desc desc(*dnnl_primitive_desc_query_md(
      primitive.get_primitive_desc(), dnnl_query_scratchpad_md, 0));
  if (desc.get_size() == 0)
    return args;
  scratchpad.resize(std::max(scratchpad.size(), desc.get_size()));
  args.emplace(DNNL_ARG_SCRATCHPAD,
               dnnl::memory(desc, cpuEngine(), scratchpad.data()));
  return args;
}

/// Whether a matmul implementation is oneDNN's gemm-based one ("gemm:jit",
/// "gemm:blas"...), not brgemm.
bool isGemmBased(const dnnl::matmul::primitive_desc &pd) {
  return std::strncmp(pd.impl_info_str(), "gemm:", 5) == 0;
}

dnnl::algorithm eltwiseOf(GemmActivation activation) {
  return activation == GemmActivation::Gelu ? dnnl::algorithm::eltwise_gelu_erf
                                            : dnnl::algorithm::eltwise_relu;
}

/// The cache entry of this view of a constant B, made empty on first use.
/// The caller holds packedMutex.
PackedWeights &entryFor(Matrix<float> b) {
  std::unique_ptr<PackedWeights> &entry =
      packedCache[PackedKey{b.data, b.rows, b.cols, b.rowStride, b.colStride}];
  if (!entry)
    entry = std::make_unique<PackedWeights>();
  return *entry;
}

ProductShape shapeOf(Matrix<float> a, Matrix<float> c, bool bias,
                     GemmActivation activation, bool residual,
                     int64_t residualRowStride) {
  return std::make_tuple(a.rows, a.rowStride, c.rowStride, bias,
                         static_cast<int>(activation), residual,
                         residualRowStride);
}

/// oneDNN's matmul computing C = A * B + epilogue for B described by
/// `bDesc` (its stored layout, or `any` to let oneDNN choose a packing).
/// The bias and activation are the primitive's bias and an eltwise
/// post-op, the residual a binary post-op over a tensor of C's shape: each
/// applied to a block of C while it is in registers.
dnnl::matmul::primitive_desc
matmulDesc(Matrix<float> a, const dnnl::memory::desc &bDesc, Matrix<float> c,
           bool bias, GemmActivation activation, bool residual,
           int64_t residualRowStride) {
  using dnnl::memory;
  memory::desc aDesc({a.rows, a.cols}, memory::data_type::f32,
                     memory::dims{a.rowStride, 1});
  memory::desc cDesc({c.rows, c.cols}, memory::data_type::f32,
                     memory::dims{c.rowStride, 1});
  memory::desc biasDesc({1, c.cols}, memory::data_type::f32,
                        memory::format_tag::ab);
  dnnl::post_ops ops;
  if (activation != GemmActivation::None)
    ops.append_eltwise(1.0f, eltwiseOf(activation), 0.0f, 0.0f);
  if (residual)
    ops.append_binary(dnnl::algorithm::binary_add,
                      memory::desc({c.rows, c.cols}, memory::data_type::f32,
                                   memory::dims{residualRowStride, 1}));
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  // Pieces of products run at once on the pool's threads: each thread
  // passes its own scratchpad (withScratchpad).
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return dnnl::matmul::primitive_desc(
      bias ? dnnl::matmul::desc(aDesc, bDesc, biasDesc, cDesc)
           : dnnl::matmul::desc(aDesc, bDesc, cDesc),
      attr, cpuEngine());
}

/// Whether a product of `rows` rows by the constant B runs on B as it is
/// stored (plainPrimitive) rather than on a packed copy: while the rows B
/// was multiplied by so far stay under kPackAfterRows. Counts the rows.
bool runsOnPlainB(Matrix<float> b, int64_t rows) {
  std::lock_guard<std::mutex> lock(packedMutex);
  PackedWeights &entry = entryFor(b);
  if (entry.plainRows + rows > packAfterRows())
    return false;
  entry.plainRows += rows;
  return true;
}

/// The primitive computing C = A * B for this view of a constant B as it is
/// stored, brgemm copying the blocks of B it needs per call; null when
/// oneDNN has no brgemm kernel for it (below AVX-512 its matmul is
/// gemm-based: packedPrimitive's sgemm path then runs it).
PackedPrimitive plainPrimitive(Matrix<float> a, Matrix<float> b,
                               Matrix<float> c, bool bias,
                               GemmActivation activation, bool residual,
                               int64_t residualRowStride,
                               dnnl::memory &weights) {
  using dnnl::memory;
  memory::desc bDesc({b.rows, b.cols}, memory::data_type::f32,
                     memory::dims{b.rowStride, b.colStride});
  std::lock_guard<std::mutex> lock(packedMutex);
  PackedWeights &entry = entryFor(b);
  ProductShape shape =
      shapeOf(a, c, bias, activation, residual, residualRowStride);
  auto found = entry.plainPrimitives.find(shape);
  if (found == entry.plainPrimitives.end()) {
    PackedPrimitive made;
    try {
      dnnl::matmul::primitive_desc pd = matmulDesc(
          a, bDesc, c, bias, activation, residual, residualRowStride);
      if (!isGemmBased(pd))
        made.matmul = dnnl::matmul(pd);
    } catch (const dnnl::error &) {
    }
    found = entry.plainPrimitives.emplace(shape, made).first;
  }
  if (found->second)
    weights = memory(bDesc, cpuEngine(), const_cast<float *>(b.data));
  return found->second;
}

/// The primitives computing C = A * B for this view of a constant B,
/// packing B on first use; null when oneDNN has no kernel for these
/// layouts.
PackedPrimitive packedPrimitive(Matrix<float> a, Matrix<float> b,
                                Matrix<float> c, bool bias,
                                GemmActivation activation, bool residual,
                                int64_t residualRowStride,
                                dnnl::memory &weights) {
  using dnnl::memory;
  memory::dims bStrides = {b.rowStride, b.colStride};
  std::lock_guard<std::mutex> lock(packedMutex);
  PackedWeights &entry = entryFor(b);
  ProductShape shape =
      shapeOf(a, c, bias, activation, residual, residualRowStride);
  auto found = entry.primitives.find(shape);
  if (found != entry.primitives.end()) {
    weights = entry.weights;
    return found->second;
  }
  try {
    memory::desc bAny({b.rows, b.cols}, memory::data_type::f32,
                      memory::format_tag::any);
    memory::desc cDesc({c.rows, c.cols}, memory::data_type::f32,
                       memory::dims{c.rowStride, 1});
    dnnl::matmul::primitive_desc pd = matmulDesc(
        a, bAny, c, bias, activation, residual, residualRowStride);
    PackedPrimitive made;
    if (isGemmBased(pd)) {
      made.viaSgemm = true;
      if (activation != GemmActivation::None)
        made.activation =
            dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(
                dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference,
                                            eltwiseOf(activation), cDesc, 0.0f,
                                            0.0f),
                cpuEngine()));
      made.b = b;
      constexpr int64_t kPad = 64 / sizeof(float);
      if (b.colStride == 1 && b.rows > 1 &&
          (b.rowStride * int64_t(sizeof(float))) % 4096 == 0) {
        if (entry.padded.empty()) {
          entry.padded.resize(b.rows * (b.cols + kPad));
          for (int64_t i = 0; i < b.rows; ++i)
            std::copy(b.data + i * b.rowStride,
                      b.data + i * b.rowStride + b.cols,
                      entry.padded.data() + i * (b.cols + kPad));
        }
        made.b = {entry.padded.data(), b.rows, b.cols, b.cols + kPad, 1};
      }
      entry.primitives.emplace(shape, made);
      return made;
    }
    if (!entry.weights) {
      memory::desc bDesc({b.rows, b.cols}, memory::data_type::f32, bStrides);
      memory plain(bDesc, cpuEngine(), const_cast<float *>(b.data));
      memory packed(pd.weights_desc(), cpuEngine());
      dnnl::stream stream(cpuEngine());
      dnnl::reorder(plain, packed).execute(stream, plain, packed);
      stream.wait();
      entry.weights = packed;
    } else if (pd.weights_desc() != entry.weights.get_desc()) {
      // A kernel for these rows that wants another packing: not worth a
      // second copy of the weights.
      return PackedPrimitive();
    }
    made.matmul = dnnl::matmul(pd);
    entry.primitives.emplace(shape, made);
    weights = entry.weights;
    return made;
  } catch (const dnnl::error &) {
    // The entry keeps what it had: packed weights are set only once filled.
    return PackedPrimitive();
  }
}

/// One piece of C = A * B through oneDNN, on B as it is stored (`plain`,
/// where brgemm runs it) or packed once, on the calling thread, whose
/// OpenMP team is one (multiplyPacked); false when oneDNN has no kernel for
/// it.
bool multiplyPackedPiece(Matrix<float> a, Matrix<float> b, Matrix<float> c,
                         const GemmEpilogue<float> &epilogue, Matrix<float> r,
                         bool plain) {
  dnnl::memory weights;
  PackedPrimitive primitive;
  if (plain)
    primitive = plainPrimitive(a, b, c, epilogue.bias != nullptr,
                               epilogue.activation, epilogue.residual,
                               epilogue.residual ? r.rowStride : 0, weights);
  if (!primitive)
    primitive = packedPrimitive(a, b, c, epilogue.bias != nullptr,
                                epilogue.activation, epilogue.residual,
                                epilogue.residual ? r.rowStride : 0, weights);
  if (!primitive)
    return false;
  using dnnl::memory;
  memory::desc cDesc({c.rows, c.cols}, memory::data_type::f32,
                     memory::dims{c.rowStride, 1});
  if (primitive.viaSgemm) {
    multiply(a, primitive.b, c);
    if (!primitive.activation) {
      applyEpilogue(c, epilogue, r);
      return true;
    }
    // The eltwise primitive between the bias and the residual.
    GemmEpilogue<float> bias = epilogue;
    bias.activation = GemmActivation::None;
    bias.residual = false;
    applyEpilogue(c, bias, r);
    memory cMem(cDesc, cpuEngine(), c.data);
    runOnStream([&](dnnl::stream &stream) {
      primitive.activation.execute(
          stream, {{DNNL_ARG_SRC, cMem}, {DNNL_ARG_DST, cMem}});
    });
    GemmEpilogue<float> residual;
    residual.residual = epilogue.residual;
    applyEpilogue(c, residual, r);
    return true;
  }
  memory aMem(memory::desc({a.rows, a.cols}, memory::data_type::f32,
                           memory::dims{a.rowStride, 1}),
              cpuEngine(), a.data);
  memory cMem(cDesc, cpuEngine(), c.data);
  std::unordered_map<int, memory> args = {
      {DNNL_ARG_SRC, aMem}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, cMem}};
  if (epilogue.bias)
    args.emplace(DNNL_ARG_BIAS,
                 memory(memory::desc({1, c.cols}, memory::data_type::f32,
                                     memory::format_tag::ab),
                        cpuEngine(), const_cast<float *>(epilogue.bias)));
  if (epilogue.residual)
    args.emplace(DNNL_ARG_ATTR_MULTIPLE_POST_OP(
                     epilogue.activation == GemmActivation::None ? 0 : 1) |
                     DNNL_ARG_SRC_1,
                 memory(memory::desc({r.rows, r.cols}, memory::data_type::f32,
                                     memory::dims{r.rowStride, 1}),
                        cpuEngine(), r.data));
  runOnStream([&](dnnl::stream &stream) {
    primitive.matmul.execute(
        stream, withScratchpad(primitive.matmul, std::move(args)));
  });
  return true;
}

/// C = A * B through oneDNN, on B as it is stored until it has been
/// multiplied by kPackAfterRows rows, then on a copy packed once; cut into
/// one piece per thread of the pool: blocks of C's rows, or for a product
/// of few rows blocks of columns (each with its own packing of B's
/// columns). A piece oneDNN has no kernel for runs on the BLAS. False when
/// the layouts do not suit oneDNN (the caller then runs the BLAS).
bool multiplyPacked(Matrix<float> a, Matrix<float> b, Matrix<float> c,
                    int threads, const GemmEpilogue<float> &epilogue,
                    Matrix<float> r) {
  a = normalise(a);
  c = normalise(c);
  r = normalise(r);
  if (a.rows == 0 || b.cols == 0 || a.cols == 0 || a.colStride != 1 ||
      c.colStride != 1 ||
      (epilogue.bias && b.cols > 1 && epilogue.biasStride != 1) ||
      (epilogue.residual && r.colStride != 1))
    return false;
  // The pool splits the product: oneDNN plans and runs each piece on one
  // thread (pool workers' teams are one already). A primitive made for the
  // team would fork it on every call.
  TeamSize team(1);
  bool plain = runsOnPlainB(b, c.rows);
  auto piece = [plain](Matrix<float> pa, Matrix<float> pb, Matrix<float> pc,
                       const GemmEpilogue<float> &pe, Matrix<float> pr) {
    if (multiplyPackedPiece(pa, pb, pc, pe, pr, plain))
      return;
    multiply(pa, pb, pc);
    applyEpilogue(pc, pe, pr);
  };
  // Columns in multiples of 16, a vector register's worth in oneDNN's
  // packed layouts.
  constexpr int64_t kColumnGrain = 16;
  bool byRows = c.rows >= 8 * int64_t(threads);
  bool byColumns =
      !byRows && c.cols >= 8 * kColumnGrain * int64_t(threads);
  if (threads <= 1 || (!byRows && !byColumns)) {
    piece(a, b, c, epilogue, r);
    return true;
  }
  int64_t parts = threads;
  parallelFor(parts, threads, [&](int64_t p) {
    if (byRows) {
      int64_t begin = pieceStart(c.rows, parts, p),
              end = pieceStart(c.rows, parts, p + 1);
      piece(rowsOf(a, begin, end), b, rowsOf(c, begin, end), epilogue,
            epilogue.residual ? rowsOf(r, begin, end) : r);
      return;
    }
    int64_t begin = pieceStart(c.cols, parts, p, kColumnGrain),
            end = pieceStart(c.cols, parts, p + 1, kColumnGrain);
    GemmEpilogue<float> pe = epilogue;
    if (pe.bias)
      pe.bias += begin * pe.biasStride;
    piece(a, colsOf(b, begin, end), colsOf(c, begin, end), pe,
          epilogue.residual ? colsOf(r, begin, end) : r);
  });
  return true;
}
#endif

/// C = A * B for a B that is a module constant: packed once where the
/// runtime has oneDNN, the BLAS otherwise.
template <typename T>
void multiplyConstantB(Matrix<T> a, Matrix<T> b, Matrix<T> c, int threads,
                       const GemmEpilogue<T> &epilogue, Matrix<T> r) {
  // Decode-sized products stream B as it is stored: a packed copy would
  // be read just as once per call, and is a second copy of the weights.
  if (c.rows > 0 && c.cols > 0 && a.cols > 0 &&
      multiplyFewRows(a, b, c, threads)) {
    applyEpilogue(c, epilogue, r);
    return;
  }
#ifdef RELAX_RUNTIME_HAS_DNNL
  if constexpr (std::is_same_v<T, float>)
    if (multiplyPacked(a, b, c, threads, epilogue, r))
      return;
#endif
  multiplySplit(a, b, c, threads);
  applyEpilogue(c, epilogue, r);
}

/// Validates and runs C = A * op(B), for A and C of rank RA (2 to 4: up to
/// two batch dims) and B of rank RB (RA, or 2 when B is shared by every
/// batch). A batch dim of extent 1 in A or B broadcasts.
template <typename T, int RA, int RB>
void matmul(const char *fn, MemRef<T, RA> *a, MemRef<T, RB> *b,
            MemRef<T, RA> *c, bool transposeB, bool constantB = false,
            MemRef<T, 1> *bias = nullptr,
            GemmActivation activation = GemmActivation::None,
            MemRef<T, RA> *r = nullptr) {
  static_assert(RA >= 2 && RA <= 4 && (RB == RA || RB == 2));
  if (!a || !b || !c) {
    reportError("%s: null memref descriptor", fn);
    return;
  }
  if (hasNegativeSize(a) || hasNegativeSize(b) || hasNegativeSize(c)) {
    reportError("%s: negative size in A %s, B %s or C %s", fn,
                shapeString(a).c_str(), shapeString(b).c_str(),
                shapeString(c).c_str());
    return;
  }
  int64_t m = a->sizes[RA - 2], k = a->sizes[RA - 1];
  int64_t kb = b->sizes[RB - (transposeB ? 1 : 2)];
  int64_t n = b->sizes[RB - (transposeB ? 2 : 1)];
  if (k != kb) {
    reportError("%s: A is %s and B is %s: inner dims differ (%lld vs %lld)", fn,
                shapeString(a).c_str(), shapeString(b).c_str(),
                static_cast<long long>(k), static_cast<long long>(kb));
    return;
  }
  Batch batch;
  batch.rank = RA - 2;
  for (int i = 0; i < RA - 2; ++i) {
    int64_t extent = a->sizes[i];
    if (RB == RA && b->sizes[i] != extent) {
      if (extent != 1 && b->sizes[i] != 1) {
        reportError("%s: A is %s and B is %s: batch dims differ (%lld vs "
                    "%lld)",
                    fn, shapeString(a).c_str(), shapeString(b).c_str(),
                    static_cast<long long>(extent),
                    static_cast<long long>(b->sizes[i]));
        return;
      }
      extent = std::max(extent, b->sizes[i]);
    }
    batch.sizes[i] = extent;
  }
  int64_t expected[4];
  for (int i = 0; i < RA - 2; ++i)
    expected[i] = batch.sizes[i];
  expected[RA - 2] = m;
  expected[RA - 1] = n;
  for (int i = 0; i < RA; ++i) {
    if (c->sizes[i] == expected[i])
      continue;
    std::string shape = "[";
    for (int j = 0; j < RA; ++j)
      shape += (j ? ", " : "") + std::to_string(expected[j]);
    shape += "]";
    reportError("%s: C is %s, expected %s for A %s and B %s", fn,
                shapeString(c).c_str(), shape.c_str(), shapeString(a).c_str(),
                shapeString(b).c_str());
    return;
  }
  if (!fitsBlasInt(m) || !fitsBlasInt(n) || !fitsBlasInt(k)) {
    reportError("%s: dims m = %lld, n = %lld, k = %lld exceed the BLAS "
                "integer range",
                fn, static_cast<long long>(m), static_cast<long long>(n),
                static_cast<long long>(k));
    return;
  }
  GemmEpilogue<T> epilogue;
  epilogue.activation = activation;
  if (bias) {
    if (bias->sizes[0] != n) {
      reportError("%s: the bias has %lld values, expected %lld (the columns "
                  "of C %s)",
                  fn, static_cast<long long>(bias->sizes[0]),
                  static_cast<long long>(n), shapeString(c).c_str());
      return;
    }
    epilogue.bias = bias->aligned + bias->offset;
    epilogue.biasStride = bias->strides[0];
  }
  if (r) {
    if (!std::equal(r->sizes, r->sizes + RA, c->sizes)) {
      reportError("%s: R is %s, expected the shape of C %s", fn,
                  shapeString(r).c_str(), shapeString(c).c_str());
      return;
    }
    epilogue.residual = true;
  }
  // R's view of batch i (a dummy when there is no R).
  auto otherOf = [&](int64_t i) {
    return r ? matrixOf(r, batch, i, false) : Matrix<T>{nullptr, 0, 0, 0, 0};
  };

  // A B shared by every batch over an A and C whose batches are stacked rows
  // (the usual [b, m, k] activations of a linear layer) is one GEMM with
  // b * m rows instead of b small ones.
  bool sharedB = true;
  if constexpr (RB > 2)
    for (int i = 0; i < RB - 2; ++i)
      sharedB &= b->sizes[i] == 1;
  int64_t count = batch.count();
  int threads =
      threadsFor(2.0 * double(m) * double(n) * double(k) * double(count));
  if (RA > 2 && sharedB && batchesStackAsRows(a) && batchesStackAsRows(c) &&
      fitsBlasInt(count * m)) {
    bool aFull = true;
    for (int i = 0; i < RA - 2; ++i)
      aFull &= a->sizes[i] == batch.sizes[i];
    if (aFull) {
      Matrix<T> lhs{a->aligned + a->offset, count * m, k, a->strides[RA - 2],
                    a->strides[RA - 1]};
      Matrix<T> out{c->aligned + c->offset, count * m, n, c->strides[RA - 2],
                    c->strides[RA - 1]};
      Matrix<T> rows{};
      if (r)
        rows = {r->aligned + r->offset, count * m, n, r->strides[RA - 2],
                r->strides[RA - 1]};
      if (constantB && (!r || batchesStackAsRows(r))) {
        multiplyConstantB(lhs, matrixOf(b, batch, 0, transposeB), out, threads,
                          epilogue, rows);
        return;
      }
      if (constantB && r) {
        // R's batches are not stacked rows: the product, then the epilogue
        // per batch.
        multiplyConstantB(lhs, matrixOf(b, batch, 0, transposeB), out, threads,
                          GemmEpilogue<T>{}, rows);
        for (int64_t i = 0; i < count; ++i)
          applyEpilogue(matrixOf(c, batch, i, false), epilogue, otherOf(i));
        return;
      }
      multiplySplit(lhs, matrixOf(b, batch, 0, transposeB), out, threads);
      return;
    }
  }
  if (RA == 2 && constantB) {
    multiplyConstantB(
        matrixOf(a, batch, 0, false), matrixOf(b, batch, 0, transposeB),
        matrixOf(c, batch, 0, false), threads, epilogue, otherOf(0));
    return;
  }
  auto product = [&](int64_t i) {
    return std::make_tuple(matrixOf(a, batch, i, false),
                           matrixOf(b, batch, i, transposeB),
                           matrixOf(c, batch, i, false));
  };
  // Enough batches (attention's heads) for every thread: one GEMM each at a
  // time; otherwise each GEMM is split.
  if (count >= threads) {
    parallelFor(count, threads, [&](int64_t i) {
      auto [ai, bi, ci] = product(i);
      multiply(ai, bi, ci);
      applyEpilogue(ci, epilogue, otherOf(i));
    });
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    auto [ai, bi, ci] = product(i);
    multiplySplit(ai, bi, ci, threads);
    applyEpilogue(ci, epilogue, otherOf(i));
  }
}


/// ceil(a / b) for b > 0 and any sign of a.
int64_t ceilDiv(int64_t a, int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/// Whether the window values are valid and X, W and Y (NCHW / OIHW views)
/// agree with them; reports what is wrong otherwise.
template <typename T>
bool checkConv(const char *fn, const MemRef<T, 4> *x, const MemRef<T, 4> *w,
               const int64_t win[9], const MemRef<T, 4> *y) {
  int64_t sh = win[0], sw = win[1], pt = win[2], pl = win[3], pb = win[4],
          pr = win[5], dh = win[6], dw = win[7], groups = win[8];
  if (sh <= 0 || sw <= 0 || dh <= 0 || dw <= 0 || groups <= 0 || pt < 0 ||
      pl < 0 || pb < 0 || pr < 0) {
    reportError("%s: bad window (strides %lld, %lld; padding %lld, %lld, "
                "%lld, %lld; dilation %lld, %lld; groups %lld)",
                fn, (long long)sh, (long long)sw, (long long)pt, (long long)pl,
                (long long)pb, (long long)pr, (long long)dh, (long long)dw,
                (long long)groups);
    return false;
  }
  if (hasNegativeSize(x) || hasNegativeSize(w) || hasNegativeSize(y)) {
    reportError("%s: negative size in X %s, W %s or Y %s", fn,
                shapeString(x).c_str(), shapeString(w).c_str(),
                shapeString(y).c_str());
    return false;
  }
  int64_t n = x->sizes[0], c = x->sizes[1], h = x->sizes[2], wd = x->sizes[3];
  int64_t o = w->sizes[0], cg = w->sizes[1], kh = w->sizes[2], kw = w->sizes[3];
  if (c != cg * groups || o % groups != 0) {
    reportError("%s: X is %s and W is %s: channels do not match %lld "
                "groups",
                fn, shapeString(x).c_str(), shapeString(w).c_str(),
                static_cast<long long>(groups));
    return false;
  }
  int64_t p = (h + pt + pb - dh * (kh - 1) - 1) / sh + 1;
  int64_t q = (wd + pl + pr - dw * (kw - 1) - 1) / sw + 1;
  if (h + pt + pb < dh * (kh - 1) + 1 || wd + pl + pr < dw * (kw - 1) + 1)
    p = q = 0;
  if (y->sizes[0] != n || y->sizes[1] != o || y->sizes[2] != p ||
      y->sizes[3] != q) {
    reportError("%s: Y is %s, expected [%lld, %lld, %lld, %lld] for X %s and "
                "W %s",
                fn, shapeString(y).c_str(), (long long)n, (long long)o,
                (long long)p, (long long)q, shapeString(x).c_str(),
                shapeString(w).c_str());
    return false;
  }
  return true;
}

#ifdef RELAX_RUNTIME_HAS_DNNL
/// Y = act(conv2d(X, W) + bias (+ R)) through oneDNN, cut into pieces over
/// the pool (below, with the fused convolutions); the bias and R may be
/// null. False when oneDNN has no kernel for these views.
bool convolveFused(const MemRef<float, 4> &x, const MemRef<float, 4> *w,
                   const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
                   const int64_t window[9], bool relu,
                   const MemRef<float, 4> &y, int threads);
#endif

/// Validates and runs Y = conv2d(X, W) (NCHW, OIHW) as im2col + GEMM: for
/// each image and group, the receptive fields become the columns of a
/// [g * r * s, p * q] matrix and W's group rows multiply it into Y's rows.
/// A 1x1 window with unit strides and no padding reads X in place.
template <typename T>
void conv2d(const char *fn, MemRef<T, 4> *x, MemRef<T, 4> *w,
            MemRef<int64_t, 1> *window, MemRef<T, 4> *y,
            bool constantW = false) {
  if (!x || !w || !window || !y) {
    reportError("%s: null memref descriptor", fn);
    return;
  }
  if (window->sizes[0] != 9) {
    reportError("%s: the window has %lld values, expected 9", fn,
                static_cast<long long>(window->sizes[0]));
    return;
  }
  int64_t win[9];
  for (int i = 0; i < 9; ++i)
    win[i] = window->aligned[window->offset + i * window->strides[0]];
  if (!checkConv(fn, x, w, win, y))
    return;
  int64_t sh = win[0], sw = win[1], pt = win[2], pl = win[3], pb = win[4],
          pr = win[5], dh = win[6], dw = win[7], groups = win[8];
  int64_t n = x->sizes[0], h = x->sizes[2], wd = x->sizes[3];
  int64_t o = w->sizes[0], cg = w->sizes[1], kh = w->sizes[2], kw = w->sizes[3];
  int64_t p = y->sizes[2], q = y->sizes[3];
  int64_t og = o / groups, kdim = cg * kh * kw, pixels = p * q;
  if (n == 0 || o == 0 || pixels == 0)
    return;
#ifdef RELAX_RUNTIME_HAS_DNNL
  if constexpr (std::is_same_v<T, float>) {
    int64_t window4[9] = {sh, sw, pt, pl, pb, pr, dh, dw, groups};
    if (constantW && kdim > 0 &&
        convolveFused(*x, w, nullptr, nullptr, window4, false, *y,
                      threadsFor(2.0 * double(n) * double(o) * double(kdim) *
                                 double(pixels))))
      return;
  }
#endif
  if (!fitsBlasInt(og) || !fitsBlasInt(kdim) || !fitsBlasInt(pixels)) {
    reportError("%s: GEMM dims exceed the BLAS integer range", fn);
    return;
  }
  // W's group g as a [og, kdim] matrix (its dims c, kh, kw must be one run
  // for that; otherwise a packed copy).
  std::vector<T> packedW;
  const T *wBase = w->aligned + w->offset;
  int64_t wRow = w->strides[0];
  bool wDense = (kh == 1 || w->strides[2] == kw * w->strides[3]) &&
                (cg == 1 || w->strides[1] == kh * kw * w->strides[3]) &&
                (kw == 1 || w->strides[3] == 1);
  if (!wDense || w->strides[3] != 1) {
    packedW.resize(o * kdim);
    for (int64_t a = 0; a < o; ++a)
      for (int64_t b = 0; b < cg; ++b)
        for (int64_t r = 0; r < kh; ++r)
          for (int64_t s = 0; s < kw; ++s)
            packedW[((a * cg + b) * kh + r) * kw + s] =
                wBase[a * w->strides[0] + b * w->strides[1] +
                      r * w->strides[2] + s * w->strides[3]];
    wBase = packedW.data();
    wRow = kdim;
  }
  // Y's image i, channels of group g as a [og, p * q] matrix.
  bool yDense = (q == 1 || y->strides[3] == 1) &&
                (p == 1 || y->strides[2] == q * y->strides[3]);
  bool pointwise = kh == 1 && kw == 1 && sh == 1 && sw == 1 && pt == 0 &&
                   pl == 0 && pb == 0 && pr == 0 &&
                   (wd == 1 || x->strides[3] == 1) &&
                   (h == 1 || x->strides[2] == wd * x->strides[3]);
  int64_t tasks = n * groups;
  int threads =
      threadsFor(2.0 * double(n) * double(o) * double(kdim) * double(pixels));
  auto run = [&](int64_t task, int gemmThreads) {
    int64_t i = task / groups, g = task % groups;
    const T *xImage = x->aligned + x->offset + i * x->strides[0];
    Matrix<T> cols;
    if (pointwise) {
      cols = {const_cast<T *>(xImage) + g * cg * x->strides[1], kdim, pixels,
              x->strides[1], 1};
    } else {
      // One buffer per thread, kept across calls: a fresh one would be
      // faulted in (and zeroed) on every call.
      static thread_local std::vector<T> im2col;
      im2col.resize(kdim * pixels);
      for (int64_t b = 0; b < cg; ++b) {
        const T *plane = xImage + (g * cg + b) * x->strides[1];
        for (int64_t r = 0; r < kh; ++r)
          for (int64_t s = 0; s < kw; ++s) {
            T *row = im2col.data() + ((b * kh + r) * kw + s) * pixels;
            // Output columns whose input column lies inside the image:
            // ix = ox * sw - pl + s * dw in [0, wd).
            int64_t shift = pl - s * dw;
            int64_t lo = std::clamp<int64_t>(ceilDiv(shift, sw), 0, q);
            int64_t hi = std::clamp<int64_t>(ceilDiv(wd + shift, sw), lo, q);
            for (int64_t oy = 0; oy < p; ++oy) {
              T *dst = row + oy * q;
              int64_t iy = oy * sh - pt + r * dh;
              if (iy < 0 || iy >= h) {
                std::fill(dst, dst + q, T(0));
                continue;
              }
              const T *line = plane + iy * x->strides[2];
              std::fill(dst, dst + lo, T(0));
              for (int64_t ox = lo; ox < hi; ++ox)
                dst[ox] = line[(ox * sw - shift) * x->strides[3]];
              std::fill(dst + hi, dst + q, T(0));
            }
          }
      }
      cols = {im2col.data(), kdim, pixels, pixels, 1};
    }
    Matrix<T> weights{const_cast<T *>(wBase) + g * og * wRow, og, kdim, wRow,
                      1};
    T *yBase =
        y->aligned + y->offset + i * y->strides[0] + g * og * y->strides[1];
    if (yDense) {
      multiplySplit(weights, cols,
                    Matrix<T>{yBase, og, pixels, y->strides[1], 1},
                    gemmThreads);
      return;
    }
    std::vector<T> out(og * pixels);
    multiplySplit(weights, cols, Matrix<T>{out.data(), og, pixels, pixels, 1},
                  gemmThreads);
    for (int64_t a = 0; a < og; ++a)
      for (int64_t oy = 0; oy < p; ++oy)
        for (int64_t ox = 0; ox < q; ++ox)
          yBase[a * y->strides[1] + oy * y->strides[2] + ox * y->strides[3]] =
              out[(a * p + oy) * q + ox];
  };
  // Images (and groups) over the team when there are enough; else each
  // GEMM split.
  if (tasks >= threads) {
    parallelFor(tasks, threads, [&](int64_t t) { run(t, 1); });
    return;
  }
  for (int64_t t = 0; t < tasks; ++t)
    run(t, threads);
}

//===----------------------------------------------------------------------===//
// Convolution with its epilogue: bias, residual, ReLU; NCHW or NHWC tensors
//===----------------------------------------------------------------------===//

/// The fused convolution's options operand: the window (as conv2d's), then
/// the layouts of X, Y and the residual (0 NCHW, 1 NHWC) and the activation
/// (0 none, 1 ReLU).
constexpr int64_t kConvFusedOptions = 13;

/// A 4-D tensor in NCHW or NHWC layout as an NCHW view of the same data.
template <typename T> MemRef<T, 4> nchwView(const MemRef<T, 4> *m, bool nhwc) {
  MemRef<T, 4> view = *m;
  if (nhwc) {
    const int fromNhwc[4] = {0, 3, 1, 2};
    for (int i = 0; i < 4; ++i) {
      view.sizes[i] = m->sizes[fromNhwc[i]];
      view.strides[i] = m->strides[fromNhwc[i]];
    }
  }
  return view;
}

#ifdef RELAX_RUNTIME_HAS_DNNL
/// A convolution with constant weights and its epilogue as one oneDNN
/// primitive: the bias is the primitive's, a residual is a `sum` post-op
/// (reordered into the destination first), the ReLU an eltwise post-op.
/// X, Y and the residual are described by their strides, so an NHWC tensor
/// is read and written in place by the NHWC kernels oneDNN prefers; only
/// the operands whose layout differs from the primitive's are reordered.
struct FusedConv {
  std::mutex mutex; // One call at a time: the scratch buffers are shared.
  dnnl::convolution_forward primitive;
  dnnl::memory weights, src, dst;
  dnnl::reorder toSrc, toDst, residualToDst;
  bool reorderSrc = false, reorderDst = false;
};
std::map<std::vector<int64_t>, std::unique_ptr<FusedConv>> fusedConvs;
/// The packings of each constant W (by address), shared by the primitives
/// of its pieces: row pieces of one convolution want the same layout.
std::map<const float *, std::vector<dnnl::memory>> fusedConvWeights;

/// oneDNN's description of an NCHW view with its own strides.
dnnl::memory::desc viewDesc(const MemRef<float, 4> &m) {
  return dnnl::memory::desc(dnnl::memory::dims(m.sizes, m.sizes + 4),
                            dnnl::memory::data_type::f32,
                            dnnl::memory::dims(m.strides, m.strides + 4));
}

/// The primitive of Y = act(conv2d(X, W) + bias (+ R)) on NCHW views,
/// made (and W packed) on first use, planned for the calling thread alone;
/// null when oneDNN has no kernel for them.
FusedConv *fusedConvFor(const MemRef<float, 4> &x, const MemRef<float, 4> *w,
                        const MemRef<float, 1> *bias,
                        const MemRef<float, 4> *r, const int64_t window[9],
                        bool relu, const MemRef<float, 4> &y, int64_t piece) {
  using dnnl::memory;
  auto positive = [](const MemRef<float, 4> &m) {
    for (int i = 0; i < 4; ++i)
      if (m.sizes[i] <= 0 || m.strides[i] <= 0)
        return false;
    return true;
  };
  // Broadcast (stride-0) or empty views, grouped or strided weights and a
  // strided bias are left to the general path.
  bool wDense = w->strides[3] == 1 && w->strides[2] == w->sizes[3] &&
                w->strides[1] == w->sizes[2] * w->sizes[3] &&
                w->strides[0] == w->sizes[1] * w->strides[1];
  int64_t groups = window[8];
  if (!positive(x) || !positive(y) || (r && !positive(*r)) || !wDense ||
      groups < 1 || w->sizes[0] % groups != 0 ||
      (bias && bias->sizes[0] > 1 && bias->strides[0] != 1))
    return nullptr;
  memory::desc xDesc = viewDesc(x), yDesc = viewDesc(y);
  memory::desc rDesc = r ? viewDesc(*r) : memory::desc();
  memory::dims wd(w->sizes, w->sizes + 4);
  // A grouped convolution's W (OIHW, O = groups * O/groups) is the same
  // bytes as oneDNN's goihw; a depthwise one (one input channel per group)
  // then runs on oneDNN's depthwise kernels instead of a GEMM per channel.
  memory::dims convW = wd;
  memory::format_tag wTag = memory::format_tag::oihw;
  if (groups > 1) {
    convW = {groups, wd[0] / groups, wd[1], wd[2], wd[3]};
    wTag = memory::format_tag::goihw;
  }
  std::vector<int64_t> key = {
      static_cast<int64_t>(reinterpret_cast<uintptr_t>(w->aligned + w->offset)),
      relu, r != nullptr, bias != nullptr, piece};
  key.insert(key.end(), wd.begin(), wd.end());
  key.insert(key.end(), window, window + 9);
  for (const MemRef<float, 4> *m : {&x, &y, r}) {
    if (!m)
      continue;
    key.insert(key.end(), m->sizes, m->sizes + 4);
    key.insert(key.end(), m->strides, m->strides + 4);
  }
  FusedConv *conv = nullptr;
  {
    std::lock_guard<std::mutex> lock(packedMutex);
    std::unique_ptr<FusedConv> &entry = fusedConvs[key];
    if (!entry) {
      try {
        auto any = [](const memory::dims &dims) {
          return memory::desc(dims, memory::data_type::f32,
                              memory::format_tag::any);
        };
        // A zero descriptor: no bias term.
        memory::desc biasDesc =
            bias ? memory::desc({wd[0]}, memory::data_type::f32,
                                memory::format_tag::a)
                 : memory::desc();
        // oneDNN counts dilation from 0 (1 = one gap).
        auto descOf = [&](dnnl::algorithm algorithm) {
          return dnnl::convolution_forward::desc(
              dnnl::prop_kind::forward_inference, algorithm, any(xDesc.dims()),
              any(convW), biasDesc, any(yDesc.dims()), {window[0], window[1]},
              {window[6] - 1, window[7] - 1}, {window[2], window[3]},
              {window[4], window[5]});
        };
        dnnl::post_ops ops;
        if (r)
          ops.append_sum(1.0f);
        if (relu)
          ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
        dnnl::primitive_attr attr;
        attr.set_post_ops(ops);
        // Pieces of one convolution run at once on the pool's threads:
        // each thread passes its own scratchpad (withScratchpad).
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        // A 3x3, stride-1, undilated window goes through Winograd F(2x2,
        // 3x3) where oneDNN has it (AVX-512, channels in blocks of 16): 2.25x
        // fewer multiplies, 0.58-0.62 against 0.97 ms for a ResNet-18 stage-1
        // conv; its transforms only scale by 1/2, so the error stays within
        // a few ulp of the sum. Every other window is direct.
        bool winograd = groups == 1 && wd[2] == 3 && wd[3] == 3 &&
                        window[0] == 1 && window[1] == 1 && window[6] == 1 &&
                        window[7] == 1 && wd[0] % 16 == 0 && wd[1] % 16 == 0;
        dnnl::convolution_forward::primitive_desc pd;
        if (winograd) {
          try {
            pd = dnnl::convolution_forward::primitive_desc(
                descOf(dnnl::algorithm::convolution_winograd), attr,
                cpuEngine());
          } catch (const dnnl::error &) {
            winograd = false;
          }
        }
        if (!winograd)
          pd = dnnl::convolution_forward::primitive_desc(
              descOf(dnnl::algorithm::convolution_direct), attr, cpuEngine());
        auto made = std::make_unique<FusedConv>();
        made->primitive = dnnl::convolution_forward(pd);
        std::vector<memory> &packings =
            fusedConvWeights[w->aligned + w->offset];
        for (const memory &packed : packings)
          if (packed.get_desc() == pd.weights_desc())
            made->weights = packed;
        if (!made->weights) {
          memory plainW(memory::desc(convW, memory::data_type::f32, wTag),
                        cpuEngine(), w->aligned + w->offset);
          made->weights = memory(pd.weights_desc(), cpuEngine());
          dnnl::stream stream(cpuEngine());
          dnnl::reorder(plainW, made->weights)
              .execute(stream, plainW, made->weights);
          stream.wait();
          packings.push_back(made->weights);
        }
        dnnl::primitive_attr reorderAttr;
        reorderAttr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        made->reorderSrc = pd.src_desc() != xDesc;
        made->reorderDst = pd.dst_desc() != yDesc;
        if (made->reorderSrc) {
          made->src = memory(pd.src_desc(), cpuEngine());
          made->toSrc = dnnl::reorder(dnnl::reorder::primitive_desc(
              cpuEngine(), xDesc, cpuEngine(), pd.src_desc(), reorderAttr));
        }
        if (made->reorderDst) {
          made->dst = memory(pd.dst_desc(), cpuEngine());
          made->toDst = dnnl::reorder(dnnl::reorder::primitive_desc(
              cpuEngine(), pd.dst_desc(), cpuEngine(), yDesc, reorderAttr));
        }
        if (r)
          made->residualToDst = dnnl::reorder(dnnl::reorder::primitive_desc(
              cpuEngine(), rDesc, cpuEngine(), pd.dst_desc(), reorderAttr));
        entry = std::move(made);
      } catch (const dnnl::error &) {
        fusedConvs.erase(key);
        return nullptr;
      }
    }
    conv = entry.get();
  }
  return conv;
}

/// Runs `conv` (fusedConvFor of the same views) on the calling thread.
void runFusedConv(FusedConv *conv, const MemRef<float, 4> &x,
                  const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
                  const MemRef<float, 4> &y) {
  using dnnl::memory;
  memory::desc xDesc = viewDesc(x), yDesc = viewDesc(y);
  memory::desc rDesc = r ? viewDesc(*r) : memory::desc();
  int64_t channels = y.sizes[1];
  std::lock_guard<std::mutex> busy(conv->mutex);
  memory xMem(xDesc, cpuEngine(), x.aligned + x.offset);
  memory yMem(yDesc, cpuEngine(), y.aligned + y.offset);
  memory biasMem;
  if (bias)
    biasMem = memory(
        memory::desc({channels}, memory::data_type::f32, memory::format_tag::a),
        cpuEngine(), bias->aligned + bias->offset);
  memory src = conv->reorderSrc ? conv->src : xMem;
  memory dst = conv->reorderDst ? conv->dst : yMem;
  // The residual already in place (Y is R) needs no copy.
  bool residualInPlace = r && !conv->reorderDst &&
                         r->aligned + r->offset == y.aligned + y.offset &&
                         rDesc == yDesc;
  // Runs `p` on its arguments plus this thread's scratchpad.
  auto run = [](dnnl::stream &stream, const dnnl::primitive &p,
                std::unordered_map<int, memory> args) {
    p.execute(stream, withScratchpad(p, std::move(args)));
  };
  runOnStream([&](dnnl::stream &stream) {
    if (conv->reorderSrc)
      run(stream, conv->toSrc, {{DNNL_ARG_FROM, xMem}, {DNNL_ARG_TO, src}});
    if (r && !residualInPlace) {
      memory rMem(rDesc, cpuEngine(), r->aligned + r->offset);
      run(stream, conv->residualToDst,
          {{DNNL_ARG_FROM, rMem}, {DNNL_ARG_TO, dst}});
    }
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, conv->weights},
        {DNNL_ARG_DST, dst}};
    if (bias)
      args.emplace(DNNL_ARG_BIAS, biasMem);
    run(stream, conv->primitive, std::move(args));
    if (conv->reorderDst)
      run(stream, conv->toDst, {{DNNL_ARG_FROM, dst}, {DNNL_ARG_TO, yMem}});
  });
}

/// Y = act(conv2d(X, W) + bias (+ R)) on NCHW views through oneDNN, cut
/// into one piece per thread of the pool, each a primitive planned for one
/// thread: blocks of output rows (each reads its rows of X, padded only at
/// the edges of X; the pieces share W's packing), or for outputs of few
/// rows blocks of output channels (each with its slice of W). Rows first:
/// a Winograd convolution transforms all of its input whatever its output
/// channels, so channel pieces would each transform all of X. False when
/// oneDNN has no kernel for them (the caller then computes it otherwise).
bool convolveFused(const MemRef<float, 4> &x, const MemRef<float, 4> *w,
                   const MemRef<float, 1> *bias, const MemRef<float, 4> *r,
                   const int64_t window[9], bool relu,
                   const MemRef<float, 4> &y, int threads) {
  TeamSize team(1);
  struct Piece {
    MemRef<float, 4> x, w, y, r;
    MemRef<float, 1> bias;
    int64_t window[9];
    FusedConv *conv;
  };
  int64_t rows = y.sizes[2], channels = w->sizes[0];
  // At least 4 output rows, or two blocks of 16 channels, per piece.
  int64_t rowParts = std::min<int64_t>(threads, rows / 4);
  // (Channel pieces of a grouped convolution would cut its groups.)
  int64_t channelParts = channels % 16 == 0 && window[8] == 1
                             ? std::min<int64_t>(threads, channels / 32)
                             : 1;
  bool byRows = rowParts >= std::max<int64_t>(channelParts, 2);
  int64_t parts = std::max<int64_t>(byRows ? rowParts : channelParts, 1);
  std::vector<Piece> pieces(parts);
  auto slice = [](const MemRef<float, 4> &m, int dim, int64_t begin,
                  int64_t end) {
    MemRef<float, 4> v = m;
    v.offset += begin * m.strides[dim];
    v.sizes[dim] = end - begin;
    return v;
  };
  // Every piece's primitive first, on this thread, so that a piece oneDNN
  // has no kernel for leaves Y (and an in-place residual) untouched.
  for (int64_t p = 0; p < parts; ++p) {
    Piece &piece = pieces[p];
    piece.x = x;
    piece.w = *w;
    if (bias)
      piece.bias = *bias;
    piece.y = y;
    if (r)
      piece.r = *r;
    std::copy(window, window + 9, piece.window);
    if (byRows) {
      int64_t begin = pieceStart(rows, parts, p),
              end = pieceStart(rows, parts, p + 1);
      // Input rows [first, last) of output rows [begin, end), in the
      // coordinates of the padded input.
      int64_t stride = window[0], padTop = window[2], height = x.sizes[2];
      int64_t extent = (w->sizes[2] - 1) * window[6] + 1;
      int64_t first = begin * stride - padTop;
      int64_t last = (end - 1) * stride - padTop + extent;
      piece.x = slice(x, 2, std::max<int64_t>(first, 0),
                      std::min(last, height));
      piece.window[2] = std::max<int64_t>(-first, 0);
      piece.window[4] = std::max<int64_t>(last - height, 0);
      piece.y = slice(y, 2, begin, end);
      if (r)
        piece.r = slice(*r, 2, begin, end);
    } else {
      int64_t begin = pieceStart(channels, parts, p, 16),
              end = pieceStart(channels, parts, p + 1, 16);
      piece.w.offset += begin * w->strides[0];
      piece.w.sizes[0] = end - begin;
      if (bias) {
        piece.bias.offset += begin * bias->strides[0];
        piece.bias.sizes[0] = end - begin;
      }
      piece.y = slice(y, 1, begin, end);
      if (r)
        piece.r = slice(*r, 1, begin, end);
    }
    piece.conv = fusedConvFor(piece.x, &piece.w, bias ? &piece.bias : nullptr,
                              r ? &piece.r : nullptr, piece.window, relu,
                              piece.y, byRows ? p : 0);
    if (!piece.conv)
      return false;
  }
  parallelFor(parts, threads, [&](int64_t p) {
    const Piece &piece = pieces[p];
    runFusedConv(piece.conv, piece.x, bias ? &piece.bias : nullptr,
                 r ? &piece.r : nullptr, piece.y);
  });
  return true;
}
#endif

/// The transpose of a matrix view (no data moves).
template <typename T> Matrix<T> transposed(Matrix<T> m) {
  return {m.data, m.cols, m.rows, m.colStride, m.rowStride};
}

/// Y = act(W X + bias (+ R)) per image for a 1x1 window with unit strides,
/// no padding and one group: a GEMM per image of [channels, pixels]
/// matrices read where they are, in whichever layout each tensor has (NCHW
/// or NHWC: H and W fold into one run of pixels). oneDNN's convolutions
/// want their own blocked (nChw16c) layouts and reorder X in and Y out of
/// them around each call: 11 of ResNet-50's 78 ms on a Zen 4 (2026-12-06),
/// where the products themselves run as fast as GEMMs (dnnl_sgemm took
/// 0.9-1.8 ms for its bottlenecks' 1x1 products, as the brgemm convolution
/// did). Y with channels last is computed as Y^T = X^T W^T, the packed-B
/// product with bias, ReLU and residual as post-ops; Y with channels first
/// as W X by blocks of channels, the epilogue along its rows. False
/// (nothing written) for any other convolution or layout.
template <typename T>
bool convolve1x1AsGemm(const MemRef<T, 4> &x, const MemRef<T, 4> *w,
                       const MemRef<T, 1> *bias, const MemRef<T, 4> *r,
                       const int64_t window[9], bool relu,
                       const MemRef<T, 4> &y, int threads) {
  if (w->sizes[2] != 1 || w->sizes[3] != 1 || window[0] != 1 ||
      window[1] != 1 || window[2] != 0 || window[3] != 0 || window[4] != 0 ||
      window[5] != 0 || window[8] != 1)
    return false;
  int64_t n = y.sizes[0], o = y.sizes[1], hw = y.sizes[2] * y.sizes[3];
  // Image `i` of `m` as [channels, pixels], or nothing when its pixels are
  // not one run of equal strides.
  auto image = [&](const MemRef<T, 4> &m, int64_t i) -> std::optional<Matrix<T>> {
    for (int d = 0; d < 4; ++d)
      if (m.strides[d] < 0)
        return std::nullopt;
    if (m.sizes[2] > 1 && m.strides[2] != m.sizes[3] * m.strides[3])
      return std::nullopt;
    return Matrix<T>{m.aligned + m.offset + i * m.strides[0], m.sizes[1], hw,
                     m.strides[1], m.strides[3]};
  };
  if (!image(x, 0) || !image(y, 0) || (r && !image(*r, 0)))
    return false;
  // X, Y and R in one layout: across layouts one GEMM operand is read
  // transposed, which took up to twice the convolution's time.
  auto channelsLastOf = [](const MemRef<T, 4> &m) { return m.strides[1] == 1; };
  if (hw > 1 && (channelsLastOf(x) != channelsLastOf(y) ||
                 (r && channelsLastOf(*r) != channelsLastOf(y))))
    return false;
  Matrix<T> weights{w->aligned + w->offset, o, w->sizes[1], w->strides[0],
                    w->strides[1]};
  // A GEMM's epilogue is act(C + bias) + R, the convolution's act(C + bias
  // + R): the ReLU goes after it.
  GemmEpilogue<T> epilogue;
  if (bias) {
    epilogue.bias = bias->aligned + bias->offset;
    epilogue.biasStride = bias->strides[0];
  }
  epilogue.activation = relu && !r ? GemmActivation::Relu : GemmActivation::None;
  epilogue.residual = r != nullptr;
  GemmEpilogue<T> reluAfter;
  reluAfter.activation = relu && r ? GemmActivation::Relu : GemmActivation::None;
  bool channelsLast = y.strides[1] == 1 && hw > 1;
  if (channelsLast) {
    for (int64_t i = 0; i < n; ++i) {
      Matrix<T> xt = transposed(*image(x, i)), yt = transposed(*image(y, i));
      Matrix<T> rt = r ? transposed(*image(*r, i)) : Matrix<T>{};
#ifdef RELAX_RUNTIME_HAS_DNNL
      if constexpr (std::is_same_v<T, float>)
        if (multiplyPacked(xt, transposed(weights), yt, threads, epilogue,
                           rt)) {
          applyEpilogue(yt, reluAfter, rt);
          continue;
        }
#endif
      multiplySplit(xt, transposed(weights), yt, threads);
      applyEpilogue(yt, epilogue, rt);
      applyEpilogue(yt, reluAfter, rt);
    }
    return true;
  }
  // Blocks of output channels (each reads all of X), so that one image
  // still uses every thread.
  int64_t parts = std::max<int64_t>(1, std::min<int64_t>(threads, o / 16));
  parallelFor(n * parts, threads, [&](int64_t task) {
    int64_t i = task / parts, p = task % parts;
    int64_t begin = pieceStart(o, parts, p, 16),
            end = pieceStart(o, parts, p + 1, 16);
    if (begin == end)
      return;
    Matrix<T> ym = rowsOf(*image(y, i), begin, end);
    multiply(rowsOf(weights, begin, end), *image(x, i), ym);
    Matrix<T> rm = r ? rowsOf(*image(*r, i), begin, end) : Matrix<T>{};
    for (int64_t c = 0; c < ym.rows; ++c) {
      T *row = ym.data + c * ym.rowStride;
      T b = bias ? epilogue.bias[(begin + c) * epilogue.biasStride] : T(0);
      if (ym.colStride == 1 && (!r || rm.colStride == 1)) {
        const T *res = r ? rm.data + c * rm.rowStride : nullptr;
        if (res)
          for (int64_t j = 0; j < hw; ++j)
            row[j] += b + res[j];
        else
          for (int64_t j = 0; j < hw; ++j)
            row[j] += b;
        if (relu)
          for (int64_t j = 0; j < hw; ++j)
            row[j] = std::max(row[j], T(0));
        continue;
      }
      for (int64_t j = 0; j < hw; ++j) {
        T &v = row[j * ym.colStride];
        v += b;
        if (r)
          v += rm.data[c * rm.rowStride + j * rm.colStride];
        if (relu)
          v = std::max(v, T(0));
      }
    }
  });
  return true;
}

/// Validates and runs Y = act(conv2d(X, W) + bias (+ R)): X, Y and R each
/// NCHW or NHWC as `options` says (see kConvFusedOptions), bias [o]. With
/// oneDNN (f32) one primitive; otherwise conv2d's im2col + GEMM into an
/// NCHW buffer, then the epilogue written through Y's layout.
template <typename T>
void conv2dFused(const char *fn, MemRef<T, 4> *x, MemRef<T, 4> *w,
                 MemRef<T, 1> *bias, MemRef<T, 4> *residual,
                 MemRef<int64_t, 1> *options, MemRef<T, 4> *y,
                 bool hasResidual) {
  if (!x || !w || !bias || !options || !y || (hasResidual && !residual)) {
    reportError("%s: null memref descriptor", fn);
    return;
  }
  if (options->sizes[0] != kConvFusedOptions) {
    reportError("%s: the options have %lld values, expected %lld", fn,
                static_cast<long long>(options->sizes[0]),
                static_cast<long long>(kConvFusedOptions));
    return;
  }
  int64_t opt[kConvFusedOptions];
  for (int i = 0; i < kConvFusedOptions; ++i)
    opt[i] = options->aligned[options->offset + i * options->strides[0]];
  for (int i = 9; i < kConvFusedOptions; ++i)
    if (opt[i] != 0 && opt[i] != 1) {
      reportError("%s: option %d is %lld, expected 0 or 1", fn, i,
                  static_cast<long long>(opt[i]));
      return;
    }
  MemRef<T, 4> xv = nchwView(x, opt[9]), yv = nchwView(y, opt[10]);
  MemRef<T, 4> rv = hasResidual ? nchwView(residual, opt[11]) : MemRef<T, 4>{};
  bool relu = opt[12] == 1;
  if (!checkConv(fn, &xv, w, opt, &yv))
    return;
  int64_t n = yv.sizes[0], o = yv.sizes[1], p = yv.sizes[2], q = yv.sizes[3];
  if (bias->sizes[0] != o) {
    reportError("%s: the bias has %lld values, expected %lld (W is %s)", fn,
                static_cast<long long>(bias->sizes[0]),
                static_cast<long long>(o), shapeString(w).c_str());
    return;
  }
  if (hasResidual && !std::equal(rv.sizes, rv.sizes + 4, yv.sizes)) {
    reportError("%s: the residual is %s, expected the shape of Y %s", fn,
                shapeString(residual).c_str(), shapeString(y).c_str());
    return;
  }
  if (n == 0 || o == 0 || p == 0 || q == 0)
    return;
  double flops = 2.0 * double(n) * double(o) * double(p * q) *
                 double(w->sizes[1] * w->sizes[2] * w->sizes[3]);
  if (w->sizes[1] > 0 &&
      convolve1x1AsGemm(xv, w, bias, hasResidual ? &rv : nullptr, opt, relu,
                        yv, threadsFor(flops)))
    return;
#ifdef RELAX_RUNTIME_HAS_DNNL
  if constexpr (std::is_same_v<T, float>)
    if (w->sizes[1] > 0 &&
        convolveFused(xv, w, bias, hasResidual ? &rv : nullptr, opt, relu, yv,
                      threadsFor(flops)))
      return;
#endif
  std::vector<T> out(n * o * p * q);
  MemRef<T, 4> dense{
      out.data(), out.data(), 0, {n, o, p, q}, {o * p * q, p * q, q, 1}};
  MemRef<int64_t, 1> window{opt, opt, 0, {9}, {1}};
  conv2d(fn, &xv, w, &window, &dense);
  parallelFor(n * o, threadsFor(flops), [&](int64_t image) {
    int64_t i = image / o, c = image % o;
    T b = bias->aligned[bias->offset + c * bias->strides[0]];
    const T *from = out.data() + image * p * q;
    for (int64_t a = 0; a < p; ++a)
      for (int64_t e = 0; e < q; ++e) {
        T v = from[a * q + e] + b;
        if (hasResidual)
          v += rv.aligned[rv.offset + i * rv.strides[0] + c * rv.strides[1] +
                          a * rv.strides[2] + e * rv.strides[3]];
        if (relu)
          v = std::max(v, T(0));
        yv.aligned[yv.offset + i * yv.strides[0] + c * yv.strides[1] +
                   a * yv.strides[2] + e * yv.strides[3]] = v;
      }
  });
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

// Exponentials of a row of scores: glibc's vector math library (libmvec)
// where the CPU has AVX-512 or AVX2 (cpuIsa(), CpuGemv.h), libm's scalar
// expf elsewhere. The vector
// variants are only declared and called inside functions compiled for
// AVX-512, so the rest of the runtime keeps the baseline ISA. The ISA is
// given per function (the target attribute, which GCC and clang both
// honour; `#pragma GCC target` is GCC's only, and clang, which builds the
// sanitizer and fuzzer configurations, ignores it).
#define RELAX_AVX512 __attribute__((target("avx512f")))
#define RELAX_AVX2_FMA __attribute__((target("avx2,fma")))
// GCC 12's AVX-512 headers build some intrinsics on _mm512_undefined_ps(),
// which -Wuninitialized then reports at every use.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
extern "C" RELAX_AVX512 __m512 _ZGVeN16v_expf(__m512);

/// exp of 16 shifted scores. libmvec's fast path covers arguments above
/// about -87.3; below it (masked keys: -inf, -1e9) each lane would go
/// through scalar expf with its underflow handling, which measured 7% of a
/// causal Llama block. Those lanes are exactly 0 in float anyway, so they
/// are clamped for the call and zeroed after it; NaN stays NaN (max_ps
/// returns its second operand when either is NaN).
RELAX_AVX512 inline __m512 expShifted16(__m512 d) {
  const __m512 lowest = _mm512_set1_ps(-87.0f);
  __m512 e = _ZGVeN16v_expf(_mm512_max_ps(lowest, d));
  __mmask16 below = _mm512_cmp_ps_mask(d, lowest, _CMP_LT_OQ);
  if (!below)
    return e;
  // exp(d) < 2^-126 for these lanes: 0 below -104 (it rounds to 0), a
  // subnormal between (rare: an unmasked score that far below the max),
  // computed exactly.
  __mmask16 zero = _mm512_cmp_ps_mask(d, _mm512_set1_ps(-104.0f), _CMP_LT_OQ);
  if (__mmask16 subnormal = below & static_cast<__mmask16>(~zero))
    e = _mm512_mask_mov_ps(e, subnormal, _ZGVeN16v_expf(d));
  return _mm512_mask_mov_ps(e, zero, _mm512_setzero_ps());
}

/// x[j] = exp(x[j] - max) for j < n; returns the sum.
RELAX_AVX512 float expShiftedAvx512(float *x, int64_t n, float max) {
  __m512 shift = _mm512_set1_ps(max);
  __m512 sum = _mm512_setzero_ps();
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m512 e = expShifted16(_mm512_sub_ps(_mm512_loadu_ps(x + j), shift));
    _mm512_storeu_ps(x + j, e);
    sum = _mm512_add_ps(sum, e);
  }
  if (j < n) {
    __mmask16 tail = static_cast<__mmask16>((1u << (n - j)) - 1);
    __m512 e = expShifted16(_mm512_sub_ps(
        _mm512_mask_loadu_ps(_mm512_setzero_ps(), tail, x + j), shift));
    _mm512_mask_storeu_ps(x + j, tail, e);
    sum = _mm512_mask_add_ps(sum, tail, sum, e);
  }
  return _mm512_reduce_add_ps(sum);
}

/// x[j] = x[j] * scale (+ add[j]) for j < n; returns the max. (A NaN score
/// is skipped by the max, as max_ps returns its second operand, and still
/// makes the row NaN through its exponential.)
RELAX_AVX512 float scaleMaskMaxAvx512(float *x, int64_t n, float scale, const float *add) {
  __m512 factor = _mm512_set1_ps(scale);
  __m512 max = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m512 v = _mm512_mul_ps(_mm512_loadu_ps(x + j), factor);
    if (add)
      v = _mm512_add_ps(v, _mm512_loadu_ps(add + j));
    _mm512_storeu_ps(x + j, v);
    max = _mm512_max_ps(v, max);
  }
  if (j < n) {
    __mmask16 tail = static_cast<__mmask16>((1u << (n - j)) - 1);
    __m512 v = _mm512_mul_ps(
        _mm512_mask_loadu_ps(_mm512_setzero_ps(), tail, x + j), factor);
    if (add)
      v = _mm512_add_ps(
          v, _mm512_mask_loadu_ps(_mm512_setzero_ps(), tail, add + j));
    _mm512_mask_storeu_ps(x + j, tail, v);
    max = _mm512_mask_max_ps(max, tail, v, max);
  }
  return _mm512_reduce_max_ps(max);
}
#pragma GCC diagnostic pop

// The same two passes with libmvec's AVX2 variant, 8 lanes, for CPUs with
// AVX2 and FMA but no AVX-512 (and for RELAX_MAX_CPU_ISA=avx2). Tails run
// the scalar code of the portable path.
extern "C" RELAX_AVX2_FMA __m256 _ZGVdN8v_expf(__m256);

/// exp of 8 shifted scores, with expShifted16's handling of the lanes
/// below libmvec's fast path.
RELAX_AVX2_FMA inline __m256 expShifted8(__m256 d) {
  const __m256 lowest = _mm256_set1_ps(-87.0f);
  __m256 e = _ZGVdN8v_expf(_mm256_max_ps(lowest, d));
  __m256 below = _mm256_cmp_ps(d, lowest, _CMP_LT_OQ);
  if (_mm256_testz_ps(below, below))
    return e;
  __m256 zero = _mm256_cmp_ps(d, _mm256_set1_ps(-104.0f), _CMP_LT_OQ);
  __m256 subnormal = _mm256_andnot_ps(zero, below);
  if (!_mm256_testz_ps(subnormal, subnormal))
    e = _mm256_blendv_ps(e, _ZGVdN8v_expf(d), subnormal);
  return _mm256_andnot_ps(zero, e);
}

/// x[j] = exp(x[j] - max) for j < n; returns the sum.
RELAX_AVX2_FMA float expShiftedAvx2(float *x, int64_t n, float max) {
  __m256 shift = _mm256_set1_ps(max);
  __m256 sum = _mm256_setzero_ps();
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    __m256 e = expShifted8(_mm256_sub_ps(_mm256_loadu_ps(x + j), shift));
    _mm256_storeu_ps(x + j, e);
    sum = _mm256_add_ps(sum, e);
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  float total = 0;
  for (float lane : lanes)
    total += lane;
  for (; j < n; ++j)
    total += x[j] = std::exp(x[j] - max);
  return total;
}

/// x[j] = x[j] * scale (+ add[j]) for j < n; returns the max, NaN skipped
/// as in scaleMaskMaxAvx512.
RELAX_AVX2_FMA float scaleMaskMaxAvx2(float *x, int64_t n, float scale, const float *add) {
  __m256 factor = _mm256_set1_ps(scale);
  __m256 max = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    __m256 v = _mm256_mul_ps(_mm256_loadu_ps(x + j), factor);
    if (add)
      v = _mm256_add_ps(v, _mm256_loadu_ps(add + j));
    _mm256_storeu_ps(x + j, v);
    max = _mm256_max_ps(v, max);
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, max);
  float best = lanes[0];
  for (float lane : lanes)
    best = lane > best ? lane : best;
  for (; j < n; ++j) {
    float v = x[j] * scale;
    if (add)
      v += add[j];
    x[j] = v;
    best = v > best ? v : best;
  }
  return best;
}
#undef RELAX_AVX512
#undef RELAX_AVX2_FMA

/// x[j] = x[j] * scale (+ add[j * addStride]) for j < n; returns the max.
/// This pass is as long as the softmax's exponentials: a scalar max
/// reduction (one dependent maxss per score) measured a tenth of the BERT
/// layer, so unit-stride f32 rows take AVX-512 or AVX2 where the CPU has it.
template <typename T>
T scaleMaskMax(T *x, int64_t n, T scale, const T *add, int64_t addStride) {
  if constexpr (std::is_same_v<T, float>) {
    if (!add || addStride == 1 || n <= 1) {
      switch (relax::runtime::cpuIsa()) {
      case relax::runtime::CpuIsa::Avx512:
        return scaleMaskMaxAvx512(x, n, scale, add);
      case relax::runtime::CpuIsa::Avx2:
        return scaleMaskMaxAvx2(x, n, scale, add);
      case relax::runtime::CpuIsa::Generic:
        break;
      }
    }
  }
  // Four partial maxima, so the reduction is not one dependent chain.
  T max[4] = {
      -std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
      -std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity()};
  for (int64_t j = 0; j < n; ++j) {
    T v = x[j] * scale;
    if (add)
      v += add[j * addStride];
    x[j] = v;
    max[j & 3] = v > max[j & 3] ? v : max[j & 3];
  }
  return std::max(std::max(max[0], max[1]), std::max(max[2], max[3]));
}

float expShifted(float *x, int64_t n, float max) {
  switch (relax::runtime::cpuIsa()) {
  case relax::runtime::CpuIsa::Avx512:
    return expShiftedAvx512(x, n, max);
  case relax::runtime::CpuIsa::Avx2:
    return expShiftedAvx2(x, n, max);
  case relax::runtime::CpuIsa::Generic:
    break;
  }
  float sum = 0;
  for (int64_t j = 0; j < n; ++j)
    sum += x[j] = std::exp(x[j] - max);
  return sum;
}

double expShifted(double *x, int64_t n, double max) {
  double sum = 0;
  for (int64_t j = 0; j < n; ++j)
    sum += x[j] = std::exp(x[j] - max);
  return sum;
}

/// The mask operand of an attention call: none, additive (T) or boolean
/// (one byte per element), broadcast to [b, hq, s, t] by zero strides.
template <typename T> struct AttentionMaskView {
  const T *additive = nullptr;
  const uint8_t *boolean = nullptr;
  int64_t strides[4] = {0, 0, 0, 0};
};

/// Validates and runs O = attention(Q, K, V[, mask]) with relax.attention's
/// semantics (see the legalizer, lib/Relax/Transforms/Legalize/NN.cpp): per
/// (batch, head, block of query rows) the scores S = Q K^T by one GEMM,
/// then per row the scale, the mask and the softmax, then O = P V by a
/// second GEMM. Only a block's scores exist at a time.
template <typename T, typename M>
void attention(const char *fn, MemRef<T, 4> *q, MemRef<T, 4> *k,
               MemRef<T, 4> *v, MemRef<M, 4> *mask,
               MemRef<double, 1> *options, MemRef<T, 4> *o) {
  if (!q || !k || !v || !options || !o) {
    reportError("%s: null memref descriptor", fn);
    return;
  }
  if (options->sizes[0] != 2) {
    reportError("%s: the options have %lld values, expected 2", fn,
                static_cast<long long>(options->sizes[0]));
    return;
  }
  if (hasNegativeSize(q) || hasNegativeSize(k) || hasNegativeSize(v) ||
      hasNegativeSize(o) || (mask && hasNegativeSize(mask))) {
    reportError("%s: negative size in Q %s, K %s, V %s or O %s", fn,
                shapeString(q).c_str(), shapeString(k).c_str(),
                shapeString(v).c_str(), shapeString(o).c_str());
    return;
  }
  int64_t b = q->sizes[0], s = q->sizes[1], hq = q->sizes[2], d = q->sizes[3];
  int64_t t = k->sizes[1], hkv = k->sizes[2], e = v->sizes[3];
  if (k->sizes[0] != b || k->sizes[3] != d || v->sizes[0] != b ||
      v->sizes[1] != t || v->sizes[2] != hkv || hkv == 0 || hq % hkv != 0) {
    reportError("%s: Q %s, K %s and V %s do not agree (expected K [b, t, "
                "hkv, d] and V [b, t, hkv, e] with hkv dividing hq)",
                fn, shapeString(q).c_str(), shapeString(k).c_str(),
                shapeString(v).c_str());
    return;
  }
  if (o->sizes[0] != b || o->sizes[1] != s || o->sizes[2] != hq ||
      o->sizes[3] != e) {
    reportError("%s: O is %s, expected [%lld, %lld, %lld, %lld]", fn,
                shapeString(o).c_str(), (long long)b, (long long)s,
                (long long)hq, (long long)e);
    return;
  }
  AttentionMaskView<T> maskView;
  if (mask) {
    const int64_t full[4] = {b, hq, s, t};
    for (int i = 0; i < 4; ++i) {
      if (mask->sizes[i] != 1 && mask->sizes[i] != full[i]) {
        reportError("%s: the mask %s does not broadcast to [%lld, %lld, "
                    "%lld, %lld]",
                    fn, shapeString(mask).c_str(), (long long)b,
                    (long long)hq, (long long)s, (long long)t);
        return;
      }
      maskView.strides[i] = mask->sizes[i] == 1 ? 0 : mask->strides[i];
    }
    const M *base = mask->aligned + mask->offset;
    if constexpr (std::is_same_v<M, T>)
      maskView.additive = base;
    else
      maskView.boolean = reinterpret_cast<const uint8_t *>(base);
  }
  if (!fitsBlasInt(s) || !fitsBlasInt(t) || !fitsBlasInt(d) ||
      !fitsBlasInt(e)) {
    reportError("%s: dims exceed the BLAS integer range", fn);
    return;
  }
  const double *opt = options->aligned + options->offset;
  double scaleOption = opt[0];
  bool causal = opt[options->strides[0]] != 0.0;
  T scale = std::isnan(scaleOption)
                ? T(1) / std::sqrt(T(std::max<int64_t>(d, 1)))
                : T(scaleOption);
  if (b == 0 || s == 0 || hq == 0 || e == 0)
    return;
  if (t == 0) {
    // No key at all: the uniform average over zero values, 0 / 0, as the
    // legalized program gives.
    for (int64_t bi = 0; bi < b; ++bi)
      for (int64_t i = 0; i < s; ++i)
        for (int64_t h = 0; h < hq; ++h)
          for (int64_t j = 0; j < e; ++j)
            o->aligned[o->offset + bi * o->strides[0] + i * o->strides[1] +
                       h * o->strides[2] + j * o->strides[3]] =
                std::numeric_limits<T>::quiet_NaN();
    return;
  }
  // Rows per block: the block's scores stay within about 64 KiB.
  int64_t blockRows =
      std::clamp<int64_t>((int64_t(1) << 14) / std::max<int64_t>(t, 1), 8, 128);
  blockRows = std::min(blockRows, s);
  int64_t blocks = (s + blockRows - 1) / blockRows;
  int64_t group = hq / hkv;
  // A block is rows of one query head (a block of its query positions), or
  // for one query position (decode) the `group` query heads that read one
  // kv head: their rows are then one GEMM's, so that K and V stream once
  // per kv head rather than once per query head.
  bool stackHeads = s == 1 && group > 1;
  int64_t units = stackHeads ? hkv : hq;
  auto run = [&](int64_t task) {
    int64_t block = task % blocks, unit = (task / blocks) % units,
            bi = task / (blocks * units);
    int64_t r0 = block * blockRows;
    int64_t rows = stackHeads ? group : std::min(blockRows, s - r0);
    int64_t h0 = stackHeads ? unit * group : unit;
    int64_t kh = h0 / group;
    // Row i is query head h0 + i * headStep at position r0 + i * posStep.
    int64_t headStep = stackHeads ? 1 : 0, posStep = stackHeads ? 0 : 1;
    int64_t qRowStride = stackHeads ? q->strides[2] : q->strides[1];
    int64_t oRowStride = stackHeads ? o->strides[2] : o->strides[1];
    T *qBase = q->aligned + q->offset + bi * q->strides[0] +
               r0 * q->strides[1] + h0 * q->strides[2];
    T *kBase = k->aligned + k->offset + bi * k->strides[0] + kh * k->strides[2];
    T *vBase = v->aligned + v->offset + bi * v->strides[0] + kh * v->strides[2];
    T *oBase = o->aligned + o->offset + bi * o->strides[0] +
               r0 * o->strides[1] + h0 * o->strides[2];
    // One buffer per thread, kept across calls.
    static thread_local std::vector<T> scores;
    scores.resize(rows * t);
    multiply(Matrix<T>{qBase, rows, d, qRowStride, q->strides[3]},
             Matrix<T>{kBase, d, t, k->strides[3], k->strides[1]},
             Matrix<T>{scores.data(), rows, t, t, 1});
    for (int64_t i = 0; i < rows; ++i) {
      T *row = scores.data() + i * t;
      int64_t qi = r0 + i * posStep, h = h0 + i * headStep;
      // Keys j <= qi + t - s are visible under the causal mask.
      int64_t visibleEnd = causal ? std::clamp<int64_t>(qi + t - s + 1, 0, t) : t;
      int64_t maskBase = bi * maskView.strides[0] + h * maskView.strides[1] +
                         qi * maskView.strides[2];
      int64_t visible = 0;
      T max = -std::numeric_limits<T>::infinity();
      if (!maskView.boolean) {
        // The common case, without per-key tests: the visible keys are a
        // prefix, scaled and masked in one vectorizable pass. (A NaN score
        // that the max reduction skips still makes the row NaN through its
        // exponential below.)
        const T *add = maskView.additive ? maskView.additive + maskBase
                                         : nullptr;
        max = scaleMaskMax(row, visibleEnd, scale, add, maskView.strides[3]);
        std::fill(row + visibleEnd, row + t,
                  -std::numeric_limits<T>::infinity());
        visible = visibleEnd;
      }
      for (int64_t j = 0; maskView.boolean && j < t; ++j) {
        bool hidden = j >= visibleEnd ||
                      (maskView.boolean &&
                       !maskView.boolean[maskBase + j * maskView.strides[3]]);
        if (hidden) {
          row[j] = -std::numeric_limits<T>::infinity();
          continue;
        }
        T x = row[j] * scale;
        if (maskView.additive)
          x += maskView.additive[maskBase + j * maskView.strides[3]];
        row[j] = x;
        ++visible;
        // A NaN score makes the row NaN through its exponential below.
        max = std::max(max, x);
      }
      if (visible == 0) {
        // No visible key: the uniform average of every value row, as the
        // legalized program (and TVM) give.
        std::fill(row, row + t, T(1) / T(t));
        continue;
      }
      // Every visible score -inf leaves max = -inf and the row NaN, as
      // numpy's softmax.
      T sum = expShifted(row, t, max);
      T inverse = T(1) / sum;
      for (int64_t j = 0; j < t; ++j)
        row[j] *= inverse;
    }
    multiply(Matrix<T>{scores.data(), rows, t, t, 1},
             Matrix<T>{vBase, t, e, v->strides[1], v->strides[3]},
             Matrix<T>{oBase, rows, e, oRowStride, o->strides[3]});
  };
  int64_t tasks = b * units * blocks;
  int threads = threadsFor(4.0 * double(b) * double(hq) * double(s) *
                           double(t) * double(std::max(d, e)));
  parallelFor(tasks, threads, run);
}

} // namespace

// The variants whose B (rank 2, shared by every batch) is a module
// constant: `_packed` before the dtype.
// With an epilogue: `_bias` adds a bias over C's columns, `_bias_gelu`
// then applies GELU (erf form), `_bias_relu` ReLU; `_res` adds a tensor R of
// C's shape (`_bias_res` after the bias).
#define RELAX_BLAS_DEFINE_EPILOGUE(T, SUFFIX, NAME, RA, NT, TRANSPOSED)        \
  extern "C" void _mlir_ciface_relax_blas_##NAME##NT##_packed_bias_##SUFFIX(   \
      MemRef<T, RA> *a, MemRef<T, 2> *b, MemRef<T, 1> *bias,                   \
      MemRef<T, RA> *c) {                                                      \
    matmul("relax_blas_" #NAME #NT "_packed_bias_" #SUFFIX, a, b, c,           \
           TRANSPOSED, true, bias);                                            \
  }                                                                            \
  extern "C" void                                                              \
      _mlir_ciface_relax_blas_##NAME##NT##_packed_bias_relu_##SUFFIX(          \
          MemRef<T, RA> *a, MemRef<T, 2> *b, MemRef<T, 1> *bias,               \
          MemRef<T, RA> *c) {                                                  \
    matmul("relax_blas_" #NAME #NT "_packed_bias_relu_" #SUFFIX, a, b, c,      \
           TRANSPOSED, true, bias, GemmActivation::Relu);                      \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_##NAME##NT##_packed_res_##SUFFIX(    \
      MemRef<T, RA> *a, MemRef<T, 2> *b, MemRef<T, RA> *r, MemRef<T, RA> *c) { \
    matmul("relax_blas_" #NAME #NT "_packed_res_" #SUFFIX, a, b, c,            \
           TRANSPOSED, true, static_cast<MemRef<T, 1> *>(nullptr),             \
           GemmActivation::None, r);                                           \
  }                                                                            \
  extern "C" void                                                              \
      _mlir_ciface_relax_blas_##NAME##NT##_packed_bias_res_##SUFFIX(           \
          MemRef<T, RA> *a, MemRef<T, 2> *b, MemRef<T, 1> *bias,               \
          MemRef<T, RA> *r, MemRef<T, RA> *c) {                                \
    matmul("relax_blas_" #NAME #NT "_packed_bias_res_" #SUFFIX, a, b, c,       \
           TRANSPOSED, true, bias, GemmActivation::None, r);                   \
  }                                                                            \
  extern "C" void                                                              \
      _mlir_ciface_relax_blas_##NAME##NT##_packed_bias_gelu_##SUFFIX(          \
          MemRef<T, RA> *a, MemRef<T, 2> *b, MemRef<T, 1> *bias,               \
          MemRef<T, RA> *c) {                                                  \
    matmul("relax_blas_" #NAME #NT "_packed_bias_gelu_" #SUFFIX, a, b, c,      \
           TRANSPOSED, true, bias, GemmActivation::Gelu);                      \
  }
#define RELAX_BLAS_DEFINE_PACKED(T, SUFFIX, NAME, RA)                          \
  extern "C" void _mlir_ciface_relax_blas_##NAME##_packed_##SUFFIX(            \
      MemRef<T, RA> *a, MemRef<T, 2> *b, MemRef<T, RA> *c) {                   \
    matmul("relax_blas_" #NAME "_packed_" #SUFFIX, a, b, c, false, true);      \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_##NAME##_nt_packed_##SUFFIX(         \
      MemRef<T, RA> *a, MemRef<T, 2> *b, MemRef<T, RA> *c) {                   \
    matmul("relax_blas_" #NAME "_nt_packed_" #SUFFIX, a, b, c, true, true);    \
  }                                                                            \
  RELAX_BLAS_DEFINE_EPILOGUE(T, SUFFIX, NAME, RA, , false)                     \
  RELAX_BLAS_DEFINE_EPILOGUE(T, SUFFIX, NAME, RA, _nt, true)

#define RELAX_BLAS_DEFINE(T, SUFFIX)                                           \
  extern "C" void _mlir_ciface_relax_blas_matmul_##SUFFIX(                     \
      MemRef<T, 2> *a, MemRef<T, 2> *b, MemRef<T, 2> *c) {                     \
    matmul("relax_blas_matmul_" #SUFFIX, a, b, c, false);                      \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_matmul_nt_##SUFFIX(                  \
      MemRef<T, 2> *a, MemRef<T, 2> *b, MemRef<T, 2> *c) {                     \
    matmul("relax_blas_matmul_nt_" #SUFFIX, a, b, c, true);                    \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_batch_matmul_##SUFFIX(               \
      MemRef<T, 3> *a, MemRef<T, 3> *b, MemRef<T, 3> *c) {                     \
    matmul("relax_blas_batch_matmul_" #SUFFIX, a, b, c, false);                \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_batch_matmul_nt_##SUFFIX(            \
      MemRef<T, 3> *a, MemRef<T, 3> *b, MemRef<T, 3> *c) {                     \
    matmul("relax_blas_batch_matmul_nt_" #SUFFIX, a, b, c, true);              \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_batch_matmul_bcast_##SUFFIX(         \
      MemRef<T, 3> *a, MemRef<T, 2> *b, MemRef<T, 3> *c) {                     \
    matmul("relax_blas_batch_matmul_bcast_" #SUFFIX, a, b, c, false);          \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_batch_matmul_bcast_nt_##SUFFIX(      \
      MemRef<T, 3> *a, MemRef<T, 2> *b, MemRef<T, 3> *c) {                     \
    matmul("relax_blas_batch_matmul_bcast_nt_" #SUFFIX, a, b, c, true);        \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_batch2_matmul_##SUFFIX(              \
      MemRef<T, 4> *a, MemRef<T, 4> *b, MemRef<T, 4> *c) {                     \
    matmul("relax_blas_batch2_matmul_" #SUFFIX, a, b, c, false);               \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_batch2_matmul_nt_##SUFFIX(           \
      MemRef<T, 4> *a, MemRef<T, 4> *b, MemRef<T, 4> *c) {                     \
    matmul("relax_blas_batch2_matmul_nt_" #SUFFIX, a, b, c, true);             \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_batch2_matmul_bcast_##SUFFIX(        \
      MemRef<T, 4> *a, MemRef<T, 2> *b, MemRef<T, 4> *c) {                     \
    matmul("relax_blas_batch2_matmul_bcast_" #SUFFIX, a, b, c, false);         \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_batch2_matmul_bcast_nt_##SUFFIX(     \
      MemRef<T, 4> *a, MemRef<T, 2> *b, MemRef<T, 4> *c) {                     \
    matmul("relax_blas_batch2_matmul_bcast_nt_" #SUFFIX, a, b, c, true);       \
  }                                                                            \
  RELAX_BLAS_DEFINE_PACKED(T, SUFFIX, matmul, 2)                               \
  RELAX_BLAS_DEFINE_PACKED(T, SUFFIX, batch_matmul_bcast, 3)                   \
  RELAX_BLAS_DEFINE_PACKED(T, SUFFIX, batch2_matmul_bcast, 4)                  \
  extern "C" void _mlir_ciface_relax_blas_attention_##SUFFIX(                  \
      MemRef<T, 4> *q, MemRef<T, 4> *k, MemRef<T, 4> *v,                       \
      MemRef<double, 1> *options, MemRef<T, 4> *o) {                           \
    attention<T, T>("relax_blas_attention_" #SUFFIX, q, k, v, nullptr,         \
                    options, o);                                               \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_attention_mask_##SUFFIX(             \
      MemRef<T, 4> *q, MemRef<T, 4> *k, MemRef<T, 4> *v, MemRef<T, 4> *mask,   \
      MemRef<double, 1> *options, MemRef<T, 4> *o) {                           \
    attention<T, T>("relax_blas_attention_mask_" #SUFFIX, q, k, v, mask,       \
                    options, o);                                               \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_attention_bmask_##SUFFIX(            \
      MemRef<T, 4> *q, MemRef<T, 4> *k, MemRef<T, 4> *v,                       \
      MemRef<bool, 4> *mask, MemRef<double, 1> *options, MemRef<T, 4> *o) {    \
    attention<T, bool>("relax_blas_attention_bmask_" #SUFFIX, q, k, v, mask,   \
                       options, o);                                            \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_conv2d_nchw_##SUFFIX(                \
      MemRef<T, 4> *x, MemRef<T, 4> *w, MemRef<int64_t, 1> *window,            \
      MemRef<T, 4> *y) {                                                       \
    conv2d("relax_blas_conv2d_nchw_" #SUFFIX, x, w, window, y);                \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_conv2d_nchw_packed_##SUFFIX(         \
      MemRef<T, 4> *x, MemRef<T, 4> *w, MemRef<int64_t, 1> *window,            \
      MemRef<T, 4> *y) {                                                       \
    conv2d("relax_blas_conv2d_nchw_packed_" #SUFFIX, x, w, window, y, true);   \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_conv2d_fused_packed_##SUFFIX(        \
      MemRef<T, 4> *x, MemRef<T, 4> *w, MemRef<T, 1> *bias,                    \
      MemRef<int64_t, 1> *options, MemRef<T, 4> *y) {                          \
    conv2dFused<T>("relax_blas_conv2d_fused_packed_" #SUFFIX, x, w, bias,      \
                   nullptr, options, y, false);                                \
  }                                                                            \
  extern "C" void _mlir_ciface_relax_blas_conv2d_fused_res_packed_##SUFFIX(    \
      MemRef<T, 4> *x, MemRef<T, 4> *w, MemRef<T, 1> *bias, MemRef<T, 4> *r,   \
      MemRef<int64_t, 1> *options, MemRef<T, 4> *y) {                          \
    conv2dFused("relax_blas_conv2d_fused_res_packed_" #SUFFIX, x, w, bias, r,  \
                options, y, true);                                             \
  }

RELAX_BLAS_DEFINE(float, f32)
RELAX_BLAS_DEFINE(double, f64)

extern "C" void relax_rt_blas_warm_up(void) {
#ifdef RELAX_RUNTIME_HAS_DNNL
  // One small product initialises oneDNN's sgemm for every later shape and
  // transposition (its kernels are generated once per process).
  static std::once_flag once;
  std::call_once(once, [] {
    constexpr blasint m = 32, n = 32, k = 64;
    std::vector<float> a(m * k, 0.0f), b(n * k, 0.0f), c(m * n);
    gemm(CblasNoTrans, CblasTrans, m, n, k, a.data(), k, b.data(), k,
         c.data(), n);
  });
#endif
}

extern "C" void relax_rt_blas_release_constants(void) {
#ifdef RELAX_RUNTIME_HAS_DNNL
  std::lock_guard<std::mutex> lock(packedMutex);
  packedCache.clear();
  fusedConvs.clear();
  fusedConvWeights.clear();
#endif
}
