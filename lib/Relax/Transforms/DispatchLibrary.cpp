//===- DispatchLibrary.cpp - --relax-dispatch-library ---------------------===//
//
// Offloads GEMMs to a library: relax.matmul and relax.linear become
// relax.call_dps_packed of a built-in from the extern catalogue (CPU BLAS or
// cuBLAS), whose extern.func declaration is added to the module; on the CPU
// relax.conv2d becomes the im2col + GEMM built-in, its window a constant
// operand, and relax.attention the runtime's blocked attention (two GEMMs
// per block of query rows around a softmax), its options a constant
// operand; on the CPU a linear (or matmul) of a relax.dequantize'd weight
// becomes the quantized-linear built-in over the packed weight
// (DispatchQuantized.cpp). Only the shapes the library variants cover are
// taken; everything else is left for relax-legalize-ops, so the pass never
// makes a module less compilable.
//
// This is a single walk rather than a pattern set: the rewrite adds
// module-level declarations and never exposes new opportunities, so there is
// no fixed point to reach.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Extern/IR/Builtins.h"
#include "RelaxDialect/Extern/IR/ExternDialect.h"
#include "RelaxDialect/Relax/IR/ConvPrivateLayout.h"
#include "RelaxDialect/Relax/Transforms/ConvLayouts.h"
#include "RelaxDialect/Relax/Transforms/DispatchQuantized.h"
#include "RelaxDialect/Relax/Transforms/GemmLibraryRule.h"
#include "RelaxDialect/Relax/Transforms/MemoryPlan.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/Relax/Transforms/ShapeContracts.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <limits>

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXDISPATCHLIBRARY
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// The catalogue entry computing `result = lhs * op(rhs)`, or nullopt when
/// no library variant covers these types exactly.
static std::optional<ext::BuiltinSpec> matchGemm(ext::BuiltinTarget target,
                                                 Type lhsType, Type rhsType,
                                                 RelaxTensorType result,
                                                 bool transposeB) {
  auto lhs = dyn_cast<RelaxTensorType>(lhsType);
  auto rhs = dyn_cast<RelaxTensorType>(rhsType);
  if (!lhs || !rhs || !lhs.hasRank() || !rhs.hasRank() || !result ||
      !result.hasRank())
    return std::nullopt;
  // The call's output is allocated by the caller, so its shape must be known;
  // mixed-precision results (out_dtype) have no variant yet.
  if (!result.getShape().isFullyKnown() || lhs.getDtype() != rhs.getDtype() ||
      result.getDtype() != lhs.getDtype())
    return std::nullopt;
  ext::BuiltinSpec spec;
  spec.kind = ext::BuiltinKind::Matmul;
  spec.target = target;
  spec.dtype = lhs.getDtype();
  spec.lhsRank = lhs.getRank();
  spec.rhsRank = rhs.getRank();
  spec.transposeB = transposeB;
  if (!ext::whyUnsupported(spec).empty())
    return std::nullopt;
  // The batched declarations say both batches are `b` (or `b0, b1`): a
  // broadcast batch ([1, m, k] x [b, k, n]) or an unproven one stays with
  // the legalizer.
  if (spec.rhsRank == spec.lhsRank) {
    for (unsigned i = 0; i + 2 < spec.lhsRank; ++i) {
      const sym::Expr &bl = lhs.getDims()[i], &br = rhs.getDims()[i];
      if (!bl || !br || bl != br)
        return std::nullopt;
    }
  }
  return spec;
}

/// Whether `op` swaps its operand's last two dims and keeps the others in
/// place (`axes = [0, ..., r-3, r-1, r-2]`).
static bool swapsLastTwoDims(PermuteDimsOp op) {
  auto input = dyn_cast<RelaxTensorType>(op.getInput().getType());
  if (!input || !input.hasRank() || input.getRank() < 2)
    return false;
  int64_t rank = input.getRank();
  SmallVector<int64_t> axes;
  if (std::optional<ArrayRef<int64_t>> given = op.getAxes())
    axes.assign(given->begin(), given->end());
  else
    for (int64_t i = rank - 1; i >= 0; --i)
      axes.push_back(i);
  if (static_cast<int64_t>(axes.size()) != rank)
    return false;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t axis = axes[i] < 0 ? axes[i] + rank : axes[i];
    int64_t expected = i < rank - 2 ? i : (i == rank - 2 ? rank - 1 : rank - 2);
    if (axis != expected)
      return false;
  }
  return true;
}

