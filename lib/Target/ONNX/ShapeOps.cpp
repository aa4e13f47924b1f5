//===- ShapeOps.cpp - ONNX shape manipulation ops -------------------------===//
//
// Reshape, Flatten, Transpose, Concat, Split, Slice, Gather, Unsqueeze,
// Squeeze and Expand. Shape computations on import-time values (Shape ->
// Gather -> Concat, ...) stay symbolic integer vectors, so that shape
// targets become symbolic attributes of relax ops. The ops that produce
// shapes or constants are in ShapeValueOps.cpp, Pad, Tile and Trilu in
// PadTileTriluOps.cpp, the index ops in IndexOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "AttrChecks.h"
#include "Importer.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

/// Reshape to a target computed from tensor data: its 0s (copy the input
/// dim, unless allowzero) and its -1 (the element count over the product of
/// the others) are resolved with relax ops on the target tensor, whose
/// values then become dims bound at run time (NodeBinder::bindShape);
/// legalization checks the element count.
static LogicalResult importRuntimeReshape(NodeBinder &b, bool allowZero) {
  FailureOr<Value> x = b.input(0), t = b.input(1);
  if (failed(x) || failed(t))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  RelaxTensorType tt = b.typeOf(*t);
  std::optional<int64_t> length = b.vectorLength(*t);
  // Its length is the result rank, which relax types fix at compile time.
  if (!length)
    return b.runtimeValueError()
           << "the target shape (input #1) must be a 1-D tensor of a length "
              "known at import time (the result rank), got "
           << tt;
  Type i64 = b.getBuilder().getI64Type();
  FailureOr<Value> target = b.castTo(*t, i64);
  auto select = [&](Value cond, Value a, Value c) -> FailureOr<Value> {
    Value operands[] = {cond, a, c};
    if (failed(b.alignBroadcast(operands)))
      return failure();
    return b.create<WhereOp>(operands);
  };
  auto equalTo = [&](Value v, int64_t c) -> FailureOr<Value> {
    FailureOr<Value> s = b.scalar(c, i64);
    if (failed(s))
      return failure();
    return b.create<EqualOp>({v, *s});
  };
  if (failed(target))
    return failure();
  if (!allowZero) {
    // Position k of the target copies input dim k where it is 0.
    KnownInts inputDims;
    inputDims.dtype = i64;
    inputDims.shape = {*length};
    for (int64_t k = 0; k < *length; ++k)
      inputDims.elems.push_back(k < int64_t(dims->size()) ? (*dims)[k]
                                                          : Expr::constant(0));
    FailureOr<Value> copied = b.materialize(inputDims);
    FailureOr<Value> isZero = equalTo(*target, 0);
    if (failed(copied) || failed(isZero) ||
        failed(target = select(*isZero, *copied, *target)))
      return failure();
  }
  FailureOr<Value> isInferred = equalTo(*target, -1);
  FailureOr<Value> one = b.scalar(1, i64);
  if (failed(isInferred) || failed(one))
    return failure();
  FailureOr<Value> others = select(*isInferred, *one, *target);
  FailureOr<Value> product =
      failed(others) ? others
                     : b.create<ProdOp>(*others, {b.named("keepdims",
                                                          b.boolAttr(false))});
  FailureOr<Value> count = b.symScalar(SymShape(*dims).getNumElements(), i64);
  if (failed(product) || failed(count))
    return failure();
  FailureOr<Value> inferred = b.create<DivideOp>({*count, *product});
  if (failed(inferred) ||
      failed(target = select(*isInferred, *inferred, *target)))
    return failure();
  FailureOr<SmallVector<Expr>> out =
      b.bindShape(*target, "the target shape (input #1)");
  if (failed(out))
    return failure();
  return b.setOutput(0, b.reshape(*x, *out));
}

