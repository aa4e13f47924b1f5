//===- ManipulationOps.cpp - shape inference of the Manipulation ops ------===//
//
// Symbolic shape inference, folders and canonicalisation patterns of the
// data-movement ops (reshape, permute_dims, concat, split, slicing, take,
// tile...). The per-op rules, in particular what an undecidable symbolic
// question leads to, are documented in RelaxManipulationOps.td.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SmallSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;
using sym::Expr;
using sym::Truth;

namespace {

const sym::Context &symCtx() { return defaultSymContext(); }

Expr constant(int64_t v) { return Expr::constant(v); }

/// The product of `dims`, null when one of them is unknown.
Expr product(ArrayRef<Expr> dims) {
  Expr result = constant(1);
  for (const Expr &d : dims) {
    if (!d)
      return Expr();
    result = result * d;
  }
  return result;
}

/// Whether `a` is a multiple of `b`, answered by the symbolic engine: the
/// simplified remainder is compared with 0.
Truth isDivisible(const Expr &a, const Expr &b) {
  if (!a || !b)
    return Truth::Unknown;
  Expr rem = symCtx().simplify(sym::mod(a, b));
  if (!rem)
    return Truth::Unknown;
  return symCtx().isEQ(rem, constant(0));
}

/// Whether two element counts provably differ once the tensors are
/// non-empty, i.e. with every variable >= 1. Under the default facts
/// (variables >= 0) `n * 4` and `n * 5` are equal for n = 0; a reshape that
/// is valid only for empty tensors is rejected as a mismatch instead.
bool countsDifferWhenNonEmpty(const Expr &a, const Expr &b) {
  if (symCtx().provablyNotEqual(a, b))
    return true;
  SmallVector<std::string> vars;
  a.collectVars(vars);
  b.collectVars(vars);
  sym::Context nonEmpty;
  for (const std::string &v : vars)
    nonEmpty.setBounds(v, 1, std::nullopt);
  return nonEmpty.provablyNotEqual(a, b);
}

/// Shorthand: emits `message` at `loc` and fails.
LogicalResult fail(std::optional<Location> loc, StringRef opName,
                   const Twine &message) {
  return inferFailure(loc, opName, message);
}

/// Normalises `axes` against `rank` and rejects repeats; keeps the order.
FailureOr<SmallVector<int64_t>> normalizeUniqueAxes(
    std::optional<Location> loc, StringRef opName, ArrayRef<int64_t> axes,
    int64_t rank) {
  SmallVector<int64_t> result;
  llvm::SmallSet<int64_t, 8> seen;
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = normalizeAxis(loc, opName, axis, rank);
    if (failed(a))
      return failure();
    if (!seen.insert(*a).second) {
      (void)fail(loc, opName, "axis " + Twine(axis) + " is repeated");
      return failure();
    }
    result.push_back(*a);
  }
  return result;
}

RelaxTensorType tensorOf(Type t) { return cast<RelaxTensorType>(t); }