/// Whether `v` is a scalar (or splat) float constant within 1e-6 of `value`.
static bool isFloatConstant(Value v, double value) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return false;
  auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue());
  if (!dense || !dense.isSplat())
    return false;
  double got = dense.getSplatValue<APFloat>().convertToDouble();
  return std::fabs(got - value) <= 1e-6 * std::fabs(value);
}

/// The operand of a commutative binary `op` other than `v` when the other
/// one is `v`, else null.
template <typename BinaryOp> static Value otherOperand(BinaryOp op, Value v) {
  if (op.getLhs() == v)
    return op.getRhs();
  if (op.getRhs() == v)
    return op.getLhs();
  return nullptr;
}

/// The GEMM epilogue a packed built-in absorbs, each intermediate used
/// only inside it: a bias over the last dim, then GELU in its erf form or a
/// ReLU; or [a bias, then] a residual add. (SwiGLU's SiLU and gating
/// product as oneDNN post-ops, swish and a binary mul, measured no faster
/// than the fused kernel that computes both: they stay kernels.)
struct GemmEpilogueMatch {
  Value bias;
  bool gelu = false;
  bool relu = false;
  /// A residual added last.
  Value residual;
  bool any() const { return bias || residual; }
  /// The ops absorbed, in program order; the last one's result is what the
  /// call replaces.
  SmallVector<Operation *> ops;
};

/// GELU's erf form on `t`, as imported from ONNX (PyTorch's export):
/// `(t * 0.5) * (erf(t / sqrt 2) + 1)` or `(t * (erf(t / sqrt 2) + 1)) * 0.5`
/// (any operand order; `t * (1 / sqrt 2)` for the division). Appends the ops
/// to `ops` in program order and returns true when it matches.
static bool matchGelu(Value t, SmallVectorImpl<Operation *> &ops) {
  if (!llvm::hasNItems(t.getUses(), 2))
    return false;
  Type type = t.getType();
  Operation *scaled = nullptr, *other = nullptr;
  for (Operation *user : t.getUsers()) {
    if (auto div = dyn_cast<DivideOp>(user);
        div && div.getLhs() == t && isFloatConstant(div.getRhs(), M_SQRT2))
      scaled = div;
    else if (auto mul = dyn_cast<MultiplyOp>(user);
             mul && !scaled && isFloatConstant(otherOperand(mul, t), M_SQRT1_2))
      scaled = mul;
    else
      other = user;
  }
  if (!scaled || !other || scaled->getResult(0).getType() != type)
    return false;
  auto erf = dyn_cast_or_null<ErfOp>(soleUser(scaled->getResult(0)));
  if (!erf || erf.getResult().getType() != type)
    return false;
  auto plusOne = dyn_cast_or_null<AddOp>(soleUser(erf.getResult()));
  if (!plusOne ||
      !isFloatConstant(otherOperand(plusOne, erf.getResult()), 1.0) ||
      plusOne.getResult().getType() != type)
    return false;
  auto mul = dyn_cast<MultiplyOp>(other);
  if (!mul || mul.getResult().getType() != type)
    return false;
  Value otherIn = otherOperand(mul, t);
  if (isFloatConstant(otherIn, 0.5)) {
    // (t * 0.5) * (erf + 1)
    auto last = dyn_cast_or_null<MultiplyOp>(soleUser(mul.getResult()));
    if (!last || otherOperand(last, mul.getResult()) != plusOne.getResult() ||
        !plusOne.getResult().hasOneUse() || last.getResult().getType() != type)
      return false;
    ops.append({scaled, erf, plusOne, mul, last});
    return true;
  }
  if (otherIn == plusOne.getResult()) {
    // (t * (erf + 1)) * 0.5
    auto last = dyn_cast_or_null<MultiplyOp>(soleUser(mul.getResult()));
    if (!last || !isFloatConstant(otherOperand(last, mul.getResult()), 0.5) ||
        last.getResult().getType() != type)
      return false;
    ops.append({scaled, erf, plusOne, mul, last});
    return true;
  }
  return false;
}