static LogicalResult importReshape(NodeBinder &b) {
  if (failed(b.requireInputs(b.opset() >= 5 ? 2 : 1, 2)) ||
      failed(b.requireOutputs(1)))
    return failure();
  int64_t allowZero = b.opset() >= 14 ? attrFlag(b, "allowzero", false) : 0;
  // The shape (opset 5 on) is a 1-D int64 tensor.
  if (b.opset() >= 5) {
    Slot *shape = b.inputSlot(1);
    if (!shape)
      return failure();
    Type t = inputDtype(b, 1);
    std::optional<int64_t> rank;
    if (shape->value && NodeBinder::typeOf(shape->value).hasRank())
      rank = NodeBinder::typeOf(shape->value).getRank();
    else if (shape->constant)
      rank = shape->constant.getType().getRank();
    else if (shape->ints)
      rank = shape->ints->shape.size();
    if (!t || !t.isInteger(64) || (rank && *rank != 1))
      return b.error() << "the shape (input #1) must be a 1-D int64 tensor";
  }
  // A known shape vector reshaped to a vector ([-1] or its length) or a
  // scalar stays an import-time value.
  if (b.opset() >= 5) {
    std::optional<KnownInts> k = b.knownInts(0), t = b.knownInts(1);
    if (k && t && t->shape.size() == 1 && t->elems.size() <= 1) {
      int64_t n = k->elems.size();
      std::optional<int64_t> want =
          t->elems.empty() ? std::optional<int64_t>(1)
                           : t->elems[0].getConstant();
      if (want && (*want == -1 || *want == n) &&
          (!t->elems.empty() || n == 1)) {
        k->shape.clear();
        if (!t->elems.empty())
          k->shape.push_back(n);
        b.setOutputInts(0, *k);
        return success();
      }
    }
  }
  SmallVector<Expr> target;
  if (b.opset() < 5) {
    std::optional<SmallVector<int64_t>> s = b.attrInts("shape");
    if (!s)
      return b.error() << "needs a 'shape' attribute";
    for (int64_t d : *s)
      target.push_back(Expr::constant(d));
  } else {
    std::optional<KnownInts> k = b.knownInts(1);
    if (!k)
      return importRuntimeReshape(b, allowZero != 0);
    target = k->elems;
  }
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  // Inputs whose dims are not all known only take fully explicit targets.
  RelaxTensorType xt = b.typeOf(*x);
  int inferred = -1;
  Expr known = Expr::constant(1);
  for (auto [k, d] : llvm::enumerate(target)) {
    std::optional<int64_t> c = d.getConstant();
    if (c && *c == 0 && !allowZero) {
      if (!xt.hasRank() || static_cast<int64_t>(k) >= xt.getRank() ||
          !xt.getDims()[k])
        return b.error() << "copies dim " << k
                         << " of an input whose dim is unknown";
      d = xt.getDims()[k];
    } else if (c && *c == -1) {
      if (inferred >= 0)
        return b.error() << "has more than one -1 in its target shape";
      inferred = k;
      continue;
    } else if (c && *c < -1) {
      return b.error() << "has an invalid target dim " << *c;
    }
    known = known * d;
  }
  if (inferred >= 0) {
    FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
    if (failed(dims))
      return failure();
    Expr total = Expr::constant(1);
    for (const Expr &d : *dims)
      total = total * d;
    std::optional<int64_t> kc = known.getConstant();
    if (kc && *kc == 0)
      return b.error() << "cannot infer the -1 dim next to a zero dim";
    target[inferred] = sym::floorDiv(total, known);
    if (!target[inferred])
      return b.error() << "cannot infer the -1 dim symbolically";
  }
  return b.setOutput(0, b.reshape(*x, target));
}

static LogicalResult importFlatten(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t axis = b.attrInt("axis", 1);
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  int64_t rank = dims->size();
  if (axis < -rank || axis > rank)
    return b.error() << "axis " << axis << " is out of range for rank " << rank;
  if (axis < 0)
    axis += rank;
  Expr outer = Expr::constant(1), inner = Expr::constant(1);
  for (int64_t k = 0; k < rank; ++k) {
    if (k < axis)
      outer = outer * (*dims)[k];
    else
      inner = inner * (*dims)[k];
  }
  return b.setOutput(0, b.reshape(*x, {outer, inner}));
}

static LogicalResult importTranspose(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  std::optional<SmallVector<int64_t>> perm = b.attrInts("perm");
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  // onnx's perm is a permutation of [0, rank): relax.permute_dims would
  // also take negative axes, which onnx's checker refuses.
  if (perm)
    for (int64_t p : *perm)
      if (p < 0)
        return b.badAttr("perm", "must be a permutation of the axes (no "
                                 "negative entries), got " +
                                     Twine(p));
  SmallVector<NamedAttribute> attrs;
  if (perm)
    attrs.push_back(b.named("axes", b.i64Array(*perm)));
  return b.setOutput(0, b.create<PermuteDimsOp>(*x, attrs));
}

