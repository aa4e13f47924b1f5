//===- RelaxBlas.h - CPU BLAS binding of the runtime, C ABI -----*- C++ -*-===//
//
// The CPU side of the extern matmul built-ins (RelaxDialect/Extern/IR/
// Builtins.h). Compiled modules call `_mlir_ciface_<link_name>` with one
// pointer to a memref descriptor per parameter (inputs, then the output),
// the layout MLIR's `llvm.emit_c_interface` uses:
//
//   struct { T *allocated; T *aligned; int64_t offset;
//            int64_t sizes[N]; int64_t strides[N]; }
//
// Element (i, j) of a rank-2 descriptor is
// aligned[offset + i * strides[0] + j * strides[1]]; any strides work (a
// non-unit innermost stride is handled by a packed copy). Bad shapes never
// crash: the first error is recorded in the runtime's error slot
// (relax_rt_last_error) with the function name and the dims, and the output
// is left untouched.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RUNTIME_RELAXBLAS_H
#define RELAXDIALECT_RUNTIME_RELAXBLAS_H

#include <stdint.h>

namespace relax_rt {
/// A strided memref descriptor of rank N, laid out like MLIR's
/// StridedMemRefType without depending on MLIR headers.
template <typename T, int N> struct MemRef {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};
} // namespace relax_rt

/* The variants of the shared-B products (matmul, batch_matmul_bcast,
 * batch2_matmul_bcast, each with and without _nt) whose B is a constant of
 * the calling module, `_packed` before the dtype: the runtime may keep B
 * packed for its GEMM kernels (oneDNN), keyed by B's address, until
 * relax_rt_blas_release_constants(), which a module's owner calls when the
 * module's constants go away. */
#define RELAX_BLAS_DECLARE_PACKED(T, SUFFIX, NAME, RA)                         \
  void _mlir_ciface_relax_blas_##NAME##_packed_##SUFFIX(                       \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, RA> *c);                                             \
  void _mlir_ciface_relax_blas_##NAME##_nt_packed_##SUFFIX(                    \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, RA> *c);                                             \
  /* With an epilogue: C = A * op(B) + bias[n] (_bias), then GELU, erf form    \
     (_bias_gelu), or ReLU (_bias_relu) */                                     \
  void _mlir_ciface_relax_blas_##NAME##_packed_bias_##SUFFIX(                  \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, 1> *bias, relax_rt::MemRef<T, RA> *c);               \
  void _mlir_ciface_relax_blas_##NAME##_nt_packed_bias_##SUFFIX(               \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, 1> *bias, relax_rt::MemRef<T, RA> *c);               \
  void _mlir_ciface_relax_blas_##NAME##_packed_bias_gelu_##SUFFIX(             \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, 1> *bias, relax_rt::MemRef<T, RA> *c);               \
  void _mlir_ciface_relax_blas_##NAME##_nt_packed_bias_gelu_##SUFFIX(          \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, 1> *bias, relax_rt::MemRef<T, RA> *c);               \
  void _mlir_ciface_relax_blas_##NAME##_packed_bias_relu_##SUFFIX(             \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, 1> *bias, relax_rt::MemRef<T, RA> *c);               \
  void _mlir_ciface_relax_blas_##NAME##_nt_packed_bias_relu_##SUFFIX(          \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, 1> *bias, relax_rt::MemRef<T, RA> *c);               \
  /* C = A * op(B) (+ bias) + R (_res, _bias_res), R of C's shape */           \
  RELAX_BLAS_DECLARE_OTHER(T, SUFFIX, NAME, RA, )                              \
  RELAX_BLAS_DECLARE_OTHER(T, SUFFIX, NAME, RA, _nt)

#define RELAX_BLAS_DECLARE_OTHER(T, SUFFIX, NAME, RA, NT)                      \
  void _mlir_ciface_relax_blas_##NAME##NT##_packed_res_##SUFFIX(               \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, RA> *r, relax_rt::MemRef<T, RA> *c);                 \
  void _mlir_ciface_relax_blas_##NAME##NT##_packed_bias_res_##SUFFIX(          \
      relax_rt::MemRef<T, RA> *a, relax_rt::MemRef<T, 2> *b,                   \
      relax_rt::MemRef<T, 1> *bias, relax_rt::MemRef<T, RA> *r,                \
      relax_rt::MemRef<T, RA> *c);