/// The epilogue after a GEMM whose product is `product` ([..., n]): an
/// add of a rank-1 [n] tensor of its dtype (or `bias`, already known: a
/// linear's), then GELU or ReLU.
static GemmEpilogueMatch matchGemmEpilogue(Value product, Value bias) {
  GemmEpilogueMatch match;
  auto type = cast<RelaxTensorType>(product.getType());
  // `v + R` for the only user of v, R of v's type: R.
  auto tensorOperand = [&](AddOp binary, Value v) -> Value {
    if (!binary || binary.getResult().getType() != type)
      return nullptr;
    Value r = otherOperand(binary, v);
    return r && r != v && r.getType() == type ? r : nullptr;
  };
  auto isRowBias = [&](Value b) {
    auto t = dyn_cast<RelaxTensorType>(b.getType());
    return t && t.hasRank() && t.getRank() == 1 &&
           t.getDtype() == type.getDtype() && t.getDims()[0] &&
           t.getDims()[0] == type.getDims().back();
  };
  Value current = product;
  if (bias) {
    if (!isRowBias(bias))
      return match;
    match.bias = bias;
  } else if (auto add = dyn_cast_or_null<AddOp>(soleUser(product));
             add && add.getResult().getType() == type) {
    Value b = otherOperand(add, product);
    if (b && b != product && isRowBias(b)) {
      match.bias = b;
      match.ops.push_back(add);
      current = add.getResult();
    }
  }
  if (match.bias) {
    match.gelu = matchGelu(current, match.ops);
    if (match.gelu)
      return match;
    if (auto relu = dyn_cast_or_null<ReluOp>(soleUser(current));
        relu && relu.getResult().getType() == type) {
      match.relu = true;
      match.ops.push_back(relu);
      return match;
    }
  }
  // A residual add, after the bias or alone.
  auto add = dyn_cast_or_null<AddOp>(soleUser(current));
  if (Value r = tensorOperand(add, current)) {
    match.residual = r;
    match.ops.push_back(add);
  }
  return match;
}

namespace {
struct RelaxDispatchLibraryPass
    : public relax::impl::RelaxDispatchLibraryBase<RelaxDispatchLibraryPass> {
  using Base::Base;

  void runOnOperation() override {
    targetKind = target;
    IRRewriter rewriter(&getContext());
    // The fused convolutions first, all layouts decided before any call is
    // made (ConvLayouts.h).
    if (targetKind == ext::BuiltinTarget::CPU)
      for (const FusedConvPlan &plan : planFusedConvs(getOperation()))
        if (failed(dispatchFusedConv2D(rewriter, plan)))
          return signalPassFailure();
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isa<MatmulOp, LinearOp, Conv2DOp, AttentionOp>(op))
        candidates.push_back(op);
    });
    for (Operation *op : candidates) {
      FailureOr<bool> quantized =
          dispatchQuantizedProduct(rewriter, getOperation(), op, targetKind,
                                   quantActivations);
      if (failed(quantized))
        return signalPassFailure();
      if (*quantized) {
        ++numDispatched;
        continue;
      }
      LogicalResult result = success();
      if (auto matmul = dyn_cast<MatmulOp>(op))
        result = dispatchMatmul(rewriter, matmul);
      else if (auto conv = dyn_cast<Conv2DOp>(op))
        result = dispatchConv2D(rewriter, conv);
      else if (auto attention = dyn_cast<AttentionOp>(op))
        result = dispatchAttention(rewriter, attention);
      else
        result = dispatchLinear(rewriter, cast<LinearOp>(op));
      if (failed(result))
        return signalPassFailure();
    }
  }