static LogicalResult importConcat(NodeBinder &b) {
  if (b.numInputs() < 1 || failed(b.requireOutputs(1)))
    return b.error() << "expects at least one input";
  // axis is required from opset 4 on; Concat-1 defaulted it to 1.
  if (b.opset() >= 4 && !b.attr("axis"))
    return b.badAttr("axis", "is required");
  int64_t axis = b.attrInt("axis", 1);
  // Concatenation of shape vectors stays an import-time value.
  bool allKnown = true;
  SmallVector<KnownInts> known;
  for (unsigned i = 0; i < b.numInputs() && allKnown; ++i) {
    std::optional<KnownInts> k = b.knownInts(i);
    allKnown = k && k->shape.size() == 1 && (axis == 0 || axis == -1);
    if (allKnown)
      known.push_back(*k);
  }
  if (allKnown) {
    KnownInts out;
    out.dtype = known[0].dtype;
    for (const KnownInts &k : known) {
      allKnown &= k.dtype == out.dtype;
      llvm::append_range(out.elems, k.elems);
    }
    out.shape = {static_cast<int64_t>(out.elems.size())};
    if (allKnown) {
      b.setOutputInts(0, out);
      return success();
    }
  }
  SmallVector<Value> operands;
  for (unsigned i = 0; i < b.numInputs(); ++i) {
    FailureOr<Value> v = b.input(i);
    if (failed(v))
      return failure();
    operands.push_back(*v);
  }
  return b.setOutput(
      0, b.create<ConcatOp>(operands, {b.named("axis", b.i64Attr(axis))}));
}

