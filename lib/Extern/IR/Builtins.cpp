//===- Builtins.cpp - catalogue of built-in library functions -------------===//
//
// Link names follow one scheme so that the runtime can export every variant
// from one template:
//   relax_<lib>_[batch_|batch2_]matmul[_bcast][_nt]_<dtype>
// lib is `blas` (CPU) or `cublas` (GPU); `batch` marks a rank-3 A (one batch
// dim), `batch2` a rank-4 A (two batch dims: attention's [batch, heads]),
// `bcast` a rank-2 B shared by every batch, `nt` a transposed B, `packed` a
// rank-2 B that is a module constant (CPU: packed once by the runtime),
// then `_bias`, `_bias_gelu`, `_bias_relu`, `_res` or `_bias_res` for a
// packed GEMM with its epilogue.
// Convolutions: relax_blas_conv2d_nchw[_packed]_<dtype> (im2col + GEMM, CPU;
// `packed`: W a module constant, a direct oneDNN convolution where the
// runtime has it); relax_blas_conv2d_fused[_res]_packed_<dtype> the same
// with its epilogue (bias, `res` a residual, ReLU) and NCHW or NHWC
// tensors.
// Attention: relax_blas_attention[_mask|_bmask]_<dtype> (blocks of query
// rows through two GEMMs and a softmax, CPU).
// Quantized weights: relax_quant_linear[_batch]_<q8|q4|q4z>_<f32|f16>[_a8]
// (X [b, m, k] with `batch`; the weight format; the scales' dtype; `a8`:
// X quantized to int8; CPU, lib/Runtime/RelaxQuant.cpp), and
// relax_quant_linear[_batch]_<q8t|q4t>_f32[_a8] for weights in tiles
// (RelaxDialect/Runtime/QuantTiles.h: the f16 scales are inside the tiles,
// so the suffix names the activations' dtype).
// Collectives: relax_<mpi|nccl>_allreduce_<op>_r<rank>_<dtype> and
// relax_<mpi|nccl>_allgather_r<rank>_<dtype> (MPI on the CPU,
// lib/Runtime/RelaxCollectives.cpp; NCCL on the GPU, declared only).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Extern/IR/Builtins.h"
#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Runtime/QuantTiles.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::ext;

std::optional<BuiltinTarget> mlir::ext::parseBuiltinTarget(StringRef name) {
  if (name == "cpu")
    return BuiltinTarget::CPU;
  if (name == "cuda")
    return BuiltinTarget::CUDA;
  return std::nullopt;
}

StringRef mlir::ext::stringifyBuiltinTarget(BuiltinTarget target) {
  return target == BuiltinTarget::CPU ? "cpu" : "cuda";
}

/// The dtype suffix of a link name, or empty for dtypes no target has.
static StringRef dtypeSuffix(Type type) {
  if (!type)
    return "";
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  return "";
}

/// QuantLinear's part of whyUnsupported.
static std::string whyQuantUnsupported(const BuiltinSpec &spec) {
  if (spec.target != BuiltinTarget::CPU)
    return "no " + stringifyBuiltinTarget(spec.target).str() +
           " quantized linear";
  if (!spec.dtype || !spec.dtype.isF32())
    return "no quantized linear for activations other than f32";
  if (spec.quantBits != 4 && spec.quantBits != 8)
    return "no quantized linear for " + std::to_string(spec.quantBits) +
           " bits";
  if (spec.quantZeros && spec.quantBits != 4)
    return "no quantized linear with zero points at 8 bits";
  if (spec.quantTiles && spec.quantZeros)
    return "no quantized linear with zero points in tiles";
  if (spec.lhsRank != 2 && spec.lhsRank != 3)
    return "no quantized linear variant for X of rank " +
           std::to_string(spec.lhsRank);
  return "";
}

/// Whether the target's libraries have the dtype: OpenBLAS has sgemm/dgemm
/// only (and MPI here reduces those two); cuBLAS GEMM and NCCL cover the
/// dtypes LLM inference uses (fp16/bf16, with fp32 accumulation for GEMM,
/// and fp32).
static bool hasTargetDtype(const BuiltinSpec &spec) {
  StringRef suffix = dtypeSuffix(spec.dtype);
  return spec.target == BuiltinTarget::CPU
             ? (suffix == "f32" || suffix == "f64")
             : (suffix == "f16" || suffix == "bf16" || suffix == "f32");
}

/// "no <target> <what> for element type <dtype>".
static std::string noFunctionForDtype(const BuiltinSpec &spec,
                                      StringRef what) {
  std::string type;
  llvm::raw_string_ostream os(type);
  if (spec.dtype)
    os << spec.dtype;
  else
    os << "<null>";
  return "no " + stringifyBuiltinTarget(spec.target).str() + " " +
         what.str() + " for element type " + type;
}