/// Index operands (take, gather, scatter) hold integers wider than i1.
LogicalResult checkIndexDtype(std::optional<Location> loc, StringRef opName,
                              RelaxTensorType indices) {
  auto intType = dyn_cast<IntegerType>(indices.getDtype());
  if (!intType || intType.getWidth() == 1)
    return fail(loc, opName,
                "indices must have an integer dtype (i8 to i64, ui8 to ui64)");
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

/// Shared by the op and the reshape-of-reshape pattern, which re-infers the
/// merged reshape from the inner input before rewriting.
static LogicalResult inferReshape(std::optional<Location> loc,
                                  StringRef opName, RelaxTensorType input,
                                  const SymShape &target,
                                  SmallVectorImpl<Type> &results) {
  if (!target.hasRank())
    return fail(loc, opName, "target shape must have a known rank");
  SmallVector<Expr> dims(target.getDims());
  std::optional<unsigned> inferred;
  for (auto [i, d] : llvm::enumerate(dims)) {
    if (!d)
      return fail(loc, opName,
                  "target dim #" + Twine(i) + " must not be '?'");
    std::optional<int64_t> c = d.getConstant();
    if (!c || *c >= 0)
      continue;
    if (*c != -1)
      return fail(loc, opName,
                  "target dim #" + Twine(i) + " is negative: " + Twine(*c));
    if (inferred)
      return fail(loc, opName, "at most one target dim may be -1");
    inferred = i;
  }
  SmallVector<Expr> others;
  for (auto [i, d] : llvm::enumerate(dims))
    if (i != inferred)
      others.push_back(d);
  Expr known = product(others);
  Expr numel = input.hasRank() ? input.getShape().getNumElements() : Expr();

  if (inferred) {
    Expr quotient;
    if (known.getConstant() == 0)
      return fail(loc, opName,
                  "cannot infer the -1 dim: the other target dims have "
                  "product 0");
    if (numel) {
      Truth divisible = isDivisible(numel, known);
      if (divisible == Truth::False)
        return fail(loc, opName,
                    "element count " + numel.str() +
                        " of the input is not divisible by " + known.str() +
                        " (the product of the other target dims)");
      if (divisible == Truth::True)
        quotient = symCtx().simplify(sym::floorDiv(numel, known));
    }
    dims[*inferred] = quotient;
  } else if (numel && countsDifferWhenNonEmpty(numel, known)) {
    return fail(loc, opName,
                "element count " + numel.str() +
                    " of the input differs from element count " +
                    known.str() + " of the target shape");
  }
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

LogicalResult ReshapeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  return inferReshape(loc, getOperationName(),
                      tensorOf(adaptor.getInput().getType()),
                      adaptor.getShapeAttr().getShape(), results);
}

/// A reshape to the type it already has (same canonical dims) is a no-op.
OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() &&
      tensorOf(getType()).getShape().isFullyKnown())
    return getInput();
  return {};
}

namespace {
/// reshape(reshape(x, s1), s2) -> reshape(x, s2): the inner reshape only
/// reinterprets the elements, so the outer target applies to x directly.
/// Skipped when re-inference from x would not give a type compatible with
/// the old result (e.g. a -1 that was known only through the inner shape).
struct MergeReshapes : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<ReshapeOp>();
    if (!inner)
      return failure();
    SmallVector<Type, 1> inferred;
    if (failed(inferReshape(std::nullopt, op.getOperationName(),
                            tensorOf(inner.getInput().getType()),
                            op.getShapeAttr().getShape(), inferred)) ||
        !isCompatibleType(inferred.front(), op.getType()))
      return failure();
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), inner.getInput(),
                                           op.getShapeAttr());
    return success();
  }
};
} // namespace

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<MergeReshapes>(context);
}

//===----------------------------------------------------------------------===//
// permute_dims
//===----------------------------------------------------------------------===//

LogicalResult PermuteDimsOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  std::optional<ArrayRef<int64_t>> axes = adaptor.getAxes();
  if (!input.hasRank() && !axes) {
    results.push_back(input);
    return success();
  }
  int64_t rank = input.hasRank() ? input.getRank() : axes->size();
  SmallVector<int64_t> perm;
  if (axes) {
    if (static_cast<int64_t>(axes->size()) != rank)
      return fail(loc, name,
                  "expected " + Twine(rank) + " axes for an input of rank " +
                      Twine(rank) + ", got " + Twine(axes->size()));
    FailureOr<SmallVector<int64_t>> norm =
        normalizeUniqueAxes(loc, name, *axes, rank);
    if (failed(norm))
      return failure();
    perm = *norm;
  } else {
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  }
  if (!input.hasRank()) {
    // A valid permutation of a tensor of that rank: the dims are unknown.
    results.push_back(input.withShape(SymShape(SmallVector<Expr>(rank))));
    return success();
  }
  SmallVector<Expr> dims;
  for (int64_t a : perm)
    dims.push_back(input.getDims()[a]);
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

/// The permutation of a permute_dims with known rank, normalised (no
/// negative entries; the reversal when `axes` is absent).
static SmallVector<int64_t> normalizedPermutation(PermuteDimsOp op,
                                                  int64_t rank) {
  std::optional<ArrayRef<int64_t>> axes = op.getAxes();
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t a = axes ? (*axes)[i] : rank - 1 - i;
    perm.push_back(a < 0 ? a + rank : a);
  }
  return perm;
}

