//===- ConvertShapeOps.cpp - reshape, slice, cast, gather, pad ------------===//
//
// --convert-tosa-to-relax: the TOSA ops whose shapes or values come from
// constants (tosa.const_shape, pad values): reshape (its -1 computed
// symbolically), slice, cast, gather and pad.
//
//===----------------------------------------------------------------------===//

#include "FunctionConverter.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::tosa_to_relax;

/// The target comes from a tosa.const_shape; its `-1` is the element count
/// divided by the other dims, a symbolic expression (`[n, 4] -> [1, -1, 4]`
/// is `[1, n, 4]`). relax.reshape checks the element counts.
LogicalResult FunctionConverter::convertReshape(tosa::ReshapeOp op) {
  FailureOr<Value> x = get(op.getInput1(), op);
  FailureOr<SmallVector<int64_t>> shape = getConstShape(op.getShape(), op);
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
    SmallVector<Expr> dims = dimsOf(*x);
    Expr total = Expr::constant(1);
    for (const Expr &d : dims) {
      if (!d)
        // unreachable: every relax value here has all its dims: the
        // arguments name theirs, and bind() gives an unknown result dim a
        // fresh variable.
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
  return bind(op, reshape(op.getLoc(), *x, target));
}

/// Start and size from tosa.const_shape; a size of -1 runs to the end.
LogicalResult FunctionConverter::convertSlice(tosa::SliceOp op) {
  FailureOr<Value> x = get(op.getInput1(), op);
  FailureOr<SmallVector<int64_t>> start = getConstShape(op.getStart(), op);
  FailureOr<SmallVector<int64_t>> size = getConstShape(op.getSize(), op);
  if (failed(x) || failed(start) || failed(size))
    return failure();
  SmallVector<Expr> dims = dimsOf(*x);
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
        // arguments name theirs, and bind() gives an unknown result dim a
        // fresh variable.
        return op.emitOpError("slices to the end of an unknown dim ") << i;
      end.push_back(dims[i]);
    } else {
      end.push_back(Expr::constant((*start)[i] + (*size)[i]));
    }
  }
  return bind(op, build<StridedSliceOp>(
                      op.getLoc(), *x,
                      {named("axes", b.getDenseI64ArrayAttr(axes)),
                       named("begin", shapeAttr(begin)),
                       named("end", shapeAttr(end))}));
}

/// TOSA rounds float -> integer casts to nearest, ties to even; relax's
/// astype truncates, so a relax.round comes first.
LogicalResult FunctionConverter::convertCast(tosa::CastOp op) {
  FailureOr<Value> x = get(op.getInput(), op);
  if (failed(x))
    return failure();
  Type from = getElementTypeOrSelf(op.getInput().getType());
  Type to = getElementTypeOrSelf(op.getOutput().getType());
  Value in = *x;
  if (isa<FloatType>(from) && isa<IntegerType>(to) &&
      to.getIntOrFloatBitWidth() > 1) {
    FailureOr<Value> r = build<RoundOp>(op.getLoc(), in);
    if (failed(r))
      return failure();
    in = *r;
  }
  return bind(op, build<AstypeOp>(op.getLoc(), in,
                                  {named("dtype", TypeAttr::get(to))}));
}

/// values [n, k, c], indices [n, w] -> [n, w, c] with
/// out[i, j] = values[i, indices[i, j]]: gather_nd over one batch dim with
/// one-element index tuples.
LogicalResult FunctionConverter::convertGather(tosa::GatherOp op) {
  FailureOr<Value> v = get(op.getValues(), op);
  FailureOr<Value> idx = get(op.getIndices(), op);
  if (failed(v) || failed(idx))
    return failure();
  FailureOr<Value> idx3 = build<ExpandDimsOp>(
      op.getLoc(), *idx, {named("axes", b.getDenseI64ArrayAttr({2}))});
  if (failed(idx3))
    return failure();
  return bind(op, build<GatherNDOp>(op.getLoc(), ValueRange{*v, *idx3},
                                    {named("batch_dims",
                                           b.getI64IntegerAttr(1))}));
}

/// Padding [before0, after0, before1, ...] from tosa.const_shape; the pad
/// value must be a constant.
LogicalResult FunctionConverter::convertPad(tosa::PadOp op) {
  FailureOr<Value> x = get(op.getInput1(), op);
  FailureOr<SmallVector<int64_t>> padding = getConstShape(op.getPadding(), op);
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
  return bind(op, build<PadOp>(op.getLoc(), *x,
                               {named("pad_before", shapeAttr(before)),
                                named("pad_after", shapeAttr(after)),
                                named("value", b.getF64FloatAttr(value))}));
}
