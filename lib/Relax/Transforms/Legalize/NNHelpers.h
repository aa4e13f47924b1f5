//===- NNHelpers.h - Helpers of the NN legalizations ------------*- C++ -*-===//
//
// Small builders and checks shared by Legalize/NN.cpp, Resize.cpp and
// Recurrent.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_RELAX_TRANSFORMS_LEGALIZE_NNHELPERS_H
#define LIB_RELAX_TRANSFORMS_LEGALIZE_NNHELPERS_H

#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

namespace mlir {
namespace relax {
namespace nn_legalize {

inline Value cIdx(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIndexOp::create(b, l, v);
}

/// Materialises dim `i` of a relax tensor type.
inline Value dimOf(OpBuilder &b, Location l, Type type, unsigned i) {
  return tir::materializeDim(b, l,
                             cast<RelaxTensorType>(type).getShape().getDim(i));
}

/// Checks an operand is a fully known rank-`rank` tensor.
inline LogicalResult checkRank(Operation *op, Value v, int64_t rank,
                               StringRef what) {
  auto t = dyn_cast<RelaxTensorType>(v.getType());
  if (!t || !t.getShape().hasRank() || t.getShape().getRank() != rank)
    return op->emitOpError("cannot be legalized: ")
           << what << " must have rank " << rank << ", got " << v.getType();
  if (!t.getShape().isFullyKnown())
    return op->emitOpError("cannot be legalized: ")
           << what << " has type " << v.getType()
           << "; every dim must be known (refine it with relax.match_cast)";
  return success();
}

} // namespace nn_legalize
} // namespace relax
} // namespace mlir

#endif // LIB_RELAX_TRANSFORMS_LEGALIZE_NNHELPERS_H
