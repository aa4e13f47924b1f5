//===- Builtins.h - catalogue of built-in library functions -----*- C++ -*-===//
//
// The library functions the compiler itself dispatches to (GEMM on a CPU
// BLAS and on cuBLAS, convolutions, attention, quantized linears, and the
// collectives of tensor-parallel programs on MPI and NCCL). One place knows their link names and symbolic
// signatures, so that passes (relax-dispatch-library), the runtime and the
// docs agree. The runtime side of the CPU functions is in lib/Runtime.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXTERN_IR_BUILTINS_H
#define RELAXDIALECT_EXTERN_IR_BUILTINS_H

#include "RelaxDialect/Extern/IR/ExternDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>

namespace mlir {
namespace ext {

/// Where a built-in runs: a CPU BLAS (OpenBLAS) or cuBLAS.
enum class BuiltinTarget { CPU, CUDA };

/// What the quantized-linear built-ins do with X: keep it f32 (exact
/// products) or quantize 1 to 4 rows to int8 by blocks of 32 for integer
/// dot products (docs/quantization.md, "Int8 activations").
enum class QuantActivations { F32, Int8 };

/// The values of every `quant-activations` option (the pass's, the
/// pipelines', relax-compile's and relax-run's), spelled once.
inline llvm::cl::ValuesClass quantActivationsValues() {
  return llvm::cl::values(
      clEnumValN(QuantActivations::F32, "f32", "X stays f32: exact products"),
      clEnumValN(QuantActivations::Int8, "int8",
                 "1 to 4 rows of X quantized to int8 by blocks of 32, "
                 "integer dot products (llama.cpp's precision for Q8_0 "
                 "and Q4_0; the `_a8` built-ins)"));
}

/// Which matmuls and linears the library takes (relax-dispatch-library's
/// `library-gemms`): `Auto` is `All` on the CPU and `BySize` for cuBLAS,
/// whose rule (Relax/Transforms/GemmLibraryRule.h) keeps the products the
/// generated kernels do as well, or better through fusion; `None` keeps
/// every product generated.
enum class LibraryGemms { Auto, All, BySize, None };

/// The families of built-ins.
enum class BuiltinKind {
  Matmul,
  Conv2D,
  Attention,
  QuantLinear,
  AllReduce,
  AllGather
};

/// The mask operand of an Attention built-in: none, added to the scores
/// (the query's dtype), or boolean (i1: false hides the key).
enum class AttentionMask { None, Additive, Boolean };

/// One built-in, described by what it computes. For Matmul:
/// `C = A * B` (or `A * B^T` with transposeB) where
///   lhsRank = rhsRank = 2:  A [m, k],    B [k, n],    C [m, n]
///   lhsRank = rhsRank = 3:  A [b, m, k], B [b, k, n], C [b, m, n]
///   lhsRank = 3, rhsRank = 2: A [b, m, k], B [k, n] shared by every batch,
///                           C [b, m, n]
///   lhsRank = rhsRank = 4 (CPU only): A [b0, b1, m, k], B [b0, b1, k, n],
///                           C [b0, b1, m, n] (multi-head attention)
///   lhsRank = 4, rhsRank = 2 (CPU only): B [k, n] shared by every batch
/// (with transposeB, B's last two dims are swapped: [n, k]).
/// For Conv2D (CPU only): `Y = conv2d(X, W)` in NCHW / OIHW, with the
/// window in a run-time operand:
///   X [n, c, h, w], W [o, g, r, s], window [9] i64, Y [n, o, p, q]
/// where window = (stride_h, stride_w, pad_top, pad_left, pad_bottom,
/// pad_right, dilation_h, dilation_w, groups) and g = c / groups. The
/// ranks are fixed; lhsRank, rhsRank and transposeB are unused.
/// For Attention (CPU only): relax.attention's semantics (BSNH layout,
/// grouped heads, bottom-right causal mask) with the options in a run-time
/// operand:
///   Q [b, s, hq, d], K [b, t, hkv, d], V [b, t, hkv, e],
///   mask [m0, m1, m2, m3] (unless mask is None; broadcast to [b, hq, s, t]),
///   options [2] f64 = (scale or NaN for 1 / sqrt(d), causal 0 or 1),
///   O [b, s, hq, e].
/// For QuantLinear (CPU only): `Y = X * W^T` with W [n, k] stored quantized
/// (docs/quantization.md; `quantBits`, `quantZeros`, `quantScalesF16`):
///   X [m, k] (lhsRank 2) or [b, m, k] (lhsRank 3) f32,
///   Q [n, k] i8 (8 bits) or [n, h] ui8 (4 bits, k = 2 * h),
///   scales [n, g] f32 or f16, (zeros [n, g] ui8,) Y [m, n] or [b, m, n] f32,
/// with the group k / g; the runtime checks every relation. With
/// `quantTiles` the weight operand is the tiles T [nb, kb, 1088 or 576] ui8
/// (n = 8 nb, k = 128 kb, checked by the runtime) and there are no scales:
///   X [m, k] or [b, m, k] f32, T [nb, kb, tile bytes] ui8, Y [m, n] or
///   [b, m, n] f32
/// (link name `..._q8t_f32` / `..._q4t_f32`: f32 activations). `_a8`
/// (`quantInt8Activations`): 1 to 4 rows of X quantized to int8 by
/// blocks of 32 for integer dot products (the runtime's
/// QuantActivations::Int8).
/// For AllReduce and AllGather (relax.ccl.*; CPU: MPI on MPI_COMM_WORLD,
/// CUDA: NCCL, declared only): X of rank `lhsRank` (1 to 4), options i64,
/// Y of the same rank:
///   AllReduce: X [d0, ...], options [1] = (num_ranks), Y [d0, ...],
///              Y = reduceOp over the ranks' X;
///   AllGather: X [d0, ...], options [2] = (num_ranks, axis), Y [e0, ...]
///              (its own variables: the runtime checks e_axis = ranks * d).
struct BuiltinSpec {
  BuiltinKind kind = BuiltinKind::Matmul;
  BuiltinTarget target = BuiltinTarget::CPU;
  Type dtype;
  unsigned lhsRank = 2;
  unsigned rhsRank = 2;
  bool transposeB = false;
  /// Matmul with a rank-2 B, or Conv2D, on the CPU: B (the conv's W) is a
  /// constant of the module, so the runtime may pack it once for its
  /// kernels (`_packed`).
  bool constantB = false;
  /// Conv2D with constantB on the CPU (`_fused`): the convolution with its
  /// epilogue, act(conv2d(X, W) + bias (+ R)), X, Y and R each NCHW or NHWC:
  ///   X [xn, xc, xh, xw], W [o, g, r, s], bias [o],
  ///   (R [rn, r1, r2, r3] with residual,) options [13] i64, Y [yn, y1, y2, y3]
  /// where options = (the window; layouts of X, Y, R: 0 NCHW, 1 NHWC;
  /// activation: 0 none, 1 ReLU). The dims are checked by the runtime.
  bool convEpilogue = false;
  bool residual = false;
  /// Matmul with constantB on the CPU, its epilogue: a bias operand [n]
  /// after B (`_bias`), then GELU in its erf form (`_bias_gelu`) or ReLU
  /// (`_bias_relu`); or `+ R`, R an operand of C's shape before C (`_res`,
  /// `_bias_res`; `residual` above).
  bool bias = false;
  bool gelu = false;
  bool relu = false;
  AttentionMask mask = AttentionMask::None;
  /// QuantLinear: the weight's format.
  unsigned quantBits = 8;
  bool quantZeros = false;
  bool quantScalesF16 = false;
  bool quantInt8Activations = false;
  /// QuantLinear: the weight in RelaxDialect/Runtime/QuantTiles.h's tiles
  /// (`_q8t` / `_q4t`; group 32, f16 scales inside the tiles, no zeros).
  bool quantTiles = false;
  /// AllReduce: sum, prod, max or min.
  std::string reduceOp = "sum";
};

/// "cpu" / "cuda".
std::optional<BuiltinTarget> parseBuiltinTarget(StringRef name);
StringRef stringifyBuiltinTarget(BuiltinTarget target);

/// Why the catalogue has no function for `spec` (dtype not supported on the
/// target, ranks without a variant); an empty string when it has one.
std::string whyUnsupported(const BuiltinSpec &spec);

/// The symbol the runtime exports (without the `_mlir_ciface_` prefix), e.g.
/// `relax_blas_matmul_f32`, `relax_blas_batch_matmul_nt_f64`,
/// `relax_cublas_matmul_bf16`. Fails when whyUnsupported(spec) is not empty.
FailureOr<std::string> getBuiltinLinkName(const BuiltinSpec &spec);

/// The symbolic signature: inputs then the output, relax tensors over the
/// variables named in BuiltinSpec. Null when unsupported.
FunctionType getBuiltinSignature(MLIRContext *context, const BuiltinSpec &spec);

/// Returns the declaration of `spec` in `module`: an existing extern.func
/// with the same link name and signature, or a new private one (named after
/// the link name, uniqued if that symbol is taken) added at the start of the
/// module. Fails, with an error at `module`, when unsupported.
FailureOr<FuncOp> getOrCreateBuiltin(ModuleOp module, const BuiltinSpec &spec);

} // namespace ext
} // namespace mlir

#endif // RELAXDIALECT_EXTERN_IR_BUILTINS_H
