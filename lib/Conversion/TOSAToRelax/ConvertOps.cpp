//===- ConvertOps.cpp - the dispatch over TOSA ops ------------------------===//
//
// --convert-tosa-to-relax: one TOSA op to relax ops, by op (the
// elementwise, comparison, reduction and data movement ops here; the
// convolutions and pools in ConvertNNOps.cpp; reshape, slice, cast,
// gather and pad in ConvertShapeOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "FunctionConverter.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::tosa_to_relax;

//===----------------------------------------------------------------------===//
// Op families
//===----------------------------------------------------------------------===//

template <typename RelaxOp>
LogicalResult FunctionConverter::unary(Operation *op) {
  FailureOr<Value> x = get(op->getOperand(0), op);
  if (failed(x))
    return failure();
  return bind(op, build<RelaxOp>(op->getLoc(), *x));
}

/// TOSA broadcasts size-1 dims of operands of equal rank, a special case of
/// relax's numpy broadcasting.
template <typename RelaxOp>
LogicalResult FunctionConverter::binary(Operation *op) {
  FailureOr<SmallVector<Value>> in =
      getAll(op->getOperands().take_front(2), op);
  if (failed(in) || failed(alignBroadcast(op->getLoc(), *in)))
    return failure();
  return bind(op, build<RelaxOp>(op->getLoc(), *in));
}

/// TOSA's reductions keep the reduced dim (size 1).
template <typename RelaxOp>
LogicalResult FunctionConverter::reduce(Operation *op, uint32_t axis) {
  FailureOr<Value> x = get(op->getOperand(0), op);
  if (failed(x))
    return failure();
  return bind(op, build<RelaxOp>(
                      op->getLoc(), *x,
                      {named("axes", b.getDenseI64ArrayAttr({int64_t(axis)})),
                       named("keepdims", b.getBoolAttr(true))}));
}

/// A clamp bound as a double (TOSA holds it as an integer or float
/// attribute of the element type).
static double boundValue(Attribute a) {
  if (auto f = dyn_cast<FloatAttr>(a))
    return f.getValueAsDouble();
  return double(cast<IntegerAttr>(a).getValue().getSExtValue());
}

