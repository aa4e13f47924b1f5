//===- GemmLibraryRule.cpp - Generated GEMM kernel or cuBLAS --------------===//
//
// cuBLAS wins on large products that stand alone (60-75 % of the H200's
// tensor peak against the generated mma.sync kernel's expected 20-35 %,
// docs/gpu.md); the generated kernels win where fusion saves a pass over
// memory (a bias, an activation, a dequantized weight) and on small or
// decode-shaped products, where a library call's fixed cost and its
// tile-size heuristics do not pay. The thresholds are the documented
// estimate until a GPU run measures the crossover.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/GemmLibraryRule.h"
#include "RelaxDialect/Relax/IR/ShapeInference.h"

using namespace mlir;
using namespace mlir::relax;

/// Whether `user`, reading the product `product`, is an op relax-fuse-ops
/// would merge into the product's kernel as its epilogue.
static bool isElementwiseReader(Operation *user, Value product) {
  if (user->hasTrait<BroadcastsOperands>())
    return true;
  return user->getNumOperands() == 1 && user->getNumResults() == 1 &&
         isa<RelaxTensorType>(user->getResult(0).getType()) &&
         cast<RelaxTensorType>(user->getResult(0).getType()).getShape() ==
             cast<RelaxTensorType>(product.getType()).getShape();
}

/// Whether something would fuse with `op`'s product.
static bool fusesWithNeighbours(Operation *op, bool hasBias) {
  if (hasBias)
    return true;
  if (llvm::any_of(op->getOperands(), [](Value operand) {
        return operand.getDefiningOp<DequantizeOp>() ||
               operand.getDefiningOp<DequantizeTilesOp>();
      }))
    return true;
  Value result = op->getResult(0);
  return result.hasOneUse() &&
         isElementwiseReader(*result.getUsers().begin(), result);
}

bool relax::preferLibraryGemm(Operation *op, RelaxTensorType lhs,
                              RelaxTensorType product, bool hasBias) {
  if (fusesWithNeighbours(op, hasBias))
    return false;
  ArrayRef<sym::Expr> lhsDims = lhs.getDims();
  ArrayRef<sym::Expr> productDims = product.getDims();
  if (lhsDims.empty() || productDims.empty())
    return false;
  sym::Expr rows = sym::Expr::constant(1);
  for (const sym::Expr &dim : productDims.drop_back()) {
    if (!dim)
      return false;
    rows = rows * dim;
  }
  sym::Context ctx = symContextAt(op);
  auto atLeast = [&](const sym::Expr &size, int64_t bound) {
    return size &&
           ctx.isGE(size, sym::Expr::constant(bound)) == sym::Truth::True;
  };
  return atLeast(rows, kLibraryMinRows) &&
         atLeast(productDims.back(), kLibraryMinCols) &&
         atLeast(lhsDims.back(), kLibraryMinDepth);
}