static bool isCollective(const BuiltinSpec &spec) {
  return spec.kind == BuiltinKind::AllReduce ||
         spec.kind == BuiltinKind::AllGather;
}

/// The collectives' part of whyUnsupported: MPI reduces f32 and f64 here,
/// NCCL the dtypes of GPU inference.
static std::string whyCollectiveUnsupported(const BuiltinSpec &spec) {
  StringRef what =
      spec.kind == BuiltinKind::AllReduce ? "allreduce" : "allgather";
  if (!hasTargetDtype(spec))
    return noFunctionForDtype(spec, what);
  if (spec.lhsRank < 1 || spec.lhsRank > 4)
    return "no " + what.str() + " for rank " + std::to_string(spec.lhsRank) +
           " (1 to 4)";
  if (spec.kind == BuiltinKind::AllReduce &&
      !llvm::is_contained({"sum", "prod", "max", "min"}, spec.reduceOp))
    return "no allreduce for op '" + spec.reduceOp + "'";
  return "";
}

std::string mlir::ext::whyUnsupported(const BuiltinSpec &spec) {
  if (spec.kind == BuiltinKind::QuantLinear)
    return whyQuantUnsupported(spec);
  if (isCollective(spec))
    return whyCollectiveUnsupported(spec);
  StringRef suffix = dtypeSuffix(spec.dtype);
  bool dtypeOk = hasTargetDtype(spec);
  StringRef what = "matmul";
  if (spec.kind == BuiltinKind::Conv2D)
    what = "conv2d";
  else if (spec.kind == BuiltinKind::Attention)
    what = "attention";
  if (spec.kind != BuiltinKind::Matmul) {
    if (spec.target != BuiltinTarget::CPU)
      return "no " + stringifyBuiltinTarget(spec.target).str() + " " +
             what.str();
    dtypeOk = suffix == "f32" || suffix == "f64";
  }
  if (!dtypeOk)
    return noFunctionForDtype(spec, what);
  if (spec.kind == BuiltinKind::Conv2D && spec.convEpilogue && !spec.constantB)
    return "no conv2d epilogue variant without packed weights";
  if (spec.kind != BuiltinKind::Matmul)
    return "";
  // Two batch dims exist only in the CPU runtime (lib/Runtime/BlasGemm.cpp).
  unsigned maxRank = spec.target == BuiltinTarget::CPU ? 4 : 3;
  bool ranksOk = (spec.lhsRank == 2 && spec.rhsRank == 2) ||
                 (spec.lhsRank >= 3 && spec.lhsRank <= maxRank &&
                  (spec.rhsRank == spec.lhsRank || spec.rhsRank == 2));
  if (!ranksOk)
    return "no matmul variant for ranks " + std::to_string(spec.lhsRank) +
           " x " + std::to_string(spec.rhsRank);
  if (spec.constantB &&
      (spec.target != BuiltinTarget::CPU || spec.rhsRank != 2))
    return "no packed-constant matmul variant for this target or B rank";
  bool activation = spec.gelu || spec.relu;
  bool epilogue = spec.bias || activation || spec.residual;
  // The combinations the runtime exports: bias [+ GELU | ReLU], [bias +]
  // residual.
  bool known = (spec.bias && !(spec.gelu && spec.relu) &&
                !(activation && spec.residual)) ||
               (spec.residual && !activation);
  if (epilogue && (!spec.constantB || !known))
    return "no matmul epilogue variant for this combination";
  return "";
}

