//===- BlasGemm.cpp - GEMMs of the CPU BLAS binding -----------------------===//
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
// The binding's other jobs live beside this file: GEMMs with a constant B
// on oneDNN (DnnlGemm.cpp), convolutions (Convolution.cpp) and attention
// (Attention.cpp); BlasSupport.h holds what they share.
//
//===----------------------------------------------------------------------===//

#include "BlasSupport.h"
#include "CpuGemv.h"

#include <dlfcn.h>

#include <cstdlib>
#include <tuple>
#include <type_traits>
#include <vector>

using namespace relax::runtime::blas;

namespace {

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

} // namespace

template <typename T>
void relax::runtime::blas::multiply(Matrix<T> a, Matrix<T> b, Matrix<T> c) {
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

template <typename T>
void relax::runtime::blas::multiplySplit(Matrix<T> a, Matrix<T> b, Matrix<T> c,
                                         int threads) {
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

// The element types of the entry points.
template void relax::runtime::blas::multiply(Matrix<float>, Matrix<float>,
                                             Matrix<float>);
template void relax::runtime::blas::multiply(Matrix<double>, Matrix<double>,
                                             Matrix<double>);
template void relax::runtime::blas::multiplySplit(Matrix<float>, Matrix<float>,
                                                  Matrix<float>, int);
template void relax::runtime::blas::multiplySplit(Matrix<double>,
                                                  Matrix<double>,
                                                  Matrix<double>, int);

namespace {

/// The batch dims of a call (C's leading dims, at most two) and the flat
/// index over them that each operand's matrix is found at.
struct Batch {
  int rank = 0;
  int64_t sizes[2] = {1, 1};
  int64_t count() const { return sizes[0] * sizes[1]; }
};

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

#define RELAX_BLAS_DEFINE_MATMUL(T, SUFFIX)                                    \
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
  RELAX_BLAS_DEFINE_PACKED(T, SUFFIX, batch2_matmul_bcast, 4)

RELAX_BLAS_DEFINE_MATMUL(float, f32)
RELAX_BLAS_DEFINE_MATMUL(double, f64)

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