OpFoldResult PermuteDimsOp::fold(FoldAdaptor) {
  auto type = tensorOf(getType());
  if (!type.hasRank())
    return {};
  int64_t rank = type.getRank();
  // permute_dims(permute_dims(x, p), q) is permute_dims(x, p[q[i]]): fold in
  // place (the result is the same tensor, so the type stays), which makes
  // BSNH -> BNSH -> BSNH round trips an identity that folds below.
  if (auto inner = getInput().getDefiningOp<PermuteDimsOp>()) {
    auto innerType = tensorOf(inner.getInput().getType());
    if (innerType.hasRank() && innerType.getRank() == rank) {
      SmallVector<int64_t> p = normalizedPermutation(inner, rank),
                           q = normalizedPermutation(*this, rank), composed;
      for (int64_t i = 0; i < rank; ++i)
        composed.push_back(p[q[i]]);
      getInputMutable().assign(inner.getInput());
      setAxes(composed);
      if (getInput().getType() == type &&
          llvm::equal(composed, llvm::seq<int64_t>(0, rank)))
        return getInput();
      return getResult();
    }
  }
  if (getInput().getType() != type)
    return {};
  SmallVector<int64_t> perm = normalizedPermutation(*this, rank);
  if (!llvm::equal(perm, llvm::seq<int64_t>(0, rank)))
    return {};
  return getInput();
}

//===----------------------------------------------------------------------===//
// expand_dims / squeeze
//===----------------------------------------------------------------------===//

LogicalResult ExpandDimsOp::inferReturnTypes(MLIRContext *,
                                             std::optional<Location> loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &results) {
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  if (!input.hasRank()) {
    results.push_back(input);
    return success();
  }
  int64_t rank = input.getRank() + adaptor.getAxes().size();
  FailureOr<SmallVector<int64_t>> axes =
      normalizeUniqueAxes(loc, getOperationName(), adaptor.getAxes(), rank);
  if (failed(axes))
    return failure();
  SmallVector<Expr> dims(rank);
  llvm::SmallSet<int64_t, 8> isNew(axes->begin(), axes->end());
  unsigned next = 0;
  for (int64_t i = 0; i < rank; ++i)
    dims[i] = isNew.count(i) ? constant(1) : input.getDims()[next++];
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

LogicalResult SqueezeOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  if (!input.hasRank()) {
    results.push_back(input);
    return success();
  }
  Expr one = constant(1);
  SmallVector<Expr> dims;
  if (std::optional<ArrayRef<int64_t>> axes = adaptor.getAxes()) {
    FailureOr<SmallVector<int64_t>> norm =
        normalizeUniqueAxes(loc, name, *axes, input.getRank());
    if (failed(norm))
      return failure();
    llvm::SmallSet<int64_t, 8> squeezed(norm->begin(), norm->end());
    for (auto [i, d] : llvm::enumerate(input.getDims())) {
      if (!squeezed.count(i)) {
        dims.push_back(d);
        continue;
      }
      // Undecidable dims are squeezed; being 1 is a run-time check.
      if (d && symCtx().provablyNotEqual(d, one))
        return fail(loc, name,
                    "cannot squeeze dim #" + Twine(i) + " of size " +
                        d.str() + ": it is provably not 1");
    }
  } else {
    for (const Expr &d : input.getDims()) {
      if (d && (d == one || symCtx().provablyEqual(d, one)))
        continue;
      if (!d || !symCtx().provablyNotEqual(d, one)) {
        // Whether this dim goes away is unknown, so is the result rank.
        results.push_back(input.withShape(SymShape::unranked()));
        return success();
      }
      dims.push_back(d);
    }
  }
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

/// squeeze(expand_dims(x, axes), axes) -> x.
OpFoldResult SqueezeOp::fold(FoldAdaptor) {
  auto expand = getInput().getDefiningOp<ExpandDimsOp>();
  std::optional<ArrayRef<int64_t>> axes = getAxes();
  if (!expand || !axes || expand.getInput().getType() != getType())
    return {};
  auto mid = tensorOf(expand.getType());
  if (!mid.hasRank())
    return {};
  auto normSet = [&](ArrayRef<int64_t> list) {
    llvm::SmallSet<int64_t, 8> set;
    for (int64_t a : list)
      set.insert(a < 0 ? a + mid.getRank() : a);
    return set;
  };
  auto a = normSet(*axes), b = normSet(expand.getAxes());
  if (a.size() != b.size())
    return {};
  for (int64_t x : a)
    if (!b.count(x))
      return {};
  return expand.getInput();
}

//===----------------------------------------------------------------------===//
// flatten / broadcast_to
//===----------------------------------------------------------------------===//

LogicalResult FlattenOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location>,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  Expr numel = input.hasRank() ? product(input.getDims()) : Expr();
  results.push_back(input.withShape(SymShape(ArrayRef<Expr>(numel))));
  return success();
}

