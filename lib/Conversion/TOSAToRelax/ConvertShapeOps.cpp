//===- ConvertShapeOps.cpp - data movement --------------------------------===//
//
// --convert-tosa-to-relax: the TOSA ops that move data, with shapes or
// values from constants (tosa.const_shape, pad values): reshape (its -1
// computed symbolically), transpose, concat, slice, reverse, tile, pad and
// gather.
//
//===----------------------------------------------------------------------===//

#include "OpConverter.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::tosa_to_relax;

namespace {
/// The target comes from a tosa.const_shape; its `-1` is the element count
/// divided by the other dims, a symbolic expression (`[n, 4] -> [1, -1, 4]`
/// is `[1, n, 4]`). relax.reshape checks the element counts.
struct ReshapePattern : TosaToRelaxPattern<tosa::ReshapeOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::ReshapeOp op, OpAdaptor adaptor,
                        OpConverter &c) const override;
};

LogicalResult ReshapePattern::convert(tosa::ReshapeOp op, OpAdaptor adaptor,
                                      OpConverter &c) const {
  FailureOr<Value> x = c.operand(adaptor.getInput1());
  FailureOr<SmallVector<int64_t>> shape = c.constShape(op.getShape());
  if (failed(x) || failed(shape))
    return failure();
  SmallVector<Expr> target;
  int inferred = -1;
  Expr known = Expr::constant(1);
  for (auto [i, d] : llvm::enumerate(*shape)) {
    if (d == -1) {
      if (inferred >= 0)
        // unreachable: the tosa.reshape verifier allows one -1 at most.
        return op.emitOpError("has more than one -1 in its shape");
      inferred = i;
      target.push_back(Expr());
      continue;
    }
    if (d < 0)
      // unreachable: the tosa.reshape verifier rejects dims below -1.
      return op.emitOpError("has an invalid target dim ") << d;
    target.push_back(Expr::constant(d));
    known = known * d;
  }
  if (inferred >= 0) {
    SmallVector<Expr> dims = OpConverter::dimsOf(*x);
    Expr total = Expr::constant(1);
    for (const Expr &d : dims) {
      if (!d)
        // unreachable: every relax value here has all its dims: the
        // arguments name theirs, and OpConverter::replace gives an unknown
        // result dim a fresh variable.
        return op.emitOpError("cannot infer its -1 dim: the input has an "
                              "unknown dim");
      total = total * d;
    }
    if (known.getConstant() == 0)
      // unreachable: TOSA-conformant tensors have no zero dims, and the
      // tosa.reshape verifier checks the element counts; kept so that a
      // laxer verifier cannot make the floorDiv below divide by zero.
      return op.emitOpError("cannot infer its -1 dim next to a zero dim");
    target[inferred] = sym::floorDiv(total, known);
  }
  return c.replace(c.reshape(*x, target));
}

/// Start and size from tosa.const_shape; a size of -1 runs to the end.
struct SlicePattern : TosaToRelaxPattern<tosa::SliceOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::SliceOp op, OpAdaptor adaptor,
                        OpConverter &c) const override;
};

LogicalResult SlicePattern::convert(tosa::SliceOp op, OpAdaptor adaptor,
                                    OpConverter &c) const {
  FailureOr<Value> x = c.operand(adaptor.getInput1());
  FailureOr<SmallVector<int64_t>> start = c.constShape(op.getStart());
  FailureOr<SmallVector<int64_t>> size = c.constShape(op.getSize());
  if (failed(x) || failed(start) || failed(size))
    return failure();
  SmallVector<Expr> dims = OpConverter::dimsOf(*x);
  if (start->size() != dims.size() || size->size() != dims.size())
    return op.emitOpError("has start/size of the wrong length");
  SmallVector<int64_t> axes;
  SmallVector<Expr> begin, end;
  for (size_t i = 0; i < dims.size(); ++i) {
    if ((*start)[i] < 0 || (*size)[i] < -1)
      return op.emitOpError("has a negative start or size in dim ") << i;
    axes.push_back(i);
    begin.push_back(Expr::constant((*start)[i]));
    if ((*size)[i] == -1) {
      if (!dims[i])
        // unreachable: every relax value here has all its dims: the
        // arguments name theirs, and OpConverter::replace gives an unknown
        // result dim a fresh variable.
        return op.emitOpError("slices to the end of an unknown dim ") << i;
      end.push_back(dims[i]);
    } else {
      end.push_back(Expr::constant((*start)[i] + (*size)[i]));
    }
  }
  return c.replace(c.build<StridedSliceOp>(
      *x, {c.named("axes", c.i64s(axes)), c.named("begin", c.shapeAttr(begin)),
           c.named("end", c.shapeAttr(end))}));
}

/// values [n, k, c], indices [n, w] -> [n, w, c] with
/// out[i, j] = values[i, indices[i, j]]: gather_nd over one batch dim with
/// one-element index tuples.
struct GatherPattern : TosaToRelaxPattern<tosa::GatherOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::GatherOp, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> v = c.operand(adaptor.getValues());
    FailureOr<Value> idx = c.operand(adaptor.getIndices());
    if (failed(v) || failed(idx))
      return failure();
    FailureOr<Value> idx3 =
        c.build<ExpandDimsOp>(*idx, {c.named("axes", c.i64s({2}))});
    if (failed(idx3))
      return failure();
    return c.replace(c.build<GatherNDOp>(
        ValueRange{*v, *idx3},
        {c.named("batch_dims", c.rewriter.getI64IntegerAttr(1))}));
  }
};