#define RELAX_BLAS_DECLARE(T, SUFFIX)                                          \
  RELAX_BLAS_DECLARE_PACKED(T, SUFFIX, matmul, 2)                              \
  RELAX_BLAS_DECLARE_PACKED(T, SUFFIX, batch_matmul_bcast, 3)                  \
  RELAX_BLAS_DECLARE_PACKED(T, SUFFIX, batch2_matmul_bcast, 4)                 \
  /* C[m, n] = A[m, k] * B[k, n] */                                            \
  void _mlir_ciface_relax_blas_matmul_##SUFFIX(relax_rt::MemRef<T, 2> *a,      \
                                               relax_rt::MemRef<T, 2> *b,      \
                                               relax_rt::MemRef<T, 2> *c);     \
  /* C[m, n] = A[m, k] * B[n, k]^T */                                          \
  void _mlir_ciface_relax_blas_matmul_nt_##SUFFIX(relax_rt::MemRef<T, 2> *a,   \
                                                  relax_rt::MemRef<T, 2> *b,   \
                                                  relax_rt::MemRef<T, 2> *c);  \
  /* C[b, m, n] = A[b, m, k] * B[b, k, n]; a batch of 1 broadcasts */          \
  void _mlir_ciface_relax_blas_batch_matmul_##SUFFIX(                          \
      relax_rt::MemRef<T, 3> *a, relax_rt::MemRef<T, 3> *b,                    \
      relax_rt::MemRef<T, 3> *c);                                              \
  /* C[b, m, n] = A[b, m, k] * B[b, n, k]^T */                                 \
  void _mlir_ciface_relax_blas_batch_matmul_nt_##SUFFIX(                       \
      relax_rt::MemRef<T, 3> *a, relax_rt::MemRef<T, 3> *b,                    \
      relax_rt::MemRef<T, 3> *c);                                              \
  /* C[b, m, n] = A[b, m, k] * B[k, n] (B shared by every batch) */            \
  void _mlir_ciface_relax_blas_batch_matmul_bcast_##SUFFIX(                    \
      relax_rt::MemRef<T, 3> *a, relax_rt::MemRef<T, 2> *b,                    \
      relax_rt::MemRef<T, 3> *c);                                              \
  /* C[b, m, n] = A[b, m, k] * B[n, k]^T (a linear layer on [b, m, k]) */      \
  void _mlir_ciface_relax_blas_batch_matmul_bcast_nt_##SUFFIX(                 \
      relax_rt::MemRef<T, 3> *a, relax_rt::MemRef<T, 2> *b,                    \
      relax_rt::MemRef<T, 3> *c);                                              \
  /* C[b0, b1, m, n] = A[b0, b1, m, k] * B[b0, b1, k, n]: attention's          \
     [batch, heads] products; a batch dim of 1 broadcasts */                   \
  void _mlir_ciface_relax_blas_batch2_matmul_##SUFFIX(                         \
      relax_rt::MemRef<T, 4> *a, relax_rt::MemRef<T, 4> *b,                    \
      relax_rt::MemRef<T, 4> *c);                                              \
  /* C[b0, b1, m, n] = A[b0, b1, m, k] * B[b0, b1, n, k]^T */                  \
  void _mlir_ciface_relax_blas_batch2_matmul_nt_##SUFFIX(                      \
      relax_rt::MemRef<T, 4> *a, relax_rt::MemRef<T, 4> *b,                    \
      relax_rt::MemRef<T, 4> *c);                                              \
  /* C[b0, b1, m, n] = A[b0, b1, m, k] * B[k, n] */                            \
  void _mlir_ciface_relax_blas_batch2_matmul_bcast_##SUFFIX(                   \
      relax_rt::MemRef<T, 4> *a, relax_rt::MemRef<T, 2> *b,                    \
      relax_rt::MemRef<T, 4> *c);                                              \
  /* C[b0, b1, m, n] = A[b0, b1, m, k] * B[n, k]^T */                          \
  void _mlir_ciface_relax_blas_batch2_matmul_bcast_nt_##SUFFIX(                \
      relax_rt::MemRef<T, 4> *a, relax_rt::MemRef<T, 2> *b,                    \
      relax_rt::MemRef<T, 4> *c);                                              \
  /* Y[n, o, p, q] = conv2d(X[n, c, h, w], W[o, c / groups, r, s]) with        \
     window = (stride h, w; pad top, left, bottom, right; dilation h, w;       \
     groups): im2col + GEMM */                                                 \
  void _mlir_ciface_relax_blas_conv2d_nchw_##SUFFIX(                           \
      relax_rt::MemRef<T, 4> *x, relax_rt::MemRef<T, 4> *w,                    \
      relax_rt::MemRef<int64_t, 1> *window, relax_rt::MemRef<T, 4> *y);        \
  /* The same with W a module constant (oneDNN's direct convolution, W         \
     packed once, where the runtime has it) */                                 \
  void _mlir_ciface_relax_blas_conv2d_nchw_packed_##SUFFIX(                    \
      relax_rt::MemRef<T, 4> *x, relax_rt::MemRef<T, 4> *w,                    \
      relax_rt::MemRef<int64_t, 1> *window, relax_rt::MemRef<T, 4> *y);        \
  /* Y = act(conv2d(X, W) + bias[o] (+ R)) with W a module constant;           \
     options = (the window as above; layouts of X, Y, R: 0 NCHW, 1 NHWC;       \
     activation: 0 none, 1 ReLU) */                                            \
  void _mlir_ciface_relax_blas_conv2d_fused_packed_##SUFFIX(                   \
      relax_rt::MemRef<T, 4> *x, relax_rt::MemRef<T, 4> *w,                    \
      relax_rt::MemRef<T, 1> *bias, relax_rt::MemRef<int64_t, 1> *options,     \
      relax_rt::MemRef<T, 4> *y);                                              \
  void _mlir_ciface_relax_blas_conv2d_fused_res_packed_##SUFFIX(               \
      relax_rt::MemRef<T, 4> *x, relax_rt::MemRef<T, 4> *w,                    \
      relax_rt::MemRef<T, 1> *bias, relax_rt::MemRef<T, 4> *r,                 \
      relax_rt::MemRef<int64_t, 1> *options, relax_rt::MemRef<T, 4> *y);       \
  /* O[b, s, hq, e] = relax.attention(Q[b, s, hq, d], K[b, t, hkv, d],         \
     V[b, t, hkv, e]) with options = (scale or NaN for 1 / sqrt(d), causal     \
     0 or 1); _mask adds M, _bmask hides keys where M is false (M broadcasts   \
     to [b, hq, s, t]) */                                                      \
  void _mlir_ciface_relax_blas_attention_##SUFFIX(                             \
      relax_rt::MemRef<T, 4> *q, relax_rt::MemRef<T, 4> *k,                    \
      relax_rt::MemRef<T, 4> *v, relax_rt::MemRef<double, 1> *options,         \
      relax_rt::MemRef<T, 4> *o);                                              \
  void _mlir_ciface_relax_blas_attention_mask_##SUFFIX(                        \
      relax_rt::MemRef<T, 4> *q, relax_rt::MemRef<T, 4> *k,                    \
      relax_rt::MemRef<T, 4> *v, relax_rt::MemRef<T, 4> *mask,                 \
      relax_rt::MemRef<double, 1> *options, relax_rt::MemRef<T, 4> *o);        \
  void _mlir_ciface_relax_blas_attention_bmask_##SUFFIX(                       \
      relax_rt::MemRef<T, 4> *q, relax_rt::MemRef<T, 4> *k,                    \
      relax_rt::MemRef<T, 4> *v, relax_rt::MemRef<bool, 4> *mask,              \
      relax_rt::MemRef<double, 1> *options, relax_rt::MemRef<T, 4> *o);

extern "C" {
RELAX_BLAS_DECLARE(float, f32)
RELAX_BLAS_DECLARE(double, f64)
void relax_rt_blas_release_constants(void);
void relax_rt_blas_warm_up(void);
}

#undef RELAX_BLAS_DECLARE
#undef RELAX_BLAS_DECLARE_PACKED
#undef RELAX_BLAS_DECLARE_OTHER

#endif // RELAXDIALECT_RUNTIME_RELAXBLAS_H