OpFoldResult FlattenOp::fold(FoldAdaptor) {
  return foldSameTypeToInput(getInput(), getType());
}

LogicalResult BroadcastToOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  const SymShape &target = adaptor.getShapeAttr().getShape();
  if (!target.hasRank())
    return fail(loc, name, "target shape must have a known rank");
  for (auto [i, d] : llvm::enumerate(target.getDims()))
    if (d && d.getConstant() && *d.getConstant() < 0)
      return fail(loc, name, "target dim #" + Twine(i) + " is negative");
  if (input.hasRank()) {
    int64_t offset = target.getRank() - input.getRank();
    if (offset < 0)
      return fail(loc, name,
                  "cannot broadcast rank " + Twine(input.getRank()) +
                      " to the lower rank " + Twine(target.getRank()));
    Expr one = constant(1);
    for (auto [i, x] : llvm::enumerate(input.getDims())) {
      const Expr &y = target.getDim(i + offset);
      if (!x || !y || x == one || x == y)
        continue;
      // Undecidable pairs are accepted: checked at run time.
      if (symCtx().provablyNotEqual(x, y) &&
          symCtx().provablyNotEqual(x, one))
        return fail(loc, name,
                    "cannot broadcast dim " + x.str() + " to " + y.str() +
                        " (input shape " + input.getShape().str() +
                        ", target " + target.str() + ")");
    }
  }
  results.push_back(input.withShape(target));
  return success();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor) {
  auto type = tensorOf(getType());
  if (getInput().getType() == type && type.getShape().isFullyKnown())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// concat / split
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  ValueRange inputs = adaptor.getInputs();
  if (inputs.empty())
    return fail(loc, name, "expects at least one input");
  RelaxTensorType first = tensorOf(inputs.front().getType());
  std::optional<int64_t> rank;
  unsigned rankedIndex = 0;
  for (auto [i, v] : llvm::enumerate(inputs)) {
    RelaxTensorType t = tensorOf(v.getType());
    if (t.getDtype() != first.getDtype())
      return fail(loc, name,
                  "input #" + Twine(i) + " has a different dtype than input "
                  "#0");
    if (!t.hasRank())
      continue;
    if (rank && *rank != t.getRank())
      return fail(loc, name,
                  "input #" + Twine(i) + " has rank " + Twine(t.getRank()) +
                      " but input #" + Twine(rankedIndex) + " has rank " +
                      Twine(*rank));
    if (!rank) {
      rank = t.getRank();
      rankedIndex = i;
    }
  }
  if (!rank) {
    results.push_back(first);
    return success();
  }
  FailureOr<int64_t> axis =
      normalizeAxis(loc, name, static_cast<int64_t>(adaptor.getAxis()), *rank);
  if (failed(axis))
    return failure();

  SmallVector<Expr> dims(*rank);
  for (int64_t d = 0; d < *rank; ++d) {
    // Per dim: the known values from every input, and whether one is `?`.
    SmallVector<Expr> known;
    bool unknown = false;
    for (Value v : inputs) {
      RelaxTensorType t = tensorOf(v.getType());
      Expr e = t.hasRank() ? t.getDims()[d] : Expr();
      if (e)
        known.push_back(e);
      else
        unknown = true;
    }
    if (d == *axis) {
      dims[d] = unknown ? Expr() : sym::sum(known);
      continue;
    }
    // Every pair is compared so that a provable mismatch is reported even
    // next to a `?`. Dims not provably equal keep the simplest of them; the
    // others are checked against it at run time (ShapeContracts).
    Expr common = known.empty() ? Expr() : known.front();
    for (size_t a = 0; a < known.size(); ++a)
      for (size_t b = a + 1; b < known.size(); ++b)
        if (failed(unifyDims(known[a], known[b])))
          return fail(loc, name,
                      "dim #" + Twine(d) + " differs between inputs: " +
                          known[a].str() + " vs " + known[b].str());
    for (const Expr &e : known)
      common = simplerDim(common, e);
    dims[d] = unknown ? Expr() : common;
  }
  results.push_back(first.withShape(SymShape(dims)));
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (getInputs().size() == 1 && getInputs().front().getType() == getType())
    return getInputs().front();
  return {};
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  std::optional<uint64_t> sections = adaptor.getSections();
  ShapeExprAttr indicesAttr = adaptor.getIndicesAttr();
  if (sections.has_value() == static_cast<bool>(indicesAttr))
    return fail(loc, name, "expects exactly one of 'sections' and 'indices'");
  int64_t count;
  SmallVector<Expr> indices;
  if (sections) {
    count = static_cast<int64_t>(*sections);
    if (count < 1)
      return fail(loc, name,
                  "sections must be at least 1, got " + Twine(count));
  } else {
    const SymShape &shape = indicesAttr.getShape();
    if (!shape.hasRank())
      return fail(loc, name, "indices must be a list");
    for (auto [i, e] : llvm::enumerate(shape.getDims())) {
      if (!e)
        return fail(loc, name, "split index #" + Twine(i) + " is '?'");
      if (e.getConstant() && *e.getConstant() < 0)
        return fail(loc, name,
                    "split index #" + Twine(i) + " is negative: " + e.str());
      indices.push_back(e);
    }
    count = indices.size() + 1;
  }
  if (!input.hasRank()) {
    results.append(count, input);
    return success();
  }
  FailureOr<int64_t> axis = normalizeAxis(
      loc, name, static_cast<int64_t>(adaptor.getAxis()), input.getRank());
  if (failed(axis))
    return failure();
  Expr d = input.getDims()[*axis];
  SmallVector<Expr> pieces;
  if (sections) {
    Expr piece;
    Truth divisible = isDivisible(d, constant(count));
    if (divisible == Truth::False)
      return fail(loc, name,
                  "dim " + d.str() + " of axis " + Twine(*axis) +
                      " is not divisible into " + Twine(count) +
                      " sections");
    // Undecidable divisibility: `?`, checked at run time.
    if (divisible == Truth::True)
      piece = symCtx().simplify(sym::floorDiv(d, constant(count)));
    pieces.append(count, piece);
  } else {
    Expr prev = constant(0);
    for (const Expr &i : indices) {
      if (symCtx().isLE(prev, i) == Truth::False)
        return fail(loc, name,
                    "split indices are out of order: " + i.str() +
                        " after " + prev.str());
      pieces.push_back(symCtx().simplify(i - prev));
      prev = i;
    }
    if (d && symCtx().isLE(prev, d) == Truth::False)
      return fail(loc, name,
                  "split index " + prev.str() + " is past dim " + d.str() +
                      " of axis " + Twine(*axis));
    pieces.push_back(d ? symCtx().simplify(d - prev) : Expr());
  }
  for (const Expr &piece : pieces) {
    SmallVector<Expr> dims(input.getDims());
    dims[*axis] = piece;
    results.push_back(input.withShape(SymShape(dims)));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// strided_slice
//===----------------------------------------------------------------------===//

/// The extent of one sliced axis (see the op description): clamp both bounds
/// into the valid index range, then count the strided steps. min/max are
/// simplified away where the symbolic engine proves them inactive.
static Expr slicedExtent(const Expr &dim, Expr begin, Expr end,
                         int64_t stride) {
  if (!dim || !begin || !end)
    return Expr();
  auto fromEnd = [&](Expr &bound) {
    if (auto c = bound.getConstant(); c && *c < 0)
      bound = dim + *c;
  };
  fromEnd(begin);
  fromEnd(end);
  const sym::Context &ctx = symCtx();
  Expr lo = stride > 0 ? constant(0) : constant(-1);
  Expr hi = stride > 0 ? dim : dim - 1;
  auto clamp = [&](const Expr &bound) {
    return ctx.simplify(sym::min(ctx.simplify(sym::max(bound, lo)), hi));
  };
  Expr b = clamp(begin), e = clamp(end);
  Expr span = stride > 0 ? e - b : b - e;
  int64_t step = stride > 0 ? stride : -stride;
  return ctx.simplify(
      sym::max(ctx.simplify(sym::ceilDiv(span, constant(step))), constant(0)));
}

LogicalResult StridedSliceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  ArrayRef<int64_t> axes = adaptor.getAxes();
  const SymShape &begin = adaptor.getBeginAttr().getShape();
  const SymShape &end = adaptor.getEndAttr().getShape();
  size_t n = axes.size();
  if (!begin.hasRank() || !end.hasRank() ||
      static_cast<size_t>(begin.getRank()) != n ||
      static_cast<size_t>(end.getRank()) != n)
    return fail(loc, name,
                "begin and end must have one entry per axis (" + Twine(n) +
                    ")");
  SmallVector<int64_t> strides(n, 1);
  if (std::optional<ArrayRef<int64_t>> s = adaptor.getStrides()) {
    if (s->size() != n)
      return fail(loc, name,
                  "strides must have one entry per axis (" + Twine(n) + ")");
    strides.assign(s->begin(), s->end());
  }
  for (int64_t s : strides)
    if (s == 0)
      return fail(loc, name, "stride must not be 0");
  if (!input.hasRank()) {
    results.push_back(input);
    return success();
  }
  FailureOr<SmallVector<int64_t>> norm =
      normalizeUniqueAxes(loc, name, axes, input.getRank());
  if (failed(norm))
    return failure();
  SmallVector<Expr> dims(input.getDims());
  for (size_t i = 0; i < n; ++i) {
    int64_t a = (*norm)[i];
    dims[a] = slicedExtent(input.getDims()[a], begin.getDim(i), end.getDim(i),
                           strides[i]);
  }
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

//===----------------------------------------------------------------------===//
// take / tile / repeat
//===----------------------------------------------------------------------===//

LogicalResult TakeOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  RelaxTensorType indices = tensorOf(adaptor.getIndices().getType());
  if (failed(checkIndexDtype(loc, name, indices)))
    return failure();
  std::optional<uint64_t> axisAttr = adaptor.getAxis();
  if (!indices.hasRank() || (axisAttr && !input.hasRank())) {
    results.push_back(input.withShape(SymShape::unranked()));
    return success();
  }
  if (!axisAttr) {
    results.push_back(input.withShape(indices.getShape()));
    return success();
  }
  FailureOr<int64_t> axis = normalizeAxis(
      loc, name, static_cast<int64_t>(*axisAttr), input.getRank());
  if (failed(axis))
    return failure();
  ArrayRef<Expr> in = input.getDims();
  SmallVector<Expr> dims(in.begin(), in.begin() + *axis);
  llvm::append_range(dims, indices.getDims());
  dims.append(in.begin() + *axis + 1, in.end());
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

LogicalResult TileOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  ArrayRef<int64_t> repeats = adaptor.getRepeats();
  for (int64_t r : repeats)
    if (r < 0)
      return fail(loc, getOperationName(),
                  "repeats must be non-negative, got " + Twine(r));
  if (!input.hasRank()) {
    results.push_back(input);
    return success();
  }
  int64_t inRank = input.getRank(), reps = repeats.size();
  int64_t rank = std::max(inRank, reps);
  SmallVector<Expr> dims(rank);
  for (int64_t i = 0; i < rank; ++i) {
    int64_t ii = i - (rank - inRank), ir = i - (rank - reps);
    Expr d = ii >= 0 ? input.getDims()[ii] : constant(1);
    int64_t r = ir >= 0 ? repeats[ir] : 1;
    dims[i] = d ? d * r : Expr();
  }
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

OpFoldResult TileOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType() &&
      llvm::all_of(getRepeats(), [](int64_t r) { return r == 1; }))
    return getInput();
  return {};
}

