//===- ConvertElementwiseOps.cpp - elementwise ops and reductions ---------===//
//
// --convert-tosa-to-relax: the elementwise arithmetic, comparison and logic
// ops, clamp, cast, select and identity, and the reductions (TOSA keeps the
// reduced dim, as 1) and argmax.
//
//===----------------------------------------------------------------------===//

#include "OpConverter.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::tosa_to_relax;

namespace {
/// A unary TOSA op that is the relax op of the same meaning.
template <typename TosaOp, typename RelaxOp>
struct UnaryPattern : TosaToRelaxPattern<TosaOp> {
  using TosaToRelaxPattern<TosaOp>::TosaToRelaxPattern;
  using OpAdaptor = typename TosaToRelaxPattern<TosaOp>::OpAdaptor;

  LogicalResult convert(TosaOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getOperands()[0]);
    if (failed(x))
      return failure();
    return c.replace(c.build<RelaxOp>(*x));
  }
};

/// A binary TOSA op. TOSA broadcasts size-1 dims of operands of equal rank,
/// a special case of relax's numpy broadcasting; dims relax cannot match
/// are aligned first (OpConverter::alignBroadcast). Operands after the two
/// (mul's shift) are checked by the pattern that uses this one.
template <typename TosaOp, typename RelaxOp>
struct BinaryPattern : TosaToRelaxPattern<TosaOp> {
  using TosaToRelaxPattern<TosaOp>::TosaToRelaxPattern;
  using OpAdaptor = typename TosaToRelaxPattern<TosaOp>::OpAdaptor;

  static LogicalResult convertBinary(ValueRange operands, OpConverter &c) {
    FailureOr<SmallVector<Value>> in = c.operands(operands);
    if (failed(in) || failed(c.alignBroadcast(*in)))
      return failure();
    return c.replace(c.build<RelaxOp>(*in));
  }

  LogicalResult convert(TosaOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    return convertBinary(adaptor.getOperands().take_front(2), c);
  }
};

/// tosa.mul with a shift of 0 (fixed-point TOSA shifts the product).
struct MulPattern : BinaryPattern<tosa::MulOp, MultiplyOp> {
  using BinaryPattern::BinaryPattern;

  LogicalResult convert(tosa::MulOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    if (failed(c.requireZero(op.getShift(), "shift")))
      return failure();
    return convertBinary({adaptor.getInput1(), adaptor.getInput2()}, c);
  }
};

/// tosa.select is relax.where, its three operands aligned as a binary
/// op's.
struct SelectPattern : TosaToRelaxPattern<tosa::SelectOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::SelectOp, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<SmallVector<Value>> in = c.operands(adaptor.getOperands());
    if (failed(in) || failed(c.alignBroadcast(*in)))
      return failure();
    return c.replace(c.build<WhereOp>(*in));
  }
};

/// tosa.negate with zero points of 0.
struct NegatePattern : UnaryPattern<tosa::NegateOp, NegativeOp> {
  using UnaryPattern::UnaryPattern;

  LogicalResult convert(tosa::NegateOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    if (failed(c.requireZero(op.getInput1Zp(), "input zero point")) ||
        failed(c.requireZero(op.getOutputZp(), "output zero point")))
      return failure();
    return UnaryPattern::convert(op, adaptor, c);
  }
};

/// 1 / x of floats (relax has no reciprocal op).
struct ReciprocalPattern : TosaToRelaxPattern<tosa::ReciprocalOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::ReciprocalOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getInput1());
    if (failed(x))
      return failure();
    Type dtype = cast<RelaxTensorType>(x->getType()).getDtype();
    if (!isa<FloatType>(dtype))
      return op.emitOpError("unsupported: reciprocal of integers");
    Value one = c.scalarConstant(dtype, 1.0);
    return c.replace(c.build<DivideOp>(ValueRange{one, *x}));
  }
};

/// A clamp bound as a double (TOSA holds it as an integer or float
/// attribute of the element type).
static double boundValue(Attribute a) {
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValueAsDouble();
  return double(cast<IntegerAttr>(a).getValue().getSExtValue());
}

struct ClampPattern : TosaToRelaxPattern<tosa::ClampOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::ClampOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getInput());
    if (failed(x))
      return failure();
    Builder &b = c.rewriter;
    return c.replace(c.build<ClipOp>(
        *x, {c.named("min", b.getF64FloatAttr(boundValue(op.getMinVal()))),
             c.named("max", b.getF64FloatAttr(boundValue(op.getMaxVal())))}));
  }
};

