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
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Runtime/RelaxBlas.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include <cblas.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <limits>
#include <string>
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

bool fitsBlasInt(int64_t v) {
  return v >= 0 && v <= std::numeric_limits<blasint>::max();
}

void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n,
          blasint k, const float *a, blasint lda, const float *b, blasint ldb,
          float *c, blasint ldc) {
  cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c,
              ldc);
}

void gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n,
          blasint k, const double *a, blasint lda, const double *b, blasint ldb,
          double *c, blasint ldc) {
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

/// The last two dims of a descriptor as a matrix, at batch index `batch`
/// (ignored for rank 2; a batch of extent 1 broadcasts).
template <typename T, int N>
Matrix<T> matrixOf(MemRef<T, N> *d, int64_t batch, bool transposed) {
  T *base = d->aligned + d->offset;
  if (N == 3 && d->sizes[0] != 1)
    base += batch * d->strides[0];
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

/// Validates and runs C = A * op(B), for A and C of rank RA (2 or 3) and B of
/// rank RB (RA, or 2 when B is shared by every batch).
template <typename T, int RA, int RB>
void matmul(const char *fn, MemRef<T, RA> *a, MemRef<T, RB> *b,
            MemRef<T, RA> *c, bool transposeB) {
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
  int64_t batch = RA == 3 ? a->sizes[0] : 1;
  if (RB == 3 && b->sizes[0] != batch) {
    if (batch != 1 && b->sizes[0] != 1) {
      reportError("%s: A is %s and B is %s: batch dims differ (%lld vs %lld)",
                  fn, shapeString(a).c_str(), shapeString(b).c_str(),
                  static_cast<long long>(batch),
                  static_cast<long long>(b->sizes[0]));
      return;
    }
    batch = std::max(batch, b->sizes[0]);
  }
  int64_t expected[3] = {batch, m, n};
  const int64_t *want = RA == 3 ? expected : expected + 1;
  for (int i = 0; i < RA; ++i) {
    if (c->sizes[i] == want[i])
      continue;
    std::string shape = RA == 3 ? "[" + std::to_string(batch) + ", " : "[";
    shape += std::to_string(m) + ", " + std::to_string(n) + "]";
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

  if (RA == 2) {
    multiply(matrixOf(a, 0, false), matrixOf(b, 0, transposeB),
             matrixOf(c, 0, false));
    return;
  }
  // A B shared by every batch over an A and C whose batches are stacked rows
  // (the usual [b, m, k] activations of a linear layer) is one GEMM with
  // b * m rows instead of b small ones.
  bool sharedB = RB == 2 || b->sizes[0] == 1;
  if (sharedB && a->sizes[0] == batch && a->strides[0] == m * a->strides[1] &&
      c->strides[0] == m * c->strides[1] && fitsBlasInt(batch * m)) {
    Matrix<T> lhs{a->aligned + a->offset, batch * m, k, a->strides[RA - 2],
                  a->strides[RA - 1]};
    Matrix<T> out{c->aligned + c->offset, batch * m, n, c->strides[RA - 2],
                  c->strides[RA - 1]};
    multiply(lhs, matrixOf(b, 0, transposeB), out);
    return;
  }
  for (int64_t i = 0; i < batch; ++i)
    multiply(matrixOf(a, i, false), matrixOf(b, i, transposeB),
             matrixOf(c, i, false));
}

} // namespace

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
  }

RELAX_BLAS_DEFINE(float, f32)
RELAX_BLAS_DEFINE(double, f64)