FailureOr<std::string> mlir::ext::getBuiltinLinkName(const BuiltinSpec &spec) {
  if (!whyUnsupported(spec).empty())
    return failure();
  if (isCollective(spec)) {
    std::string name = spec.target == BuiltinTarget::CPU ? "relax_mpi_"
                                                         : "relax_nccl_";
    name += spec.kind == BuiltinKind::AllReduce
                ? "allreduce_" + spec.reduceOp + "_"
                : std::string("allgather_");
    return name + "r" + std::to_string(spec.lhsRank) + "_" +
           dtypeSuffix(spec.dtype).str();
  }
  std::string name =
      spec.target == BuiltinTarget::CPU ? "relax_blas_" : "relax_cublas_";
  if (spec.kind == BuiltinKind::Conv2D && spec.convEpilogue)
    return name + "conv2d_fused_" + (spec.residual ? "res_" : "") + "packed_" +
           dtypeSuffix(spec.dtype).str();
  if (spec.kind == BuiltinKind::Conv2D)
    return name + "conv2d_nchw_" + (spec.constantB ? "packed_" : "") +
           dtypeSuffix(spec.dtype).str();
  if (spec.kind == BuiltinKind::QuantLinear && spec.quantTiles)
    return std::string("relax_quant_linear") +
           (spec.lhsRank == 3 ? "_batch" : "") +
           (spec.quantBits == 8 ? "_q8t_f32" : "_q4t_f32") +
           (spec.quantInt8Activations ? "_a8" : "");
  if (spec.kind == BuiltinKind::QuantLinear)
    return std::string("relax_quant_linear") +
           (spec.lhsRank == 3 ? "_batch" : "") +
           (spec.quantBits == 8 ? "_q8_"
            : spec.quantZeros   ? "_q4z_"
                                : "_q4_") +
           (spec.quantScalesF16 ? "f16" : "f32") +
           (spec.quantInt8Activations ? "_a8" : "");
  if (spec.kind == BuiltinKind::Attention) {
    name += "attention_";
    if (spec.mask == AttentionMask::Additive)
      name += "mask_";
    else if (spec.mask == AttentionMask::Boolean)
      name += "bmask_";
    return name + dtypeSuffix(spec.dtype).str();
  }
  if (spec.lhsRank == 3)
    name += "batch_";
  else if (spec.lhsRank == 4)
    name += "batch2_";
  name += "matmul";
  if (spec.lhsRank > 2 && spec.rhsRank == 2)
    name += "_bcast";
  if (spec.transposeB)
    name += "_nt";
  if (spec.constantB)
    name += "_packed";
  if (spec.bias)
    name += "_bias";
  if (spec.gelu)
    name += "_gelu";
  if (spec.relu)
    name += "_relu";
  if (spec.residual)
    name += "_res";
  name += "_" + dtypeSuffix(spec.dtype).str();
  return name;
}