LogicalResult RepeatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  auto repeats = static_cast<int64_t>(adaptor.getRepeats());
  if (repeats < 0)
    return fail(loc, name,
                "repeats must be non-negative, got " + Twine(repeats));
  std::optional<uint64_t> axisAttr = adaptor.getAxis();
  if (!axisAttr) {
    Expr numel = input.hasRank() ? product(input.getDims()) : Expr();
    results.push_back(
        input.withShape(SymShape(ArrayRef<Expr>(numel ? numel * repeats
                                                       : Expr()))));
    return success();
  }
  if (!input.hasRank()) {
    results.push_back(input);
    return success();
  }
  FailureOr<int64_t> axis = normalizeAxis(
      loc, name, static_cast<int64_t>(*axisAttr), input.getRank());
  if (failed(axis))
    return failure();
  SmallVector<Expr> dims(input.getDims());
  if (dims[*axis])
    dims[*axis] = dims[*axis] * repeats;
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

//===----------------------------------------------------------------------===//
// trilu / pad
//===----------------------------------------------------------------------===//

LogicalResult TriluOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  if (input.hasRank() && input.getRank() < 2)
    return fail(loc, getOperationName(),
                "input must have rank >= 2, got rank " +
                    Twine(input.getRank()));
  if (SymExprAttr k = adaptor.getKAttr(); k && !k.getExpr())
    return fail(loc, getOperationName(), "diagonal offset k must not be '?'");
  results.push_back(input);
  return success();
}