private:
  /// Creates the declaration and the call; returns the call. A GEMM whose
  /// rank-2 B, or a conv2d whose W, is a relax.constant (the weights of a
  /// layer; the second operand of both built-ins) takes the `_packed`
  /// variant where the catalogue has one: the runtime then packs it once
  /// instead of on every call.
  FailureOr<CallDPSPackedOp> createCall(RewriterBase &rewriter, Operation *op,
                                        ext::BuiltinSpec spec,
                                        ValueRange inputs,
                                        RelaxTensorType resultType) {
    if ((spec.kind == ext::BuiltinKind::Matmul ||
         spec.kind == ext::BuiltinKind::Conv2D) &&
        inputs.size() >= 2 && isPackable(inputs[1])) {
      ext::BuiltinSpec packed = spec;
      packed.constantB = true;
      if (ext::whyUnsupported(packed).empty())
        spec = packed;
    }
    FailureOr<ext::FuncOp> decl = ext::getOrCreateBuiltin(getOperation(), spec);
    if (failed(decl))
      return failure();
    rewriter.setInsertionPoint(op);
    ++numDispatched;
    return CallDPSPackedOp::create(rewriter, op->getLoc(),
                                   TypeRange{resultType}, decl->getSymName(),
                                   inputs);
  }

  static bool isPackable(Value b) { return b.getDefiningOp<ConstantOp>(); }

  /// Whether `library-gemms` gives the library the product `op` of `lhs`
  /// into `product`: `auto` is `all` on the CPU, `by-size` for cuBLAS.
  bool takesGemm(Operation *op, RelaxTensorType lhs, RelaxTensorType product,
                 bool hasBias) const {
    ext::LibraryGemms mode = libraryGemms;
    if (mode == ext::LibraryGemms::Auto)
      mode = targetKind == ext::BuiltinTarget::CUDA ? ext::LibraryGemms::BySize
                                                    : ext::LibraryGemms::All;
    if (mode == ext::LibraryGemms::BySize)
      return preferLibraryGemm(op, lhs, product, hasBias);
    return mode == ext::LibraryGemms::All;
  }

  /// A GEMM `inputs[0] * op(inputs[1])` with a constant B whose product
  /// `product` (the value `op` computes; with `bias`, a linear's, before
  /// its bias) feeds a bias add and maybe GELU: one `_packed_bias[_gelu]`
  /// call computing all of it (oneDNN's bias and post-op) replaces the last
  /// op of the epilogue. Returns the call, or null when there is no such
  /// epilogue (nothing changed).
  FailureOr<CallDPSPackedOp> createEpilogueCall(RewriterBase &rewriter,
                                                Operation *op,
                                                ext::BuiltinSpec spec,
                                                ValueRange inputs,
                                                Value product, Value bias) {
    if (spec.kind != ext::BuiltinKind::Matmul || !isPackable(inputs[1]))
      return CallDPSPackedOp();
    GemmEpilogueMatch match = matchGemmEpilogue(product, bias);
    if (!match.any())
      return CallDPSPackedOp();
    spec.constantB = true;
    spec.bias = static_cast<bool>(match.bias);
    spec.gelu = match.gelu;
    spec.relu = match.relu;
    spec.residual = static_cast<bool>(match.residual);
    if (!ext::whyUnsupported(spec).empty())
      return CallDPSPackedOp();
    FailureOr<ext::FuncOp> decl = ext::getOrCreateBuiltin(getOperation(), spec);
    if (failed(decl))
      return failure();
    Operation *last = match.ops.empty() ? op : match.ops.back();
    // The bias may be defined after the GEMM; everything dominates `last`.
    rewriter.setInsertionPoint(last);
    ++numDispatched;
    SmallVector<Value> operands = {inputs[0], inputs[1]};
    if (match.bias)
      operands.push_back(match.bias);
    if (match.residual)
      operands.push_back(match.residual);
    auto call = CallDPSPackedOp::create(rewriter, op->getLoc(),
                                        TypeRange{last->getResult(0).getType()},
                                        decl->getSymName(), operands);
    rewriter.replaceAllUsesWith(last->getResult(0), call.getResult(0));
    for (Operation *absorbed : llvm::reverse(match.ops))
      rewriter.eraseOp(absorbed);
    if (!match.ops.empty() || op->use_empty())
      rewriter.eraseOp(op);
    return call;
  }

  /// conv2d on a CPU BLAS: im2col + GEMM in the runtime. The window
  /// attributes travel as a constant [9] i64 operand (the built-in's
  /// layout); an op the legalizer would reject (malformed window) is left
  /// to it, so its diagnostic stays the one users see.
  LogicalResult dispatchConv2D(RewriterBase &rewriter, Conv2DOp op) {
    if (targetKind != ext::BuiltinTarget::CPU)
      return success();
    auto x = dyn_cast<RelaxTensorType>(op.getInput().getType());
    auto w = dyn_cast<RelaxTensorType>(op.getWeight().getType());
    auto resultType = dyn_cast<RelaxTensorType>(op.getResult().getType());
    if (!x || !w || !resultType || !x.hasRank() || !w.hasRank() ||
        !resultType.hasRank() || x.getRank() != 4 || w.getRank() != 4 ||
        !resultType.getShape().isFullyKnown() || x.getDtype() != w.getDtype() ||
        resultType.getDtype() != x.getDtype())
      return success();
    ext::BuiltinSpec spec;
    spec.kind = ext::BuiltinKind::Conv2D;
    spec.target = targetKind;
    spec.dtype = x.getDtype();
    if (!ext::whyUnsupported(spec).empty())
      return success();
    std::optional<std::array<int64_t, 9>> window = convWindow(op);
    if (!window)
      return success();
    emitShapeContractChecks(rewriter, op);
    auto i64 = rewriter.getI64Type();
    rewriter.setInsertionPoint(op);
    auto windowValue = ConstantOp::create(
        rewriter, op.getLoc(),
        DenseElementsAttr::get(RankedTensorType::get({9}, i64),
                               ArrayRef<int64_t>(*window)));
    FailureOr<CallDPSPackedOp> call =
        createCall(rewriter, op, spec,
                   {op.getInput(), op.getWeight(), windowValue}, resultType);
    if (failed(call))
      return failure();
    rewriter.replaceOp(op, call->getResults());
    return success();
  }

  /// conv2d with constant weights, as `plan` (planFusedConvs) says: one
  /// call that also computes the epilogue (bias, residual, ReLU). An input
  /// or residual that is the NCHW view of an NHWC tensor (permute_dims [0,
  /// 3, 1, 2]) is read as it is, and so is a conv-private one; an NHWC or
  /// private output is typed NHWC, behind such a view for its readers
  /// (whose calls, made later, read through it), or replaces the
  /// channels-last views that alone read it.
  LogicalResult dispatchFusedConv2D(RewriterBase &rewriter,
                                    const FusedConvPlan &plan) {
    Conv2DOp op = plan.conv;
    const ConvEpilogue &epilogue = plan.epilogue;
    emitShapeContractChecks(rewriter, op);
    Value result = epilogue.last->getResult(0);
    auto resultType = cast<RelaxTensorType>(result.getType());
    ext::BuiltinSpec spec;
    spec.kind = ext::BuiltinKind::Conv2D;
    spec.target = targetKind;
    spec.dtype = resultType.getDtype();
    spec.constantB = true;
    spec.convEpilogue = true;
    spec.residual = epilogue.residual != nullptr;
    // Everything the call reads dominates the last epilogue op.
    rewriter.setInsertionPoint(epilogue.last);
    Location loc = op.getLoc();
    auto layoutOf = [](Value v) -> std::pair<Value, ConvLayout> {
      if (auto permute = v.getDefiningOp<PermuteDimsOp>()) {
        if (isNhwcToNchw(permute)) {
          Value nhwc = permute.getInput();
          Operation *def = nhwc.getDefiningOp();
          return {nhwc, def && def->hasAttr(kConvPrivateResultAttr)
                            ? ConvLayout::Private
                            : ConvLayout::Nhwc};
        }
      }
      return {v, ConvLayout::Nchw};
    };
    auto [x, xLayout] = layoutOf(op.getInput());
    Value bias = epilogue.bias;
    if (!bias) {
      DenseElementsAttr values = epilogue.biasAttr;
      if (!values) {
        // No bias: zeros, which the kernels add for free (the plan made
        // sure the channels are known).
        auto type = RankedTensorType::get(
            {*resultType.getDims()[1].getConstant()}, resultType.getDtype());
        values = DenseElementsAttr::get(
            type, rewriter.getZeroAttr(resultType.getDtype()));
      }
      bias = ConstantOp::create(rewriter, loc, values);
    }
    SmallVector<Value> inputs = {x, op.getWeight(), bias};
    SmallVector<int64_t> privateOperands;
    if (xLayout == ConvLayout::Private)
      privateOperands.push_back(0);
    ConvLayout residualLayout = ConvLayout::Nchw;
    int64_t residualOperand = -1;
    if (epilogue.residual) {
      auto [r, layout] = layoutOf(epilogue.residual->get());
      residualOperand = inputs.size();
      inputs.push_back(r);
      residualLayout = layout;
      if (layout == ConvLayout::Private)
        privateOperands.push_back(inputs.size() - 1);
    }
    int64_t options[13];
    std::copy(plan.window.begin(), plan.window.end(), options);
    options[9] = static_cast<int64_t>(xLayout);
    options[10] = static_cast<int64_t>(plan.output);
    options[11] = static_cast<int64_t>(residualLayout);
    options[12] = epilogue.relu;
    inputs.push_back(ConstantOp::create(
        rewriter, loc,
        DenseElementsAttr::get(
            RankedTensorType::get({13}, rewriter.getI64Type()),
            ArrayRef<int64_t>(options))));
    ArrayRef<sym::Expr> dims = resultType.getDims();
    bool outNhwc = plan.output != ConvLayout::Nchw;
    auto callType = outNhwc ? RelaxTensorType::get(SymShape({dims[0], dims[2],
                                                             dims[3], dims[1]}),
                                                   resultType.getDtype())
                            : resultType;
    FailureOr<ext::FuncOp> decl = ext::getOrCreateBuiltin(getOperation(), spec);
    if (failed(decl))
      return failure();
    ++numDispatched;
    auto call = CallDPSPackedOp::create(rewriter, loc, TypeRange{callType},
                                        decl->getSymName(), inputs);
    if (plan.output == ConvLayout::Private)
      call->setAttr(kConvPrivateResultAttr, rewriter.getUnitAttr());
    if (!privateOperands.empty())
      call->setAttr(kConvPrivateOperandsAttr,
                    rewriter.getDenseI64ArrayAttr(privateOperands));
    // The runtime reads each residual element before it writes that output
    // element (oneDNN's `sum` post-op reads the destination), so Y may be
    // the residual itself when both have one layout: the memory plan then
    // writes Y over a residual that dies here instead of copying it
    // (MemoryPlan.h).
    if (epilogue.residual && residualLayout == plan.output)
      call->setAttr(kOutputMayAliasAttrName,
                    rewriter.getDenseI64ArrayAttr({residualOperand}));
    Value replacement = call.getResult(0);
    if (plan.replacesNhwcViews) {
      for (Operation *view : llvm::make_early_inc_range(result.getUsers()))
        rewriter.replaceOp(view, replacement);
    } else {
      // The readers' calls, made later, read through the NCHW view.
      if (outNhwc)
        replacement =
            PermuteDimsOp::create(rewriter, loc, resultType, replacement,
                                  rewriter.getDenseI64ArrayAttr({0, 3, 1, 2}));
      rewriter.replaceAllUsesWith(result, replacement);
    }
    // Views that only this call read (an NHWC tensor as NCHW, a bias
    // expanded for broadcasting) are dead after it; they would otherwise be
    // legalized into kernels.
    llvm::SetVector<Operation *> views;
    SmallVector<Operation *> readers(epilogue.ops);
    readers.push_back(op);
    for (Operation *read : readers)
      for (Value operand : read->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (isa<PermuteDimsOp, ExpandDimsOp>(def))
            views.insert(def);
    for (Operation *absorbed : llvm::reverse(epilogue.ops))
      rewriter.eraseOp(absorbed);
    rewriter.eraseOp(op);
    for (Operation *view : views)
      if (view->use_empty())
        rewriter.eraseOp(view);
    return success();
  }

  /// attention on a CPU BLAS: per (batch, head, block of query rows) the
  /// scores of the block by one GEMM, the softmax, the weighted values by a
  /// second GEMM, so no [b, hq, s, t] scores tensor exists. Taken when the
  /// operands are rank 4 of one dtype, the heads provably group and any
  /// mask is rank 4 of that dtype or i1; anything else stays with the
  /// legalizer's streaming program (and its diagnostics).
  LogicalResult dispatchAttention(RewriterBase &rewriter, AttentionOp op) {
    if (targetKind != ext::BuiltinTarget::CPU)
      return success();
    auto q = dyn_cast<RelaxTensorType>(op.getQuery().getType());
    auto k = dyn_cast<RelaxTensorType>(op.getKey().getType());
    auto v = dyn_cast<RelaxTensorType>(op.getValue().getType());
    auto resultType = dyn_cast<RelaxTensorType>(op.getResult().getType());
    auto rank4 = [](RelaxTensorType t) {
      return t && t.hasRank() && t.getRank() == 4;
    };
    if (!rank4(q) || !rank4(k) || !rank4(v) || !rank4(resultType) ||
        !resultType.getShape().isFullyKnown() ||
        k.getDtype() != q.getDtype() || v.getDtype() != q.getDtype() ||
        resultType.getDtype() != q.getDtype())
      return success();
    // Query head h reads kv head h / (hq / hkv): the grouping must be known,
    // as the legalizer requires too.
    const sym::Expr &hq = q.getDims()[2], &hkv = k.getDims()[2];
    auto cq = hq.getConstant(), ckv = hkv.getConstant();
    if (!((cq && ckv && *ckv > 0 && *cq % *ckv == 0) || hq == hkv))
      return success();
    ext::BuiltinSpec spec;
    spec.kind = ext::BuiltinKind::Attention;
    spec.target = targetKind;
    spec.dtype = q.getDtype();
    SmallVector<Value> inputs = {op.getQuery(), op.getKey(), op.getValue()};
    Value mask = op.getMask();
    if (mask) {
      auto m = dyn_cast<RelaxTensorType>(mask.getType());
      if (!m || !m.hasRank() || m.getRank() > 4)
        return success();
      if (m.getDtype().isInteger(1))
        spec.mask = ext::AttentionMask::Boolean;
      else if (m.getDtype() == q.getDtype())
        spec.mask = ext::AttentionMask::Additive;
      else
        return success();
    }
    if (!ext::whyUnsupported(spec).empty())
      return success();
    rewriter.setInsertionPoint(op);
    if (mask) {
      // A mask of lower rank broadcasts from the right (numpy): leading
      // unit dims make it the built-in's rank 4.
      auto m = cast<RelaxTensorType>(mask.getType());
      if (int64_t missing = 4 - m.getRank()) {
        SmallVector<sym::Expr> dims(missing, sym::Expr::constant(1));
        llvm::append_range(dims, m.getDims());
        SmallVector<int64_t> axes;
        for (int64_t i = 0; i < missing; ++i)
          axes.push_back(i);
        mask = ExpandDimsOp::create(
            rewriter, op.getLoc(),
            RelaxTensorType::get(SymShape(dims), m.getDtype()), mask, axes);
      }
      inputs.push_back(mask);
    }
    // (scale, causal); NaN asks the runtime for 1 / sqrt(d), which may be
    // symbolic here.
    double options[2] = {std::numeric_limits<double>::quiet_NaN(),
                         op.getCausal() ? 1.0 : 0.0};
    if (auto scale = op.getScaleAttr())
      options[0] = scale.getValueAsDouble();
    inputs.push_back(ConstantOp::create(
        rewriter, op.getLoc(),
        DenseElementsAttr::get(
            RankedTensorType::get({2}, rewriter.getF64Type()),
            ArrayRef<double>(options))));
    FailureOr<CallDPSPackedOp> call =
        createCall(rewriter, op, spec, inputs, resultType);
    if (failed(call))
      return failure();
    rewriter.replaceOp(op, call->getResults());
    return success();
  }

  LogicalResult dispatchMatmul(RewriterBase &rewriter, MatmulOp op) {
    auto resultType = dyn_cast<RelaxTensorType>(op.getResult().getType());
    std::optional<ext::BuiltinSpec> spec =
        matchGemm(targetKind, op.getLhs().getType(), op.getRhs().getType(),
                  resultType, /*transposeB=*/false);
    if (!spec || !takesGemm(op, cast<RelaxTensorType>(op.getLhs().getType()),
                            resultType, /*hasBias=*/false))
      return success();
    // The library reads k from the lhs: a run-time mismatch must be caught.
    // The checks read the matmul's own operands, so they go in first.
    emitShapeContractChecks(rewriter, op);
    Value rhs = op.getRhs();
    // `a @ permute_dims(b)` swapping the last two dims (attention's q k^T)
    // reads b as it is through the transposed-B variant: no copy kernel.
    auto permute = rhs.getDefiningOp<PermuteDimsOp>();
    if (permute && swapsLastTwoDims(permute)) {
      std::optional<ext::BuiltinSpec> nt =
          matchGemm(targetKind, op.getLhs().getType(),
                    permute.getInput().getType(), resultType,
                    /*transposeB=*/true);
      // The declaration binds the batch dims of both operands to the same
      // variables; the permuted input has them in the same places.
      if (nt) {
        spec = nt;
        rhs = permute.getInput();
      }
    }
    FailureOr<CallDPSPackedOp> fused = createEpilogueCall(
        rewriter, op, *spec, {op.getLhs(), rhs}, op.getResult(), Value());
    if (failed(fused))
      return failure();
    if (*fused) {
      if (permute && permute->use_empty())
        rewriter.eraseOp(permute);
      return success();
    }
    FailureOr<CallDPSPackedOp> call =
        createCall(rewriter, op, *spec, {op.getLhs(), rhs}, resultType);
    if (failed(call))
      return failure();
    rewriter.replaceOp(op, call->getResults());
    // A transpose read only by this matmul is dead now; it would otherwise
    // still be legalized into a copy kernel.
    if (permute && permute->use_empty())
      rewriter.eraseOp(permute);
    return success();
  }

  /// linear(x, w, bias) = x * w^T (+ bias): the transposed-B GEMM, then the
  /// bias as a broadcasting relax.add.
  LogicalResult dispatchLinear(RewriterBase &rewriter, LinearOp op) {
    auto x = dyn_cast<RelaxTensorType>(op.getX().getType());
    auto w = dyn_cast<RelaxTensorType>(op.getWeight().getType());
    auto resultType = dyn_cast<RelaxTensorType>(op.getResult().getType());
    if (!x || !w || !resultType || !x.hasRank() || !w.hasRank() ||
        x.getRank() < 2 || w.getRank() != 2)
      return success();
    // The product's type: x's leading dims, then w's `out`.
    SmallVector<sym::Expr> dims(x.getDims().drop_back());
    dims.push_back(w.getDims()[0]);
    auto productType = RelaxTensorType::get(SymShape(dims), x.getDtype());
    std::optional<ext::BuiltinSpec> spec =
        matchGemm(targetKind, x, w, productType, /*transposeB=*/true);
    Value bias = op.getBias();
    if (!spec || !takesGemm(op, x, productType, static_cast<bool>(bias)))
      return success();
    if (!bias) {
      if (productType != resultType)
        return success();
      FailureOr<CallDPSPackedOp> call = createCall(
          rewriter, op, *spec, {op.getX(), op.getWeight()}, productType);
      if (failed(call))
        return failure();
      rewriter.replaceOp(op, call->getResults());
      return success();
    }
    // A rank-1 bias over a constant weight: the packed GEMM adds it (and
    // any GELU after the linear).
    if (productType == resultType) {
      FailureOr<CallDPSPackedOp> fused =
          createEpilogueCall(rewriter, op, *spec, {op.getX(), op.getWeight()},
                             op.getResult(), bias);
      if (failed(fused))
        return failure();
      if (*fused)
        return success();
    }
    // The linear's own inference broadcast this product type against the
    // bias, so the add infers (the check below guards the equality).
    FailureOr<CallDPSPackedOp> call = createCall(
        rewriter, op, *spec, {op.getX(), op.getWeight()}, productType);
    if (failed(call))
      return failure();
    auto add = AddOp::create(rewriter, op.getLoc(), call->getResult(0), bias);
    if (add.getResult().getType() != resultType) {
      // Inference disagreed with the linear's own: keep the original op.
      rewriter.eraseOp(add);
      rewriter.eraseOp(*call);
      --numDispatched;
      return success();
    }
    rewriter.replaceOp(op, add.getResult());
    return success();
  }

  ext::BuiltinTarget targetKind = ext::BuiltinTarget::CPU;
};
} // namespace