static LogicalResult importSplit(NodeBinder &b) {
  if (failed(b.requireInputs(1, 2)))
    return failure();
  int64_t axis = b.attrInt("axis", 0);
  unsigned n = b.numOutputs();
  if (n == 0)
    return b.error() << "has no outputs";
  // The extent of the split axis of `x`.
  auto axisDim = [&](Value x) -> FailureOr<Expr> {
    FailureOr<SmallVector<Expr>> dims = b.dimsOf(x);
    if (failed(dims))
      return failure();
    FailureOr<int64_t> ax = b.normalizeAxis(axis, dims->size());
    if (failed(ax))
      return failure();
    return (*dims)[*ax];
  };
  // The sizes must add up to the axis (onnx's checker and onnxruntime
  // refuse them otherwise): an import error when both are constants, a
  // run-time check otherwise.
  auto requireSum = [&](Value x, const Expr &total) -> LogicalResult {
    FailureOr<Expr> dim = axisDim(x);
    if (failed(dim))
      return failure();
    std::optional<int64_t> t = total.getConstant(), d = dim->getConstant();
    if (t && d) {
      if (*t != *d)
        return b.error() << "has split sizes summing to " << *t
                         << " for an axis of " << *d;
      return success();
    }
    AssertDimsOp::create(b.getBuilder(), b.getLoc(),
                         SymExprAttr::get(b.getContext(), total), "eq",
                         SymExprAttr::get(b.getContext(), *dim), "Split",
                         "sum of the split sizes vs the axis");
    return success();
  };
  std::optional<SmallVector<int64_t>> sizes;
  // Opset 18: "either input 'split' or the attribute 'num_outputs' should
  // be specified, but not both".
  if (b.opset() >= 18 && b.hasInput(1) && b.attr("num_outputs"))
    return b.badAttr("num_outputs", "cannot be given with the split sizes "
                                    "(input #1)");
  if (b.opset() >= 13) {
    if (b.hasInput(1) && !b.knownInts(1)) {
      // Sizes that are run-time data: bound as dims, the split indices are
      // their running sums (split checks them against the axis at run time).
      FailureOr<SmallVector<Expr>> bound =
          b.shapeInput(1, "the split sizes (input #1)");
      FailureOr<Value> x = b.input(0);
      if (failed(bound) || failed(x))
        return failure();
      if (bound->size() != n)
        return b.error() << "has " << bound->size() << " split sizes for "
                         << n << " outputs";
      SmallVector<Expr> indices;
      Expr acc = Expr::constant(0);
      for (size_t k = 0; k + 1 < bound->size(); ++k)
        indices.push_back(acc = acc + (*bound)[k]);
      if (failed(requireSum(*x, acc + bound->back())))
        return failure();
      if (n == 1) {
        b.setOutput(0, *x);
        return success();
      }
      FailureOr<SmallVector<Value>> ys = b.createN<SplitOp>(
          *x,
          {b.named("axis", b.i64Attr(axis)),
           b.named("indices", b.shapeAttr(indices))},
          n);
      if (failed(ys))
        return failure();
      for (unsigned k = 0; k < n; ++k)
        b.setOutput(k, (*ys)[k]);
      return success();
    }
    if (b.hasInput(1)) {
      FailureOr<SmallVector<int64_t>> s = b.constInts(1, "the split sizes");
      if (failed(s))
        return failure();
      sizes = *s;
    }
  } else {
    sizes = b.attrInts("split");
  }
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  SmallVector<NamedAttribute> attrs{b.named("axis", b.i64Attr(axis))};
  if (sizes && !sizes->empty()) {
    if (sizes->size() != n)
      return b.error() << "has " << sizes->size() << " split sizes for " << n
                       << " outputs";
    SmallVector<Expr> indices;
    int64_t acc = 0;
    for (size_t k = 0; k < sizes->size(); ++k) {
      if ((*sizes)[k] < 0)
        return b.error() << "has a negative split size " << (*sizes)[k];
      if (llvm::AddOverflow(acc, (*sizes)[k], acc))
        return b.error() << "has split sizes whose sum overflows";
      if (k + 1 < sizes->size())
        indices.push_back(Expr::constant(acc));
    }
    if (failed(requireSum(*x, Expr::constant(acc))))
      return failure();
    if (n == 1) {
      b.setOutput(0, *x);
      return success();
    }
    attrs.push_back(b.named("indices", b.shapeAttr(indices)));
  } else if (b.opset() >= 18 && b.attr("num_outputs")) {
    // Opset 18: chunks of ceil(dim / n), the last one smaller.
    int64_t numOutputs = b.attrInt("num_outputs", n);
    if (numOutputs != static_cast<int64_t>(n))
      return b.error() << "has num_outputs " << numOutputs << " but " << n
                       << " outputs";
    FailureOr<Expr> axisExtent = axisDim(*x);
    if (failed(axisExtent))
      return failure();
    Expr dim = *axisExtent;
    // onnxruntime refuses more outputs than the axis has elements (some
    // outputs would be empty).
    if (std::optional<int64_t> d = dim.getConstant(); d && *d < int64_t(n))
      return b.badAttr("num_outputs", "is " + Twine(n) +
                                          ", more than the axis length " +
                                          Twine(*d));
    Expr chunk = sym::ceilDiv(dim, Expr::constant(n));
    SmallVector<Expr> indices;
    for (unsigned k = 1; k < n; ++k)
      indices.push_back(
          defaultSymContext().simplify(sym::min(chunk * int64_t(k), dim)));
    attrs.push_back(b.named("indices", b.shapeAttr(indices)));
  } else {
    attrs.push_back(b.named("sections", b.i64Attr(n)));
  }
  if (n == 1) {
    b.setOutput(0, *x);
    return success();
  }
  FailureOr<SmallVector<Value>> ys = b.createN<SplitOp>(*x, attrs, n);
  if (failed(ys))
    return failure();
  for (unsigned k = 0; k < n; ++k)
    b.setOutput(k, (*ys)[k]);
  return success();
}

/// Slice's optional axes (input #3) and steps (input #4), from opset 10;
/// they must be constants (they decide which dims the slice touches and
/// how).
static LogicalResult

readSliceAxesAndSteps(NodeBinder &b, std::optional<SmallVector<int64_t>> &axes,
                      std::optional<SmallVector<int64_t>> &steps) {
  for (auto [i, out, what] :
       {std::tuple(3u, &axes, "the axes"), std::tuple(4u, &steps, "the steps")}) {
    if (!b.hasInput(i))
      continue;
    FailureOr<SmallVector<int64_t>> v = b.constInts(i, what);
    if (failed(v))
      return failure();
    *out = *v;
  }
  return success();
}