LogicalResult PadOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType input = tensorOf(adaptor.getInput().getType());
  StringRef mode = adaptor.getMode();
  if (mode != "constant" && mode != "reflect" && mode != "edge" &&
      mode != "wrap")
    return fail(loc, name,
                "mode must be constant, reflect, edge or wrap, got '" + mode +
                    "'");
  double value = adaptor.getValue().convertToDouble();
  Type dtype = input.getDtype();
  if (dtype.isInteger(1) ? (value != 0 && value != 1)
                         : isa<IntegerType>(dtype) && std::trunc(value) != value)
    return fail(loc, name,
                "pad value " + formatDouble(value) + " is not a '" +
                    typeText(dtype) + "' value");
  const SymShape &before = adaptor.getPadBefore().getShape();
  const SymShape &after = adaptor.getPadAfter().getShape();
  if (!before.hasRank() || !after.hasRank() ||
      before.getRank() != after.getRank())
    return fail(loc, name,
                "pad_before and pad_after must list the same number of dims");
  for (const SymShape *pads : {&before, &after})
    for (auto [i, p] : llvm::enumerate(pads->getDims()))
      if (!p)
        return fail(loc, name, "pad of dim " + Twine(i) + " must not be '?'");
  if (!input.hasRank()) {
    results.push_back(input.withShape(SymShape(SmallVector<Expr>(
        before.getRank(), Expr()))));
    return success();
  }
  if (before.getRank() != input.getRank())
    return fail(loc, name,
                "pads list " + Twine(before.getRank()) +
                    " dims for an input of rank " + Twine(input.getRank()));
  SmallVector<Expr> dims;
  for (auto [i, d] : llvm::enumerate(input.getDims())) {
    Expr out = d ? symCtx().simplify(d + before.getDim(i) + after.getDim(i))
                 : Expr();
    if (out && symCtx().isLE(constant(0), out) == Truth::False)
      return fail(loc, name,
                  "dim " + Twine(i) + " would be negative: " + out.str());
    dims.push_back(out);
  }
  results.push_back(input.withShape(SymShape(dims)));
  return success();
}