LogicalResult FunctionConverter::convertOp(Operation *op) {
  Location loc = op->getLoc();
  return TypeSwitch<Operation *, LogicalResult>(op)
      // Constants and shapes.
      // Constants are built at their first use (get), shapes read by the
      // ops that take them.
      .Case<tosa::ConstOp, tosa::ConstShapeOp>(
          [&](Operation *) { return success(); })
      // Other shape ops (tosa.dim, add_shape, ...) compute from run-time
      // dims; getConstShape reports their users.
      .Case<tosa::DimOp, tosa::AddShapeOp, tosa::SubShapeOp, tosa::MulShapeOp,
            tosa::DivCeilShapeOp, tosa::DivFloorShapeOp, tosa::ModShapeOp,
            tosa::MaxShapeOp, tosa::MinShapeOp, tosa::ConcatShapeOp,
            tosa::SliceShapeOp, tosa::Exp2ShapeOp, tosa::Log2CeilShapeOp,
            tosa::Log2FloorShapeOp>([&](Operation *) { return success(); })
      .Case([&](tosa::IdentityOp) {
        FailureOr<Value> x = get(op->getOperand(0), op);
        if (failed(x))
          return failure();
        values[op->getResult(0)] = *x;
        return success();
      })
      // Elementwise binary.
      .Case([&](tosa::AddOp) { return binary<AddOp>(op); })
      .Case([&](tosa::SubOp) { return binary<SubtractOp>(op); })
      .Case([&](tosa::MulOp m) {
        if (failed(requireZero(m.getShift(), op, "shift")))
          return failure();
        return binary<MultiplyOp>(op);
      })
      .Case([&](tosa::PowOp) { return binary<PowerOp>(op); })
      .Case([&](tosa::IntDivOp) { return binary<DivideOp>(op); })
      .Case([&](tosa::MaximumOp) { return binary<MaximumOp>(op); })
      .Case([&](tosa::MinimumOp) { return binary<MinimumOp>(op); })
      .Case([&](tosa::EqualOp) { return binary<EqualOp>(op); })
      .Case([&](tosa::GreaterOp) { return binary<GreaterOp>(op); })
      .Case([&](tosa::GreaterEqualOp) { return binary<GreaterEqualOp>(op); })
      .Case([&](tosa::LogicalAndOp) { return binary<LogicalAndOp>(op); })
      .Case([&](tosa::LogicalOrOp) { return binary<LogicalOrOp>(op); })
      .Case([&](tosa::SelectOp) {
        FailureOr<SmallVector<Value>> in = getAll(op->getOperands(), op);
        if (failed(in) || failed(alignBroadcast(loc, *in)))
          return failure();
        return bind(op, build<WhereOp>(loc, *in));
      })
      // Elementwise unary.
      .Case([&](tosa::ExpOp) { return unary<ExpOp>(op); })
      .Case([&](tosa::LogOp) { return unary<LogOp>(op); })
      .Case([&](tosa::TanhOp) { return unary<TanhOp>(op); })
      .Case([&](tosa::SigmoidOp) { return unary<SigmoidOp>(op); })
      .Case([&](tosa::ErfOp) { return unary<ErfOp>(op); })
      .Case([&](tosa::SinOp) { return unary<SinOp>(op); })
      .Case([&](tosa::CosOp) { return unary<CosOp>(op); })
      .Case([&](tosa::FloorOp) { return unary<FloorOp>(op); })
      .Case([&](tosa::CeilOp) { return unary<CeilOp>(op); })
      .Case([&](tosa::AbsOp) { return unary<AbsOp>(op); })
      .Case([&](tosa::RsqrtOp) { return unary<RsqrtOp>(op); })
      .Case([&](tosa::LogicalNotOp) { return unary<LogicalNotOp>(op); })
      .Case([&](tosa::NegateOp n) {
        if (failed(requireZero(n.getInput1Zp(), op, "input zero point")) ||
            failed(requireZero(n.getOutputZp(), op, "output zero point")))
          return failure();
        return unary<NegativeOp>(op);
      })
      .Case([&](tosa::ReciprocalOp r) {
        FailureOr<Value> x = get(r.getInput1(), op);
        if (failed(x))
          return failure();
        Type dtype = cast<RelaxTensorType>(x->getType()).getDtype();
        if (!isa<FloatType>(dtype))
          return op->emitOpError("unsupported: reciprocal of integers"),
                 failure();
        Value one = scalarConstant(loc, dtype, 1.0);
        return bind(op, build<DivideOp>(loc, ValueRange{one, *x}));
      })
      .Case([&](tosa::ClampOp c) {
        FailureOr<Value> x = get(c.getInput(), op);
        if (failed(x))
          return failure();
        return bind(
            op, build<ClipOp>(loc, *x,
                              {named("min", b.getF64FloatAttr(
                                                boundValue(c.getMinVal()))),
                               named("max", b.getF64FloatAttr(boundValue(
                                                c.getMaxVal())))}));
      })
      .Case([&](tosa::CastOp c) { return convertCast(c); })
      // Reductions (the reduced dim stays, as 1).
      .Case([&](tosa::ReduceSumOp r) { return reduce<SumOp>(op, r.getAxis()); })
      .Case([&](tosa::ReduceMaxOp r) { return reduce<MaxOp>(op, r.getAxis()); })
      .Case([&](tosa::ReduceMinOp r) { return reduce<MinOp>(op, r.getAxis()); })
      .Case([&](tosa::ReduceProductOp r) {
        return reduce<ProdOp>(op, r.getAxis());
      })
      .Case([&](tosa::ArgMaxOp a) {
        FailureOr<Value> x = get(a.getInput(), op);
        if (failed(x))
          return failure();
        FailureOr<Value> r = build<ArgmaxOp>(
            loc, *x,
            {named("axis", b.getI64IntegerAttr(a.getAxis())),
             named("keepdims", b.getBoolAttr(false))});
        if (failed(r))
          return failure();
        Type to = getElementTypeOrSelf(a.getOutput().getType());
        if (cast<RelaxTensorType>(r->getType()).getDtype() != to)
          r = build<AstypeOp>(loc, *r, {named("dtype", TypeAttr::get(to))});
        return bind(op, r);
      })
      // Contractions, convolutions, pools.
      .Case([&](tosa::MatMulOp m) {
        if (failed(requireZero(m.getAZp(), op, "zero point")) ||
            failed(requireZero(m.getBZp(), op, "zero point")))
          return failure();
        FailureOr<Value> x = get(m.getA(), op), y = get(m.getB(), op);
        if (failed(x) || failed(y))
          return failure();
        // TOSA's batch dims are equal (no broadcasting); relax would give
        // `?` for two variables, so b takes a's (checked at run time).
        Expr na = dimsOf(*x)[0], nb = dimsOf(*y)[0];
        if (na && nb && nb != Expr::constant(1) &&
            !defaultSymContext().provablyEqual(na, nb))
          y = castDims(loc, *y, {{0, na}});
        SmallVector<NamedAttribute> attrs;
        Type out = getElementTypeOrSelf(m.getOutput().getType());
        if (out != getElementTypeOrSelf(m.getA().getType()))
          attrs.push_back(named("out_dtype", TypeAttr::get(out)));
        return bind(op, build<MatmulOp>(loc, ValueRange{*x, *y}, attrs));
      })
      .Case([&](tosa::Conv2DOp c) {
        if (failed(requireZero(c.getInputZp(), op, "zero point")) ||
            failed(requireZero(c.getWeightZp(), op, "zero point")))
          return failure();
        return convertConv2D(op, c.getInput(), c.getWeight(), c.getBias(),
                             c.getPad(), c.getStride(), c.getDilation(),
                             /*depthwise=*/false);
      })
      .Case([&](tosa::DepthwiseConv2DOp c) {
        if (failed(requireZero(c.getInputZp(), op, "zero point")) ||
            failed(requireZero(c.getWeightZp(), op, "zero point")))
          return failure();
        return convertConv2D(op, c.getInput(), c.getWeight(), c.getBias(),
                             c.getPad(), c.getStride(), c.getDilation(),
                             /*depthwise=*/true);
      })
      .Case([&](tosa::TransposeConv2DOp c) {
        return convertTransposeConv2D(c);
      })
      .Case([&](tosa::AvgPool2dOp p) {
        if (failed(requireZero(p.getInputZp(), op, "zero point")) ||
            failed(requireZero(p.getOutputZp(), op, "zero point")))
          return failure();
        return convertPool<AvgPool2DOp>(op, p.getInput(), p.getKernel(),
                                        p.getStride(), p.getPad());
      })
      .Case([&](tosa::MaxPool2dOp p) {
        return convertPool<MaxPool2DOp>(op, p.getInput(), p.getKernel(),
                                        p.getStride(), p.getPad());
      })
      // Data movement.
      .Case([&](tosa::ReshapeOp r) { return convertReshape(r); })
      .Case([&](tosa::TransposeOp t) {
        FailureOr<Value> x = get(t.getInput1(), op);
        if (failed(x))
          return failure();
        SmallVector<int64_t> axes(t.getPerms().begin(), t.getPerms().end());
        return bind(op, permute(loc, *x, axes));
      })
      .Case([&](tosa::ConcatOp c) {
        FailureOr<SmallVector<Value>> in = getAll(c.getInput1(), op);
        if (failed(in))
          return failure();
        // The other dims must agree: where relax cannot prove it, each
        // operand is cast to the first one's dims (checked at run time).
        SmallVector<Expr> first = dimsOf((*in)[0]);
        const sym::Context &symCtx = defaultSymContext();
        for (Value &v : MutableArrayRef<Value>(*in).drop_front()) {
          SmallVector<Expr> d = dimsOf(v);
          SmallVector<std::pair<int64_t, Expr>> casts;
          for (size_t i = 0; i < d.size() && i < first.size(); ++i)
            if (int64_t(i) != int64_t(c.getAxis()) && first[i] && d[i] &&
                !symCtx.provablyEqual(first[i], d[i]))
              casts.push_back({i, first[i]});
          FailureOr<Value> r = castDims(loc, v, casts);
          if (failed(r))
            return failure();
          v = *r;
        }
        return bind(op, build<ConcatOp>(
                            loc, *in,
                            {named("axis", b.getI64IntegerAttr(c.getAxis()))}));
      })
      .Case([&](tosa::SliceOp s) { return convertSlice(s); })
      .Case([&](tosa::ReverseOp r) {
        // A stride -1 slice from d - 1 down past 0 (the end -d - 1 is
        // clamped to -1, "before the first element").
        FailureOr<Value> x = get(r.getInput1(), op);
        if (failed(x))
          return failure();
        int64_t axis = r.getAxis();
        Expr d = dimsOf(*x)[axis];
        if (!d)
          // unreachable: every relax value here has all its dims: the
          // arguments name theirs, and bind() gives an unknown result dim a
          // fresh variable.
          return op->emitOpError("reverses an unknown dim ") << axis,
                 failure();
        return bind(op, build<StridedSliceOp>(
                            loc, *x,
                            {named("axes", b.getDenseI64ArrayAttr({axis})),
                             named("begin", shapeAttr({d - 1})),
                             named("end", shapeAttr({-d - 1})),
                             named("strides", b.getDenseI64ArrayAttr({-1}))}));
      })
      .Case([&](tosa::TileOp t) {
        FailureOr<Value> x = get(t.getInput1(), op);
        FailureOr<SmallVector<int64_t>> m =
            getConstShape(t.getMultiples(), op);
        if (failed(x) || failed(m))
          return failure();
        return bind(op, build<TileOp>(loc, *x,
                                      {named("repeats",
                                             b.getDenseI64ArrayAttr(*m))}));
      })
      .Case([&](tosa::PadOp p) { return convertPad(p); })
      .Case([&](tosa::GatherOp g) { return convertGather(g); })
      .Default([&](Operation *) {
        return op->emitOpError("has no conversion to relax "
                               "(--convert-tosa-to-relax)");
      });
}
