//===- LinearAlgebraOps.cpp - shape inference of matmul and linear --------===//
//
// numpy matmul semantics over symbolic shapes. The contraction dim never
// appears in the result, so when its two sides cannot be proven equal or
// different the op is accepted and the check is left to run time (see the
// op descriptions); a provable mismatch is an error.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

using namespace mlir;
using namespace mlir::relax;

// The shape of matmul(a, b) by numpy's rules; `rhsName` names the rhs in
// the contraction error ("rhs" or "weight"). Either unranked gives unranked.
static FailureOr<SymShape> inferMatmulShape(std::optional<Location> loc,
                                            StringRef opName,
                                            const SymShape &a,
                                            const SymShape &b) {
  if (!a.hasRank() || !b.hasRank())
    return SymShape::unranked();
  if (a.getRank() == 0 || b.getRank() == 0)
    return inferFailure(loc, opName, "operands must have rank >= 1, got " +
                                         a.str() + " and " + b.str());
  // Promote 1-D operands to matrices; remember which dims to drop.
  bool lhsVector = a.getRank() == 1, rhsVector = b.getRank() == 1;
  SmallVector<sym::Expr> lhs(a.getDims()), rhs(b.getDims());
  if (lhsVector)
    lhs.insert(lhs.begin(), sym::Expr::constant(1));
  if (rhsVector)
    rhs.push_back(sym::Expr::constant(1));

  const sym::Expr &kl = lhs.back(), &kr = rhs[rhs.size() - 2];
  if (kl && kr && defaultSymContext().provablyNotEqual(kl, kr))
    return inferFailure(loc, opName,
                        "contraction dims differ: " + kl.str() + " vs " +
                            kr.str() + " (shapes " + a.str() + " and " +
                            b.str() + ")");

  SymShape lhsBatch(ArrayRef<sym::Expr>(lhs).drop_back(2));
  SymShape rhsBatch(ArrayRef<sym::Expr>(rhs).drop_back(2));
  FailureOr<SymShape> batch =
      broadcastShapes(loc, opName, lhsBatch, rhsBatch);
  if (failed(batch))
    return failure();
  SmallVector<sym::Expr> dims(batch->getDims());
  if (!lhsVector)
    dims.push_back(lhs[lhs.size() - 2]);
  if (!rhsVector)
    dims.push_back(rhs.back());
  return SymShape(dims);
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef opName = getOperationName();
  auto a = cast<RelaxTensorType>(adaptor.getLhs().getType());
  auto b = cast<RelaxTensorType>(adaptor.getRhs().getType());
  if (a.getDtype() != b.getDtype())
    return inferFailure(loc, opName,
                        "operand dtypes differ (use relax.astype)");
  if (failed(checkDtypeClass(loc, opName, a.getDtype(), DtypeClass::Numeric)))
    return failure();
  Type dtype = a.getDtype();
  if (std::optional<Type> out = adaptor.getOutDtype()) {
    if (failed(checkValidDtype(loc, opName, *out, "out_dtype")))
      return failure();
    dtype = *out;
  }
  FailureOr<SymShape> shape =
      inferMatmulShape(loc, opName, a.getShape(), b.getShape());
  if (failed(shape))
    return failure();
  results.push_back(RelaxTensorType::get(*shape, dtype));
  return success();
}

// linear(x, w, b) = matmul(x, w^T) + b: the weight is transposed before the
// matmul rule, then the bias broadcasts against the product.
LogicalResult LinearOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef opName = getOperationName();
  auto x = cast<RelaxTensorType>(adaptor.getX().getType());
  auto w = cast<RelaxTensorType>(adaptor.getWeight().getType());
  RelaxTensorType bias;
  if (Value b = adaptor.getBias())
    bias = cast<RelaxTensorType>(b.getType());
  if (x.getDtype() != w.getDtype() || (bias && bias.getDtype() != x.getDtype()))
    return inferFailure(loc, opName,
                        "operand dtypes differ (use relax.astype)");
  if (failed(checkDtypeClass(loc, opName, x.getDtype(), DtypeClass::Numeric)))
    return failure();
  if (w.hasRank() && w.getRank() != 2)
    return inferFailure(loc, opName,
                        "weight must have rank 2 [out, in], got " +
                            w.getShape().str());

  SymShape weightT = SymShape::unranked();
  if (w.hasRank())
    weightT = SymShape(SmallVector<sym::Expr>{w.getDims()[1], w.getDims()[0]});
  FailureOr<SymShape> shape =
      inferMatmulShape(loc, opName, x.getShape(), weightT);
  if (failed(shape))
    return failure();
  if (bias) {
    shape = broadcastShapes(loc, opName, *shape, bias.getShape());
    if (failed(shape))
      return failure();
  }
  results.push_back(RelaxTensorType::get(*shape, x.getDtype()));
  return success();
}