//===----------------------------------------------------------------------===//
// gather_elements / gather_nd / scatter_nd
//===----------------------------------------------------------------------===//

LogicalResult GatherElementsOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, Adaptor adaptor,
    SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType data = tensorOf(adaptor.getData().getType());
  RelaxTensorType indices = tensorOf(adaptor.getIndices().getType());
  if (failed(checkIndexDtype(loc, name, indices)))
    return failure();
  if (data.hasRank() && indices.hasRank()) {
    if (data.getRank() != indices.getRank())
      return fail(loc, name,
                  "indices must have the data's rank " +
                      Twine(data.getRank()) + ", got rank " +
                      Twine(indices.getRank()));
    FailureOr<int64_t> axis =
        normalizeAxis(loc, name, adaptor.getAxis(), data.getRank());
    if (failed(axis))
      return failure();
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip(indices.getDims(), data.getDims()))) {
      auto [id, dd] = pair;
      if (static_cast<int64_t>(i) != *axis && id && dd &&
          symCtx().isLE(id, dd) == Truth::False)
        return fail(loc, name,
                    "indices dim " + Twine(i) + " (" + id.str() +
                        ") exceeds the data dim (" + dd.str() + ")");
    }
  }
  results.push_back(data.withShape(indices.getShape()));
  return success();
}

