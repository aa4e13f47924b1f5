//===- ElementwiseOps.cpp - shape inference of the elementwise ops --------===//
//
// The unary and binary ops whose inference is generated from the base
// classes in RelaxElementwiseOps.td live there; this file holds the ops with
// attributes or three operands, and the folders.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;

//===----------------------------------------------------------------------===//
// clip, astype, where
//===----------------------------------------------------------------------===//

LogicalResult ClipOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  if (failed(checkDtypeClass(loc, getOperationName(), input.getDtype(),
                             DtypeClass::Numeric)))
    return failure();
  results.push_back(input);
  return success();
}

LogicalResult ClipOp::verify() {
  double lo = getMin().convertToDouble(), hi = getMax().convertToDouble();
  if (!(lo <= hi))
    return emitOpError("min ") << formatDouble(lo) << " is greater than max "
                               << formatDouble(hi);
  Type dtype = getInput().getType().getDtype();
  if (isa<IntegerType>(dtype) &&
      (std::trunc(lo) != lo || std::trunc(hi) != hi))
    return emitOpError("bounds of an integer clip must be integral, got [")
           << formatDouble(lo) << ", " << formatDouble(hi) << "]";
  return success();
}

LogicalResult AstypeOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  Type dtype = adaptor.getDtype();
  if (failed(checkValidDtype(loc, getOperationName(), dtype, "target dtype")))
    return failure();
  results.push_back(
      cast<RelaxTensorType>(adaptor.getInput().getType()).withDtype(dtype));
  return success();
}

// A conversion to the input's own dtype is the identity.
OpFoldResult AstypeOp::fold(FoldAdaptor) {
  return foldSameTypeToInput(getInput(), getType());
}

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  auto cond = cast<RelaxTensorType>(adaptor.getCond().getType());
  auto x = cast<RelaxTensorType>(adaptor.getX().getType());
  auto y = cast<RelaxTensorType>(adaptor.getY().getType());
  if (!cond.getDtype().isInteger(1))
    return inferFailure(loc, getOperationName(),
                        "condition must be i1, got '" +
                            typeText(cond.getDtype()) + "'");
  if (x.getDtype() != y.getDtype())
    return inferFailure(loc, getOperationName(),
                        "value dtypes differ (use relax.astype)");
  FailureOr<SymShape> shape =
      broadcastShapes(loc, getOperationName(), cond.getShape(), x.getShape());
  if (failed(shape))
    return failure();
  shape = broadcastShapes(loc, getOperationName(), *shape, y.getShape());
  if (failed(shape))
    return failure();
  results.push_back(RelaxTensorType::get(*shape, x.getDtype()));
  return success();
}

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

// floor/ceil/round leave integers unchanged.
static OpFoldResult foldIntegerRounding(Value input) {
  if (isa<IntegerType>(cast<RelaxTensorType>(input.getType()).getDtype()))
    return input;
  return {};
}

OpFoldResult FloorOp::fold(FoldAdaptor) {
  return foldIntegerRounding(getInput());
}
OpFoldResult CeilOp::fold(FoldAdaptor) {
  return foldIntegerRounding(getInput());
}
OpFoldResult RoundOp::fold(FoldAdaptor) {
  return foldIntegerRounding(getInput());
}

// True when `value` is known to be `k` everywhere: a splat constant (its
// folded attribute `attr`) or a creation op filling the value `k`.
static bool isSplatOf(Value value, Attribute attr, int64_t k) {
  if (auto elements = dyn_cast_or_null<ElementsAttr>(attr)) {
    if (!elements.isSplat())
      return false;
    Attribute splat = elements.getSplatValue<Attribute>();
    if (auto f = dyn_cast<FloatAttr>(splat))
      return f.getValueAsDouble() == static_cast<double>(k);
    if (auto i = dyn_cast<IntegerAttr>(splat))
      return i.getValue().getBitWidth() > 1 && i.getValue().getSExtValue() == k;
    return false;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<ZerosOp, ZerosLikeOp>(def))
    return k == 0;
  if (isa<OnesOp, OnesLikeOp>(def))
    return k == 1;
  if (auto full = dyn_cast<FullOp>(def))
    return full.getValue().convertToDouble() == static_cast<double>(k);
  if (auto full = dyn_cast<FullLikeOp>(def))
    return full.getValue().convertToDouble() == static_cast<double>(k);
  return false;
}

// `x op identity` (either operand order) is `x` when the result type is
// exactly x's type, i.e. broadcasting against the identity operand neither
// grows nor refines the shape. Floats compare by value, so x + (+0.0) folds
// too although it maps -0.0 to +0.0: the sign of zero is not preserved (as
// in TVM's simplifier).
static OpFoldResult foldIdentityOperand(Operation *op, Attribute lhsAttr,
                                        Attribute rhsAttr, int64_t identity) {
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  Type resultType = op->getResult(0).getType();
  if (lhs.getType() == resultType && isSplatOf(rhs, rhsAttr, identity))
    return lhs;
  if (rhs.getType() == resultType && isSplatOf(lhs, lhsAttr, identity))
    return rhs;
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldIdentityOperand(*this, adaptor.getLhs(), adaptor.getRhs(), 0);
}

OpFoldResult MultiplyOp::fold(FoldAdaptor adaptor) {
  return foldIdentityOperand(*this, adaptor.getLhs(), adaptor.getRhs(), 1);
}
