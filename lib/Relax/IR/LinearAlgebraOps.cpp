//===- LinearAlgebraOps.cpp - shape inference of matmul and linear --------===//
//
// numpy matmul semantics over symbolic shapes. The contraction dim never
// appears in the result, so when its two sides cannot be proven equal or
// different the op is accepted and the check is left to run time (see the
// op descriptions); a provable mismatch is an error.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "RelaxDialect/Relax/IR/Einsum.h"

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

// einsum: every label's dims are compared pairwise (provably different is an
// error; undecidable makes the label's output dim `?` and, for a summed
// label, is checked at run time); the ellipsis dims broadcast.
LogicalResult EinsumOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef opName = getOperationName();
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return inferFailure(loc, opName, "needs at least one operand");
  auto first = cast<RelaxTensorType>(inputs[0].getType());
  Type dtype = first.getDtype();
  if (failed(checkDtypeClass(loc, opName, dtype, DtypeClass::Numeric)))
    return failure();
  StringRef eq = adaptor.getEquation();
  SmallVector<std::optional<int64_t>> ranks;
  bool unknownBatch = false;
  for (auto [i, v] : llvm::enumerate(inputs)) {
    auto t = cast<RelaxTensorType>(v.getType());
    if (t.getDtype() != dtype)
      return inferFailure(
          loc, opName,
          "operand #" + Twine(i) + " dtype " + typeText(t.getDtype()) +
              " differs from operand #0 dtype " + typeText(dtype));
    if (t.hasRank()) {
      ranks.push_back(t.getRank());
      continue;
    }
    ranks.push_back(std::nullopt);
    unknownBatch |= einsumTermHasEllipsis(eq, i);
  }
  std::string error;
  FailureOr<EinsumSpec> spec = parseEinsum(eq, ranks, error);
  if (failed(spec))
    return inferFailure(loc, opName, "equation '" + eq + "': " + error);
  if (unknownBatch) {
    results.push_back(RelaxTensorType::get(SymShape::unranked(), dtype));
    return success();
  }

  // Every occurrence of each letter label: (dim, operand, axis).
  struct Occurrence {
    sym::Expr dim;
    unsigned operand, axis;
  };
  SmallVector<SmallVector<Occurrence>> occurrences(spec->numLabels());
  SymShape batch(ArrayRef<sym::Expr>{});
  for (auto [i, v] : llvm::enumerate(inputs)) {
    auto t = cast<RelaxTensorType>(v.getType());
    if (!t.hasRank())
      continue;
    SmallVector<sym::Expr> ellipsis;
    for (auto [axis, label] : llvm::enumerate(spec->operands[i])) {
      if (spec->isBatch(label))
        ellipsis.push_back(t.getDims()[axis]);
      else
        occurrences[label].push_back(
            {t.getDims()[axis], unsigned(i), unsigned(axis)});
    }
    FailureOr<SymShape> merged =
        broadcastShapes(loc, opName, batch, SymShape(ellipsis));
    if (failed(merged))
      return failure();
    batch = *merged;
  }
  SmallVector<sym::Expr> labelDims(spec->numLabels());
  for (unsigned label = spec->numBatch; label < spec->numLabels(); ++label) {
    ArrayRef<Occurrence> occ = occurrences[label];
    bool allEqual = true;
    for (size_t a = 0; a < occ.size(); ++a)
      for (size_t b = a + 1; b < occ.size(); ++b) {
        if (!occ[a].dim || !occ[b].dim) {
          allEqual = false;
          continue;
        }
        FailureOr<sym::Expr> u = unifyDims(occ[a].dim, occ[b].dim);
        if (failed(u))
          return inferFailure(
              loc, opName,
              spec->describe(label) + " is " + occ[a].dim.str() +
                  " in operand #" + Twine(occ[a].operand) + " dim " +
                  Twine(occ[a].axis) + " but " + occ[b].dim.str() +
                  " in operand #" + Twine(occ[b].operand) + " dim " +
                  Twine(occ[b].axis));
        allEqual &= bool(*u);
      }
    if (allEqual && !occ.empty())
      labelDims[label] = occ.front().dim;
  }
  SmallVector<sym::Expr> dims;
  for (unsigned label : spec->output)
    dims.push_back(spec->isBatch(label) ? batch.getDim(label)
                                        : labelDims[label]);
  results.push_back(RelaxTensorType::get(SymShape(dims), dtype));
  return success();
}