/// Slice whose starts or ends are run-time data (axes and steps known,
/// steps positive): both are normalised with relax ops (negative counts
/// from the end, then clamped to [0, dim]) and become dims bound at run
/// time (NodeBinder::bindShape).
static LogicalResult importRuntimeSlice(NodeBinder &b) {
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  std::optional<SmallVector<int64_t>> axesIn, stepsIn;
  if (failed(readSliceAxesAndSteps(b, axesIn, stepsIn)))
    return failure();
  SmallVector<int64_t> axes = axesIn.value_or(SmallVector<int64_t>());
  SmallVector<int64_t> steps = stepsIn.value_or(SmallVector<int64_t>());
  for (int64_t step : steps)
    if (step <= 0)
      return b.runtimeValueError()
             << "starts and ends (inputs #1, #2) computed at run time need "
                "positive steps";
  Type i64 = b.getBuilder().getI64Type();
  SmallVector<Value> bounds;
  for (unsigned i : {1u, 2u}) {
    FailureOr<Value> v = b.input(i);
    if (failed(v) || failed(v = b.castTo(*v, i64)))
      return failure();
    bounds.push_back(*v);
  }
  std::optional<int64_t> n = b.vectorLength(bounds[0]);
  if (!n)
    return b.error() << "starts must be a 1-D tensor of static length";
  if (axes.empty())
    for (int64_t k = 0; k < *n; ++k)
      axes.push_back(k);
  if (int64_t(axes.size()) != *n || (!steps.empty() && int64_t(steps.size()) != *n))
    return b.error() << "starts, ends, axes and steps differ in length";
  KnownInts extents;
  extents.dtype = i64;
  extents.shape = {*n};
  for (int64_t &a : axes) {
    FailureOr<int64_t> ax = b.normalizeAxis(a, dims->size());
    if (failed(ax))
      return failure();
    a = *ax;
    extents.elems.push_back((*dims)[a]);
  }
  FailureOr<Value> extent = b.materialize(extents);
  FailureOr<Value> zero = b.scalar(0, i64);
  if (failed(extent) || failed(zero))
    return failure();
  SmallVector<SmallVector<Expr>> exprs;
  for (Value v : bounds) {
    // v < 0 ? v + extent : v, then clamped to [0, extent].
    FailureOr<Value> negative = b.create<LessOp>({v, *zero});
    FailureOr<Value> shifted = b.create<AddOp>({v, *extent});
    if (failed(negative) || failed(shifted))
      return failure();
    FailureOr<Value> w = b.create<WhereOp>({*negative, *shifted, v});
    if (succeeded(w))
      w = b.create<MaximumOp>({*w, *zero});
    if (succeeded(w))
      w = b.create<MinimumOp>({*w, *extent});
    if (failed(w))
      return failure();
    FailureOr<SmallVector<Expr>> e = b.bindShape(*w, "the slice bounds");
    if (failed(e))
      return failure();
    exprs.push_back(*e);
  }
  SmallVector<NamedAttribute> attrs{b.named("axes", b.i64Array(axes)),
                                    b.named("begin", b.shapeAttr(exprs[0])),
                                    b.named("end", b.shapeAttr(exprs[1]))};
  if (!steps.empty())
    attrs.push_back(b.named("strides", b.i64Array(steps)));
  return b.setOutput(0, b.create<StridedSliceOp>(*x, attrs));
}

/// Slice bounds (input `i`) known at import time, symbolic or constant;
/// constants beyond kBoundLimit (the exporters' INT64_MIN / INT64_MAX for
/// "from the start" / "to the end", which no symbolic expression holds) are
/// clamped to it.
static std::optional<SmallVector<Expr>> knownBounds(NodeBinder &b,
                                                    unsigned i) {
  if (std::optional<KnownInts> k = b.knownInts(i))
    return k->elems;
  DenseElementsAttr c = b.knownConstant(i);
  if (!c || !isa<IntegerType>(c.getElementType()))
    return std::nullopt;
  bool isUnsigned = c.getElementType().isUnsignedInteger();
  SmallVector<Expr> out;
  for (const APInt &v : c.getValues<APInt>()) {
    int64_t x = isUnsigned ? int64_t(std::min<uint64_t>(v.getZExtValue(),
                                                        uint64_t(INT64_MAX)))
                           : v.getSExtValue();
    out.push_back(Expr::constant(std::clamp(x, -kBoundLimit, kBoundLimit)));
  }
  return out;
}