FunctionType mlir::ext::getBuiltinSignature(MLIRContext *context,
                                            const BuiltinSpec &spec) {
  if (!whyUnsupported(spec).empty())
    return nullptr;
  context->getOrLoadDialect<relax::RelaxDialect>();
  using relax::sym::Expr;
  auto shaped = [&](ArrayRef<StringRef> names, Type dtype) -> Type {
    SmallVector<Expr> dims;
    for (StringRef name : names)
      dims.push_back(Expr::var(name));
    return relax::RelaxTensorType::get(relax::SymShape(dims), dtype);
  };
  if (spec.kind == BuiltinKind::Conv2D && spec.convEpilogue) {
    // Each tensor's dims are its own variables: the layouts are run-time
    // options, so the runtime relates them.
    SmallVector<Expr> optionDims = {Expr::constant(13)};
    SmallVector<Type> inputs = {shaped({"xn", "xc", "xh", "xw"}, spec.dtype),
                                shaped({"o", "g", "r", "s"}, spec.dtype),
                                shaped({"o"}, spec.dtype)};
    if (spec.residual)
      inputs.push_back(shaped({"rn", "r1", "r2", "r3"}, spec.dtype));
    inputs.push_back(relax::RelaxTensorType::get(
        relax::SymShape(optionDims), IntegerType::get(context, 64)));
    inputs.push_back(shaped({"yn", "y1", "y2", "y3"}, spec.dtype));
    return FunctionType::get(context, inputs, {});
  }
  if (spec.kind == BuiltinKind::Conv2D) {
    // The output dims are their own variables: the window is a run-time
    // operand, so the runtime checks them against the input's.
    SmallVector<Expr> windowDims = {Expr::constant(9)};
    Type window = relax::RelaxTensorType::get(relax::SymShape(windowDims),
                                              IntegerType::get(context, 64));
    return FunctionType::get(context,
                             {shaped({"n", "c", "h", "w"}, spec.dtype),
                              shaped({"o", "g", "r", "s"}, spec.dtype), window,
                              shaped({"n", "o", "p", "q"}, spec.dtype)},
                             {});
  }
  if (spec.kind == BuiltinKind::Attention) {
    // The mask's dims are its own variables (it broadcasts); the runtime
    // checks them, and every other agreement, before it reads anything.
    SmallVector<Type> inputs = {shaped({"b", "s", "hq", "d"}, spec.dtype),
                                shaped({"b", "t", "hkv", "d"}, spec.dtype),
                                shaped({"b", "t", "hkv", "e"}, spec.dtype)};
    if (spec.mask != AttentionMask::None)
      inputs.push_back(shaped({"m0", "m1", "m2", "m3"},
                              spec.mask == AttentionMask::Boolean
                                  ? Type(IntegerType::get(context, 1))
                                  : spec.dtype));
    SmallVector<Expr> optionDims = {Expr::constant(2)};
    inputs.push_back(relax::RelaxTensorType::get(relax::SymShape(optionDims),
                                                 Float64Type::get(context)));
    inputs.push_back(shaped({"b", "s", "hq", "e"}, spec.dtype));
    return FunctionType::get(context, inputs, {});
  }
  if (isCollective(spec)) {
    // An allgather's output dims are variables of their own: the axis is a
    // run-time option, so the runtime relates them to the input's.
    static const char *const in[] = {"d0", "d1", "d2", "d3"};
    static const char *const out[] = {"e0", "e1", "e2", "e3"};
    bool gather = spec.kind == BuiltinKind::AllGather;
    SmallVector<StringRef> x(in, in + spec.lhsRank);
    SmallVector<StringRef> y(gather ? out : in,
                             (gather ? out : in) + spec.lhsRank);
    SmallVector<Expr> optionDims = {Expr::constant(gather ? 2 : 1)};
    Type options = relax::RelaxTensorType::get(relax::SymShape(optionDims),
                                               IntegerType::get(context, 64));
    return FunctionType::get(
        context, {shaped(x, spec.dtype), options, shaped(y, spec.dtype)}, {});
  }
  if (spec.kind == BuiltinKind::QuantLinear) {
    // Q's and the scales' dims are their own variables where the layout
    // relates them (k = 2 * h, k = g * group): the runtime checks them.
    Type f32 = Float32Type::get(context);
    Type u8 = IntegerType::get(context, 8, IntegerType::Unsigned);
    SmallVector<StringRef> x = {"m", "k"}, y = {"m", "n"};
    if (spec.lhsRank == 3) {
      x.insert(x.begin(), "b");
      y.insert(y.begin(), "b");
    }
    SmallVector<Type> inputs = {shaped(x, f32)};
    if (spec.quantTiles) {
      // The tile size is a constant of the layout; the runtime relates the
      // tile counts to X's k and Y's n.
      SmallVector<Expr> tileDims = {
          Expr::var("nb"), Expr::var("kb"),
          Expr::constant(::relax::runtime::quant_tiles::tileBytes(
              static_cast<int>(spec.quantBits)))};
      inputs.push_back(
          relax::RelaxTensorType::get(relax::SymShape(tileDims), u8));
      inputs.push_back(shaped(y, f32));
      return FunctionType::get(context, inputs, {});
    }
    inputs.push_back(spec.quantBits == 8
                         ? shaped({"n", "k"}, IntegerType::get(context, 8))
                         : shaped({"n", "h"}, u8));
    inputs.push_back(shaped({"n", "g"}, spec.quantScalesF16
                                            ? Type(Float16Type::get(context))
                                            : f32));
    if (spec.quantZeros)
      inputs.push_back(shaped({"n", "g"}, u8));
    inputs.push_back(shaped(y, f32));
    return FunctionType::get(context, inputs, {});
  }
  Expr m = Expr::var("m"), k = Expr::var("k"), n = Expr::var("n");
  // The batch dims: `b` for one, `b0, b1` for two.
  SmallVector<Expr> batch;
  if (spec.lhsRank == 3)
    batch.push_back(Expr::var("b"));
  else if (spec.lhsRank == 4)
    batch.append({Expr::var("b0"), Expr::var("b1")});
  auto tensor = [&](bool batched, Expr d0, Expr d1) -> Type {
    SmallVector<Expr> dims;
    if (batched)
      dims.append(batch);
    dims.push_back(d0);
    dims.push_back(d1);
    return relax::RelaxTensorType::get(relax::SymShape(dims), spec.dtype);
  };
  bool rhsBatched = spec.rhsRank > 2;
  Type lhs = tensor(true, m, k);
  Type rhs =
      spec.transposeB ? tensor(rhsBatched, n, k) : tensor(rhsBatched, k, n);
  Type out = tensor(true, m, n);
  SmallVector<Type> inputs = {lhs, rhs};
  if (spec.bias) {
    SmallVector<Expr> biasDims = {n};
    inputs.push_back(
        relax::RelaxTensorType::get(relax::SymShape(biasDims), spec.dtype));
  }
  // R has C's shape.
  if (spec.residual)
    inputs.push_back(out);
  inputs.push_back(out);
  return FunctionType::get(context, inputs, {});
}

FailureOr<FuncOp> mlir::ext::getOrCreateBuiltin(ModuleOp module,
                                                const BuiltinSpec &spec) {
  std::string why = whyUnsupported(spec);
  if (!why.empty())
    return module.emitError("no built-in library function: ") << why;
  MLIRContext *context = module.getContext();
  context->getOrLoadDialect<ExternDialect>();
  std::string linkName = *getBuiltinLinkName(spec);
  FunctionType type = getBuiltinSignature(context, spec);
  for (FuncOp existing : module.getOps<FuncOp>())
    if (existing.getLinkName() == linkName &&
        existing.getFunctionType() == type && existing.getNumOutputs() == 1u)
      return existing;
  OpBuilder builder(context);
  auto decl = FuncOp::create(builder, module.getLoc(), linkName, type, linkName,
                             /*numOutputs=*/1);
  decl.setPrivate();
  SymbolTable(module).insert(decl, module.getBody()->begin());
  return decl;
}
