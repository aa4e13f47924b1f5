//===- CreationOps.cpp - shape inference of the creation ops --------------===//
//
// full/zeros/ones take their result shape from a #relax.shape attribute,
// the *_like ops from their operand, arange computes a symbolic length.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;

// A shape to allocate must be fully known: there is no operand to take an
// unknown dim from at run time. A dim that is provably negative can never be
// a size.
static LogicalResult checkCreationShape(std::optional<Location> loc,
                                        StringRef opName,
                                        const SymShape &shape) {
  if (!shape.hasRank())
    return inferFailure(loc, opName, "shape must have a known rank");
  for (auto [i, dim] : llvm::enumerate(shape.getDims())) {
    if (!dim)
      return inferFailure(loc, opName,
                          "shape dim " + Twine(i) + " must not be '?'");
    if (defaultSymContext().isLT(dim, sym::Expr::constant(0)) ==
        sym::Truth::True)
      return inferFailure(loc, opName,
                          "shape dim " + Twine(i) + " (" + dim.str() +
                              ") is negative");
  }
  return success();
}

// An integer fill value must be integral and representable in the dtype.
static LogicalResult checkFillValue(std::optional<Location> loc,
                                    StringRef opName, double value,
                                    Type dtype) {
  auto intType = dyn_cast<IntegerType>(dtype);
  if (!intType)
    return success();
  unsigned width = intType.getWidth();
  // The upper bound is exclusive: 2^w is exact in a double, 2^w - 1 is not
  // for w = 64 (it rounds to 2^64, which no 64-bit integer holds).
  double lo, end;
  if (width == 1) {
    lo = 0;
    end = 2;
  } else if (intType.isUnsigned()) {
    lo = 0;
    end = std::ldexp(1.0, width);
  } else {
    lo = -std::ldexp(1.0, width - 1);
    end = std::ldexp(1.0, width - 1);
  }
  if (std::trunc(value) == value && value >= lo && value < end)
    return success();
  if (loc)
    emitInferError(loc, opName) << "fill value " << formatDouble(value)
                                << " is not a valid " << dtype;
  return failure();
}

// Shared by full/zeros/ones.
static LogicalResult inferShapeCreation(std::optional<Location> loc,
                                        StringRef opName, ShapeExprAttr shape,
                                        Type dtype,
                                        std::optional<double> value,
                                        SmallVectorImpl<Type> &results) {
  if (failed(checkValidDtype(loc, opName, dtype, "dtype")) ||
      failed(checkCreationShape(loc, opName, shape.getShape())) ||
      (value && failed(checkFillValue(loc, opName, *value, dtype))))
    return failure();
  results.push_back(RelaxTensorType::get(shape.getShape(), dtype));
  return success();
}

LogicalResult FullOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  return inferShapeCreation(loc, getOperationName(), adaptor.getShapeAttr(),
                            adaptor.getDtype(),
                            adaptor.getValue().convertToDouble(), results);
}

LogicalResult ZerosOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  return inferShapeCreation(loc, getOperationName(), adaptor.getShapeAttr(),
                            adaptor.getDtype(), std::nullopt, results);
}

LogicalResult OnesOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  return inferShapeCreation(loc, getOperationName(), adaptor.getShapeAttr(),
                            adaptor.getDtype(), std::nullopt, results);
}

// Shared by the *_like ops: the input's type, with `dtype` when given.
static LogicalResult inferLikeCreation(std::optional<Location> loc,
                                       StringRef opName, Type input,
                                       std::optional<Type> dtype,
                                       std::optional<double> value,
                                       SmallVectorImpl<Type> &results) {
  auto type = cast<RelaxTensorType>(input);
  if (dtype) {
    if (failed(checkValidDtype(loc, opName, *dtype, "dtype")))
      return failure();
    type = type.withDtype(*dtype);
  }
  if (value && failed(checkFillValue(loc, opName, *value, type.getDtype())))
    return failure();
  results.push_back(type);
  return success();
}

LogicalResult ZerosLikeOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  return inferLikeCreation(loc, getOperationName(),
                           adaptor.getInput().getType(), adaptor.getDtype(),
                           std::nullopt, results);
}

LogicalResult OnesLikeOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  return inferLikeCreation(loc, getOperationName(),
                           adaptor.getInput().getType(), adaptor.getDtype(),
                           std::nullopt, results);
}

LogicalResult FullLikeOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  return inferLikeCreation(loc, getOperationName(),
                           adaptor.getInput().getType(), adaptor.getDtype(),
                           adaptor.getValue().convertToDouble(), results);
}

// The length is ceildiv(span, |step|) with span oriented by the step's sign,
// clamped at 0 only when the span's sign is not provable (so the common
// arange(0, n, s) stays a plain ceildiv).
LogicalResult ArangeOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef opName = getOperationName();
  Type dtype = adaptor.getDtype();
  if (failed(checkValidDtype(loc, opName, dtype, "dtype")) ||
      failed(checkDtypeClass(loc, opName, dtype, DtypeClass::Numeric)))
    return failure();
  const sym::Context &ctx = defaultSymContext();
  sym::Expr start = adaptor.getStart().getExpr();
  sym::Expr end = adaptor.getEnd().getExpr();
  sym::Expr step = adaptor.getStep().getExpr();
  sym::Expr zero = sym::Expr::constant(0);
  if (!start || !end || !step)
    return inferFailure(loc, opName, "start, end and step must be known");

  sym::Expr span, stride;
  if (std::optional<int64_t> c = step.getConstant()) {
    if (*c == 0)
      return inferFailure(loc, opName, "step must be nonzero");
    span = *c > 0 ? end - start : start - end;
    stride = *c > 0 ? step : -step;
  } else {
    if (ctx.provablyEqual(step, zero))
      return inferFailure(loc, opName,
                          "step " + step.str() + " is provably zero");
    if (ctx.isGT(step, zero) != sym::Truth::True)
      return inferFailure(loc, opName,
                          "symbolic step " + step.str() +
                              " must be provably positive");
    span = end - start;
    stride = step;
  }

  sym::Expr length;
  if (ctx.isLE(span, zero) == sym::Truth::True)
    length = zero;
  else if (ctx.isGE(span, zero) == sym::Truth::True)
    length = sym::ceilDiv(span, stride);
  else
    length = sym::max(sym::ceilDiv(span, stride), zero);
  length = ctx.simplify(length);
  results.push_back(
      RelaxTensorType::get(SymShape(ArrayRef<sym::Expr>(length)), dtype));
  return success();
}