/// Padding [before0, after0, before1, ...] from tosa.const_shape; the pad
/// value must be a constant.
struct PadPattern : TosaToRelaxPattern<tosa::PadOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::PadOp op, OpAdaptor adaptor,
                        OpConverter &c) const override;
};

LogicalResult PadPattern::convert(tosa::PadOp op, OpAdaptor adaptor,
                                  OpConverter &c) const {
  FailureOr<Value> x = c.operand(adaptor.getInput1());
  FailureOr<SmallVector<int64_t>> padding = c.constShape(op.getPadding());
  if (failed(x) || failed(padding))
    return failure();
  DenseElementsAttr padConst;
  if (!matchPattern(op.getPadConst(), m_Constant(&padConst)) ||
      !padConst.isSplat())
    return op.emitOpError("unsupported: a pad value that is not a constant");
  double value = isa<FloatType>(padConst.getElementType())
                     ? padConst.getSplatValue<APFloat>().convertToDouble()
                     : double(padConst.getSplatValue<APInt>().getSExtValue());
  SmallVector<Expr> before, after;
  for (size_t i = 0; i + 1 < padding->size(); i += 2) {
    before.push_back(Expr::constant((*padding)[i]));
    after.push_back(Expr::constant((*padding)[i + 1]));
  }
  return c.replace(c.build<PadOp>(
      *x, {c.named("pad_before", c.shapeAttr(before)),
           c.named("pad_after", c.shapeAttr(after)),
           c.named("value", c.rewriter.getF64FloatAttr(value))}));
}

struct TransposePattern : TosaToRelaxPattern<tosa::TransposeOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::TransposeOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getInput1());
    if (failed(x))
      return failure();
    SmallVector<int64_t> axes(op.getPerms().begin(), op.getPerms().end());
    return c.replace(c.permute(*x, axes));
  }
};

/// The other dims must agree: where relax cannot prove it, each operand is
/// cast to the first one's dims (checked at run time).
struct ConcatPattern : TosaToRelaxPattern<tosa::ConcatOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::ConcatOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<SmallVector<Value>> in = c.operands(adaptor.getInput1());
    if (failed(in))
      return failure();
    SmallVector<Expr> first = OpConverter::dimsOf((*in)[0]);
    const sym::Context &symCtx = defaultSymContext();
    for (Value &v : MutableArrayRef<Value>(*in).drop_front()) {
      SmallVector<Expr> d = OpConverter::dimsOf(v);
      SmallVector<std::pair<int64_t, Expr>> casts;
      for (size_t i = 0; i < d.size() && i < first.size(); ++i)
        if (int64_t(i) != int64_t(op.getAxis()) && first[i] && d[i] &&
            !symCtx.provablyEqual(first[i], d[i]))
          casts.push_back({i, first[i]});
      v = c.castDims(v, casts);
    }
    return c.replace(c.build<ConcatOp>(
        *in, {c.named("axis", c.rewriter.getI64IntegerAttr(op.getAxis()))}));
  }
};

/// A stride -1 slice from d - 1 down past 0 (the end -d - 1 is clamped to
/// -1, "before the first element").
struct ReversePattern : TosaToRelaxPattern<tosa::ReverseOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::ReverseOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getInput1());
    if (failed(x))
      return failure();
    int64_t axis = op.getAxis();
    Expr d = OpConverter::dimsOf(*x)[axis];
    if (!d)
      // unreachable: every relax value here has all its dims: the
      // arguments name theirs, and OpConverter::replace gives an unknown
      // result dim a fresh variable.
      return op.emitOpError("reverses an unknown dim ") << axis;
    return c.replace(c.build<StridedSliceOp>(
        *x, {c.named("axes", c.i64s({axis})),
             c.named("begin", c.shapeAttr({d - 1})),
             c.named("end", c.shapeAttr({-d - 1})),
             c.named("strides", c.i64s({-1}))}));
  }
};

struct TilePattern : TosaToRelaxPattern<tosa::TileOp> {
  using TosaToRelaxPattern::TosaToRelaxPattern;

  LogicalResult convert(tosa::TileOp op, OpAdaptor adaptor,
                        OpConverter &c) const override {
    FailureOr<Value> x = c.operand(adaptor.getInput1());
    FailureOr<SmallVector<int64_t>> m = c.constShape(op.getMultiples());
    if (failed(x) || failed(m))
      return failure();
    return c.replace(c.build<TileOp>(*x, {c.named("repeats", c.i64s(*m))}));
  }
};
} // namespace

void mlir::relax::populateTosaToRelaxShapePatterns(
    TosaToRelaxTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReshapePattern, TransposePattern, ConcatPattern, SlicePattern,
               ReversePattern, TilePattern, PadPattern, GatherPattern>(
      converter, patterns.getContext());
}