static LogicalResult importSlice(NodeBinder &b) {
  SmallVector<Expr> starts, ends;
  std::optional<SmallVector<int64_t>> axes, steps;
  if (b.opset() < 10) {
    if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
      return failure();
    std::optional<SmallVector<int64_t>> s = b.attrInts("starts"),
                                        e = b.attrInts("ends");
    axes = b.attrInts("axes");
    if (!s || !e)
      return b.error() << "needs 'starts' and 'ends' attributes";
    for (int64_t v : *s)
      starts.push_back(Expr::constant(v));
    for (int64_t v : *e)
      ends.push_back(Expr::constant(v));
  } else {
    if (failed(b.requireInputs(3, 5)) || failed(b.requireOutputs(1)) ||
        failed(requireIndexInputs(b, {1, 2, 3, 4})))
      return failure();
    std::optional<SmallVector<Expr>> s = knownBounds(b, 1),
                                     e = knownBounds(b, 2);
    if (!s || !e)
      return importRuntimeSlice(b);
    starts = *s;
    ends = *e;
    if (failed(readSliceAxesAndSteps(b, axes, steps)))
      return failure();
  }
  size_t n = starts.size();
  if (ends.size() != n || (axes && axes->size() != n) ||
      (steps && steps->size() != n))
    return b.error() << "starts, ends, axes and steps differ in length";
  // Clamp huge constant bounds ("to the end") into the symbolic range.
  for (SmallVector<Expr> *e : {&starts, &ends})
    for (Expr &v : *e)
      if (std::optional<int64_t> c = v.getConstant())
        v = Expr::constant(std::clamp(*c, -kBoundLimit, kBoundLimit));
  if (steps)
    for (int64_t s : *steps)
      if (s == 0)
        return b.error() << "has a zero step";

  // A slice of an import-time shape vector stays an import-time value.
  if (std::optional<KnownInts> k = b.knownInts(0)) {
    bool simple = k->shape.size() == 1 && n == 1 &&
                  (!axes || (*axes)[0] == 0 || (*axes)[0] == -1) &&
                  (!steps || (*steps)[0] == 1);
    std::optional<int64_t> begin = starts[0].getConstant(),
                           e = ends[0].getConstant();
    if (simple && begin && e) {
      int64_t d = k->shape[0];
      int64_t lo = std::clamp(*begin < 0 ? *begin + d : *begin, int64_t(0), d);
      int64_t hi = std::clamp(*e < 0 ? *e + d : *e, int64_t(0), d);
      KnownInts out;
      out.dtype = k->dtype;
      for (int64_t i = lo; i < hi; ++i)
        out.elems.push_back(k->elems[i]);
      out.shape = {static_cast<int64_t>(out.elems.size())};
      b.setOutputInts(0, out);
      return success();
    }
  }
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> axisList;
  if (axes)
    axisList = *axes;
  else
    for (size_t k = 0; k < n; ++k)
      axisList.push_back(k);
  SmallVector<NamedAttribute> attrs{b.named("axes", b.i64Array(axisList)),
                                    b.named("begin", b.shapeAttr(starts)),
                                    b.named("end", b.shapeAttr(ends))};
  if (steps)
    attrs.push_back(b.named("strides", b.i64Array(*steps)));
  return b.setOutput(0, b.create<StridedSliceOp>(*x, attrs));
}

static LogicalResult importGather(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t axis = b.attrInt("axis", 0);
  std::optional<KnownInts> data = b.knownInts(0), idx = b.knownInts(1);
  // Gathering from a shape vector with constant indices folds.
  if (data && idx && data->shape.size() == 1 && (axis == 0 || axis == -1)) {
    KnownInts out;
    out.dtype = data->dtype;
    out.shape = idx->shape;
    int64_t d = data->shape[0];
    bool ok = true;
    for (const Expr &e : idx->elems) {
      std::optional<int64_t> c = e.getConstant();
      if (!c || *c < -d || *c >= d) {
        ok = false;
        break;
      }
      out.elems.push_back(data->elems[*c < 0 ? *c + d : *c]);
    }
    if (ok) {
      b.setOutputInts(0, out);
      return success();
    }
  }
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  FailureOr<int64_t> ax = b.normalizeAxis(axis, dims->size());
  if (failed(ax))
    return failure();
  Expr dim = (*dims)[*ax];
  // relax.take counts negative indices from the end (numpy), as ONNX does.
  FailureOr<Value> indices = b.input(1);
  if (failed(indices))
    return failure();
  return b.setOutput(
      0, b.create<TakeOp>({*x, *indices}, {b.named("axis", b.i64Attr(*ax))}));
}