/// The tuple length of index tuples: the constant last dim of `indices`.
static FailureOr<int64_t> tupleLength(std::optional<Location> loc,
                                      StringRef opName,
                                      RelaxTensorType indices) {
  if (indices.getRank() == 0)
    return fail(loc, opName, "indices must have rank >= 1");
  std::optional<int64_t> q = indices.getDims().back().getConstant();
  if (!q)
    return fail(loc, opName,
                "the last dim of indices (the index tuple length) must be a "
                "constant");
  return *q;
}

LogicalResult GatherNDOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType data = tensorOf(adaptor.getData().getType());
  RelaxTensorType indices = tensorOf(adaptor.getIndices().getType());
  if (failed(checkIndexDtype(loc, name, indices)))
    return failure();
  int64_t b = adaptor.getBatchDims();
  if (b < 0)
    return fail(loc, name,
                "batch_dims must be non-negative, got " + Twine(b));
  if (!data.hasRank() || !indices.hasRank()) {
    results.push_back(data.withShape(SymShape::unranked()));
    return success();
  }
  FailureOr<int64_t> q = tupleLength(loc, name, indices);
  if (failed(q))
    return failure();
  if (b >= indices.getRank())
    return fail(loc, name,
                "batch_dims " + Twine(b) + " must be below the indices' rank " +
                    Twine(indices.getRank()));
  if (*q < 1 || b + *q > data.getRank())
    return fail(loc, name,
                "index tuples of length " + Twine(*q) + " after " + Twine(b) +
                    " batch dims do not fit data of rank " +
                    Twine(data.getRank()));
  for (int64_t i = 0; i < b; ++i)
    if (failed(unifyDimsOrError(loc, name, "batch dim " + Twine(i),
                                data.getDims()[i], indices.getDims()[i])))
      return failure();
  SmallVector<Expr> dims(indices.getDims().drop_back());
  llvm::append_range(dims, data.getDims().drop_front(b + *q));
  results.push_back(data.withShape(SymShape(dims)));
  return success();
}

LogicalResult ScatterNDOp::inferReturnTypes(MLIRContext *,
                                            std::optional<Location> loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &results) {
  StringRef name = getOperationName();
  RelaxTensorType data = tensorOf(adaptor.getData().getType());
  RelaxTensorType indices = tensorOf(adaptor.getIndices().getType());
  RelaxTensorType updates = tensorOf(adaptor.getUpdates().getType());
  if (failed(checkIndexDtype(loc, name, indices)))
    return failure();
  StringRef reduction = adaptor.getReduction();
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      reduction != "max" && reduction != "min")
    return fail(loc, name,
                "reduction must be none, add, mul, max or min, got '" +
                    reduction + "'");
  if (updates.getDtype() != data.getDtype())
    return fail(loc, name,
                "updates dtype '" + typeText(updates.getDtype()) +
                    "' differs from the data dtype '" +
                    typeText(data.getDtype()) + "'");
  if (data.hasRank() && indices.hasRank()) {
    FailureOr<int64_t> q = tupleLength(loc, name, indices);
    if (failed(q))
      return failure();
    if (*q < 1 || *q > data.getRank())
      return fail(loc, name,
                  "index tuples of length " + Twine(*q) +
                      " do not fit data of rank " + Twine(data.getRank()));
    SmallVector<Expr> expected(indices.getDims().drop_back());
    llvm::append_range(expected, data.getDims().drop_front(*q));
    if (updates.hasRank()) {
      if (updates.getRank() != static_cast<int64_t>(expected.size()))
        return fail(loc, name,
                    "updates must have rank " + Twine(expected.size()) +
                        " (indices.shape[:-1] + data.shape[" + Twine(*q) +
                        ":]), got rank " + Twine(updates.getRank()));
      for (auto [i, pair] :
           llvm::enumerate(llvm::zip(updates.getDims(), expected)))
        if (failed(unifyDimsOrError(loc, name, "updates dim " + Twine(i),
                                    std::get<0>(pair), std::get<1>(pair))))
          return failure();
    }
  }
  results.push_back(data);
  return success();
}
