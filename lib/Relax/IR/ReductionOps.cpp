//===- ReductionOps.cpp - shape inference of the reduction ops ------------===//
//
// Reductions remove (or keep as 1) the reduced dims and copy the others
// symbolically; the axes rule is shared with the nn ops through
// normalizeAxes / reduceShape in ShapeInference.cpp.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

using namespace mlir;
using namespace mlir::relax;

/// The rule of every axes-based reduction: absent axes reduce all dims.
/// With unknown rank only literal repeats can be rejected.
static LogicalResult inferReduction(std::optional<Location> loc,
                                    StringRef opName, Type inputType,
                                    std::optional<ArrayRef<int64_t>> axes,
                                    bool keepdims,
                                    SmallVectorImpl<Type> &results) {
  auto input = cast<RelaxTensorType>(inputType);
  if (!input.hasRank()) {
    if (axes) {
      llvm::SmallDenseSet<int64_t> seen;
      for (int64_t axis : *axes)
        if (!seen.insert(axis).second)
          return inferFailure(loc, opName,
                              "axis " + Twine(axis) + " is repeated");
    }
    results.push_back(input);
    return success();
  }
  int64_t rank = input.getRank();
  SmallVector<int64_t> all;
  if (!axes)
    all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  FailureOr<SmallVector<int64_t>> normalized =
      normalizeAxes(loc, opName, axes ? *axes : ArrayRef<int64_t>(all), rank);
  if (failed(normalized))
    return failure();
  results.push_back(
      input.withShape(reduceShape(input.getShape(), *normalized, keepdims)));
  return success();
}

#define RELAX_DEFINE_REDUCE_INFERENCE(OP)                                      \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, Adaptor adaptor,             \
      SmallVectorImpl<Type> &results) {                                        \
    return inferReduction(loc, getOperationName(),                             \
                          adaptor.getInput().getType(), adaptor.getAxes(),     \
                          adaptor.getKeepdims(), results);                     \
  }

RELAX_DEFINE_REDUCE_INFERENCE(SumOp)
RELAX_DEFINE_REDUCE_INFERENCE(MeanOp)
RELAX_DEFINE_REDUCE_INFERENCE(MaxOp)
RELAX_DEFINE_REDUCE_INFERENCE(MinOp)
RELAX_DEFINE_REDUCE_INFERENCE(ProdOp)
RELAX_DEFINE_REDUCE_INFERENCE(VarianceOp)
#undef RELAX_DEFINE_REDUCE_INFERENCE

/// argmax/argmin: one optional axis, an i64 result.
static LogicalResult inferArgReduction(std::optional<Location> loc,
                                       StringRef opName, Type inputType,
                                       std::optional<int64_t> axis,
                                       bool keepdims,
                                       SmallVectorImpl<Type> &results) {
  auto input = cast<RelaxTensorType>(inputType);
  Type i64 = IntegerType::get(input.getContext(), 64);
  if (!input.hasRank()) {
    results.push_back(RelaxTensorType::get(SymShape::unranked(), i64));
    return success();
  }
  SmallVector<int64_t> axes;
  if (axis) {
    FailureOr<int64_t> norm =
        normalizeAxis(loc, opName, *axis, input.getRank());
    if (failed(norm))
      return failure();
    axes.push_back(*norm);
  } else {
    axes = llvm::to_vector(llvm::seq<int64_t>(0, input.getRank()));
  }
  results.push_back(
      RelaxTensorType::get(reduceShape(input.getShape(), axes, keepdims), i64));
  return success();
}

LogicalResult ArgmaxOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  return inferArgReduction(loc, getOperationName(),
                           adaptor.getInput().getType(), adaptor.getAxis(),
                           adaptor.getKeepdims(), results);
}

LogicalResult ArgminOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  return inferArgReduction(loc, getOperationName(),
                           adaptor.getInput().getType(), adaptor.getAxis(),
                           adaptor.getKeepdims(), results);
}

/// softmax/log_softmax: the input's type, after checking axis and dtype.
static LogicalResult inferSoftmaxLike(std::optional<Location> loc,
                                      StringRef opName, Type inputType,
                                      int64_t axis,
                                      SmallVectorImpl<Type> &results) {
  auto input = cast<RelaxTensorType>(inputType);
  if (!isa<FloatType>(input.getDtype()))
    return inferFailure(loc, opName, "requires a floating-point input dtype");
  if (input.hasRank() &&
      failed(normalizeAxis(loc, opName, axis, input.getRank())))
    return failure();
  results.push_back(input);
  return success();
}

LogicalResult SoftmaxOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  return inferSoftmaxLike(loc, getOperationName(), adaptor.getInput().getType(),
                          adaptor.getAxis(), results);
}

LogicalResult LogSoftmaxOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  return inferSoftmaxLike(loc, getOperationName(), adaptor.getInput().getType(),
                          adaptor.getAxis(), results);
}

LogicalResult CumsumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  auto input = cast<RelaxTensorType>(adaptor.getInput().getType());
  Type dtype = input.getDtype();
  if (std::optional<Type> requested = adaptor.getDtype()) {
    if (failed(checkValidDtype(loc, getOperationName(), *requested,
                               "result dtype")))
      return failure();
    dtype = *requested;
  }
  SymShape shape = input.getShape();
  if (std::optional<int64_t> axis = adaptor.getAxis()) {
    if (shape.hasRank() &&
        failed(normalizeAxis(loc, getOperationName(), *axis, shape.getRank())))
      return failure();
  } else {
    // Flattened: the element count, or `?` when it is not known.
    sym::Expr count = shape.hasRank() ? shape.getNumElements() : sym::Expr();
    shape = SymShape(ArrayRef<sym::Expr>(count));
  }
  results.push_back(RelaxTensorType::get(shape, dtype));
  return success();
}