/// TOSA rounds float -> integer casts to nearest, ties to even; relax's
/// astype truncates, so a relax.round comes first.
struct CastPattern : TosaToRelaxPattern<tosa::CastOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::CastOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getInput());
    if (failed(x))
      return failure();
    Type from = getElementTypeOrSelf(op.getInput().getType());
    Type to = getElementTypeOrSelf(op.getOutput().getType());
    Value in = *x;
    if (isa<FloatType>(from) && isa<IntegerType>(to) &&
        to.getIntOrFloatBitWidth() > 1) {
      FailureOr<Value> r = c.build<RoundOp>(in);
      if (failed(r))
        return failure();
      in = *r;
    }
    return c.replace(
        c.build<AstypeOp>(in, {c.named("dtype", TypeAttr::get(to))}));
  }
};

/// tosa.identity is its operand.
struct IdentityPattern : TosaToRelaxPattern<tosa::IdentityOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::IdentityOp, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getInput1());
    if (failed(x))
      return failure();
    c.rewriter.replaceOp(c.op, *x);
    return success();
  }
};

/// A reduction over TOSA's one axis, which stays (as 1).
template <typename TosaOp, typename RelaxOp>
struct ReducePattern : TosaToRelaxPattern<TosaOp> {
  using TosaToRelaxPattern<TosaOp>::TosaToRelaxPattern;
  using OpAdaptor = typename TosaToRelaxPattern<TosaOp>::OpAdaptor;

  LogicalResult convert(TosaOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getInput());
    if (failed(x))
      return failure();
    return c.replace(c.build<RelaxOp>(
        *x, {c.named("axes", c.i64s({int64_t(op.getAxis())})),
             c.named("keepdims", c.rewriter.getBoolAttr(true))}));
  }
};

/// argmax drops the axis and gives i64 in relax; cast to TOSA's dtype.
struct ArgMaxPattern : TosaToRelaxPattern<tosa::ArgMaxOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::ArgMaxOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getInput());
    if (failed(x))
      return failure();
    FailureOr<Value> r = c.build<ArgmaxOp>(
        *x, {c.named("axis", c.rewriter.getI64IntegerAttr(op.getAxis())),
             c.named("keepdims", c.rewriter.getBoolAttr(false))});
    if (failed(r))
      return failure();
    Type to = getElementTypeOrSelf(op.getOutput().getType());
    if (cast<RelaxTensorType>(r->getType()).getDtype() != to)
      r = c.build<AstypeOp>(*r, {c.named("dtype", TypeAttr::get(to))});
    return c.replace(r);
  }
};
} // namespace

void mlir::relax::populateTosaToRelaxElementwisePatterns(
    TosaToRelaxTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<
      // Binary.
      BinaryPattern<tosa::AddOp, AddOp>,
      BinaryPattern<tosa::SubOp, SubtractOp>, MulPattern,
      BinaryPattern<tosa::PowOp, PowerOp>,
      BinaryPattern<tosa::IntDivOp, DivideOp>,
      BinaryPattern<tosa::MaximumOp, MaximumOp>,
      BinaryPattern<tosa::MinimumOp, MinimumOp>,
      BinaryPattern<tosa::EqualOp, EqualOp>,
      BinaryPattern<tosa::GreaterOp, GreaterOp>,
      BinaryPattern<tosa::GreaterEqualOp, GreaterEqualOp>,
      BinaryPattern<tosa::LogicalAndOp, LogicalAndOp>,
      BinaryPattern<tosa::LogicalOrOp, LogicalOrOp>, SelectPattern,
      // Unary.
      UnaryPattern<tosa::ExpOp, ExpOp>, UnaryPattern<tosa::LogOp, LogOp>,
      UnaryPattern<tosa::TanhOp, TanhOp>,
      UnaryPattern<tosa::SigmoidOp, SigmoidOp>,
      UnaryPattern<tosa::ErfOp, ErfOp>, UnaryPattern<tosa::SinOp, SinOp>,
      UnaryPattern<tosa::CosOp, CosOp>, UnaryPattern<tosa::FloorOp, FloorOp>,
      UnaryPattern<tosa::CeilOp, CeilOp>, UnaryPattern<tosa::AbsOp, AbsOp>,
      UnaryPattern<tosa::RsqrtOp, RsqrtOp>,
      UnaryPattern<tosa::LogicalNotOp, LogicalNotOp>, NegatePattern,
      ReciprocalPattern, ClampPattern, CastPattern, IdentityPattern,
      // Reductions.
      ReducePattern<tosa::ReduceSumOp, SumOp>,
      ReducePattern<tosa::ReduceMaxOp, MaxOp>,
      ReducePattern<tosa::ReduceMinOp, MinOp>,
      ReducePattern<tosa::ReduceProductOp, ProdOp>, ArgMaxPattern>(
      converter, patterns.getContext());
}