static LogicalResult importUnsqueeze(NodeBinder &b) {
  SmallVector<int64_t> axes;
  if (b.opset() >= 13) {
    if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
      return failure();
    FailureOr<SmallVector<int64_t>> a = b.constInts(1, "the axes");
    if (failed(a))
      return failure();
    axes = *a;
  } else {
    if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
      return failure();
    std::optional<SmallVector<int64_t>> a = b.attrInts("axes");
    if (!a)
      return b.error() << "needs an 'axes' attribute";
    axes = *a;
  }
  // Unsqueezing a known scalar/vector keeps it an import-time value.
  if (std::optional<KnownInts> k = b.knownInts(0)) {
    if (k->shape.size() + axes.size() == 1) {
      k->shape = {static_cast<int64_t>(k->elems.size())};
      b.setOutputInts(0, *k);
      return success();
    }
  }
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  return b.setOutput(
      0, b.create<ExpandDimsOp>(*x, {b.named("axes", b.i64Array(axes))}));
}

static LogicalResult importSqueeze(NodeBinder &b) {
  std::optional<SmallVector<int64_t>> axes;
  if (b.opset() >= 13) {
    if (failed(b.requireInputs(1, 2)) || failed(b.requireOutputs(1)))
      return failure();
    if (b.hasInput(1)) {
      FailureOr<SmallVector<int64_t>> a = b.constInts(1, "the axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
  } else {
    if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
      return failure();
    axes = b.attrInts("axes");
  }
  if (std::optional<KnownInts> k = b.knownInts(0)) {
    if (k->shape.size() == 1 && k->elems.size() == 1) {
      k->shape.clear();
      b.setOutputInts(0, *k);
      return success();
    }
  }
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  SmallVector<NamedAttribute> attrs;
  if (axes)
    attrs.push_back(b.named("axes", b.i64Array(*axes)));
  return b.setOutput(0, b.create<SqueezeOp>(*x, attrs));
}

static LogicalResult importExpand(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<SmallVector<Expr>> target =
      b.shapeInput(1, "the target shape (input #1)");
  if (failed(target))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  // Bidirectional (numpy) broadcast of the input shape and the target. Two
  // dims the engine cannot relate give their max: broadcast_to checks that
  // the input's is the result or 1, an assertion that the target's is.
  const sym::Context &ctx = defaultSymContext();
  size_t rank = std::max(dims->size(), target->size());
  SmallVector<Expr> out(rank);
  SmallVector<std::pair<Expr, Expr>> targetChecks;
  for (size_t i = 0; i < rank; ++i) {
    Expr from = i + dims->size() >= rank ? (*dims)[i + dims->size() - rank]
                                         : Expr::constant(1);
    Expr to = i + target->size() >= rank ? (*target)[i + target->size() - rank]
                                         : Expr::constant(1);
    std::optional<int64_t> ca = from.getConstant(), cb = to.getConstant();
    if (cb && *cb == 1) {
      out[i] = from;
    } else if ((ca && *ca == 1) || ctx.provablyEqual(from, to)) {
      out[i] = to;
    } else if (ca && cb) {
      return b.error() << "cannot broadcast dim " << *ca << " to " << *cb;
    } else {
      out[i] = ctx.simplify(sym::max(from, to));
      targetChecks.push_back({to, out[i]});
    }
  }
  for (auto [to, dim] : targetChecks)
    AssertDimsOp::create(b.getBuilder(), b.getLoc(), SymExprAttr::get(b.getContext(), to),
                         "broadcast", SymExprAttr::get(b.getContext(), dim),
                         "Expand", "target shape dim");
  return b.setOutput(
      0, b.create<BroadcastToOp>(*x, {b.named("shape", b.shapeAttr(out))}));
}

void onnx_import::addShapeOps(OpHandlerTable &table) {
  table.add("Concat", importConcat);
  table.add("Expand", importExpand);
  table.add("Flatten", importFlatten);
  table.add("Gather", importGather);
  table.add("Reshape", importReshape);
  table.add("Slice", importSlice);
  table.add("Split", importSplit);
  table.add("Squeeze", importSqueeze);
  table.add("Transpose", importTranspose);
  table.add("Unsqueeze", importUnsqueeze);
}
