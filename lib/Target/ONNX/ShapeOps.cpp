//===- ShapeOps.cpp - ONNX shape manipulation ops -------------------------===//
//
// Reshape, Flatten, Transpose, Concat, Split, Slice, Gather, Unsqueeze,
// Squeeze, Expand, Tile, Trilu, Pad, the index ops (GatherElements, GatherND,
// ScatterND, ScatterElements as ScatterND) and the ops that produce shapes or
// constants: Shape, Size, ConstantOfShape, Range, Constant, Identity. Shape
// computations on import-time values (Shape -> Gather -> Concat, ...) stay
// symbolic integer vectors, so that shape targets become symbolic attributes
// of relax ops.
//
//===----------------------------------------------------------------------===//

#include "AttrChecks.h"
#include "Importer.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

static LogicalResult importIdentity(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  Slot *s = b.inputSlot(0);
  if (!s)
    return failure();
  b.setOutputSlot(0, *s);
  return success();
}

static LogicalResult importConstant(NodeBinder &b) {
  if (failed(b.requireInputs(0, 0)) || failed(b.requireOutputs(1)))
    return failure();
  DenseElementsAttr value;
  unsigned found = 0;
  for (const onnx::AttributeProto &a : b.getNode().attribute()) {
    b.acceptAttr(a.name());
    StringRef name = a.name();
    if (name == "value" && a.type() == onnx::AttributeProto::TENSOR) {
      FailureOr<DenseElementsAttr> t = b.convertTensor(a.t());
      if (failed(t))
        return failure();
      value = *t;
    } else if (name == "value_float" &&
               a.type() == onnx::AttributeProto::FLOAT) {
      value = DenseElementsAttr::get(
          RankedTensorType::get({}, b.getBuilder().getF32Type()), a.f());
    } else if (name == "value_floats" &&
               a.type() == onnx::AttributeProto::FLOATS) {
      SmallVector<float> v(a.floats().begin(), a.floats().end());
      value = DenseElementsAttr::get(
          RankedTensorType::get({int64_t(v.size())},
                                b.getBuilder().getF32Type()),
          ArrayRef<float>(v));
    } else if (name == "value_int" && a.type() == onnx::AttributeProto::INT) {
      value = DenseElementsAttr::get(
          RankedTensorType::get({}, b.getBuilder().getI64Type()),
          int64_t(a.i()));
    } else if (name == "value_ints" && a.type() == onnx::AttributeProto::INTS) {
      SmallVector<int64_t> v(a.ints().begin(), a.ints().end());
      value = DenseElementsAttr::get(
          RankedTensorType::get({int64_t(v.size())},
                                b.getBuilder().getI64Type()),
          ArrayRef<int64_t>(v));
    } else {
      return b.unsupportedAttrError(name);
    }
    ++found;
  }
  if (found != 1)
    return b.error() << "needs exactly one value attribute";
  b.setOutputConstant(0, value);
  return success();
}

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

static LogicalResult importShape(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t start = b.attrInt("start", 0);
  std::optional<int64_t> end;
  if (const onnx::AttributeProto *a = b.attr("end"))
    end = a->i();
  if (b.opset() < 15 && (start != 0 || end))
    return b.error() << "start/end need opset 15";
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  int64_t rank = dims->size();
  int64_t lo = std::clamp(start < 0 ? start + rank : start, int64_t(0), rank);
  int64_t e = end ? *end : rank;
  int64_t hi = std::clamp(e < 0 ? e + rank : e, int64_t(0), rank);
  KnownInts out;
  out.dtype = b.getBuilder().getI64Type();
  for (int64_t k = lo; k < hi; ++k)
    out.elems.push_back((*dims)[k]);
  out.shape = {static_cast<int64_t>(out.elems.size())};
  b.setOutputInts(0, out);
  return success();
}

static LogicalResult importSize(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  Expr n = Expr::constant(1);
  for (const Expr &d : *dims)
    n = n * d;
  KnownInts out;
  out.dtype = b.getBuilder().getI64Type();
  out.elems = {n};
  b.setOutputInts(0, out);
  return success();
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

static LogicalResult importConstantOfShape(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<SmallVector<Expr>> shape = b.shapeInput(0, "the shape (input #0)");
  if (failed(shape))
    return failure();
  Type dtype = b.getBuilder().getF32Type();
  double value = 0;
  if (const onnx::AttributeProto *a = b.attr("value")) {
    if (a->type() != onnx::AttributeProto::TENSOR)
      return b.badAttr("value", "must be a tensor");
    FailureOr<DenseElementsAttr> t = b.convertTensor(a->t());
    if (failed(t))
      return failure();
    if (t->getNumElements() != 1)
      return b.badAttr("value", "must hold one element");
    dtype = t->getElementType();
    if (isa<FloatType>(dtype))
      value = (*t->getValues<APFloat>().begin()).convertToDouble();
    else if (dtype.isUnsignedInteger() || dtype.isInteger(1))
      value =
          static_cast<double>((*t->getValues<APInt>().begin()).getZExtValue());
    else
      value =
          static_cast<double>((*t->getValues<APInt>().begin()).getSExtValue());
  }
  for (const Expr &e : *shape)
    if (std::optional<int64_t> c = e.getConstant(); c && *c < 0)
      return b.error() << "has a negative dim " << *c;
  // A small integer vector of a constant length (the exporters' `expand`
  // pattern builds one to compare against) stays an import-time value.
  if (isa<IntegerType>(dtype) && !dtype.isInteger(1) &&
      dtype.getIntOrFloatBitWidth() >= 32 && shape->size() == 1) {
    std::optional<int64_t> length = (*shape)[0].getConstant();
    if (length && *length <= kMaxKnownInts) {
      KnownInts out;
      out.dtype = dtype;
      out.shape = {*length};
      out.elems.assign(*length, Expr::constant(static_cast<int64_t>(value)));
      b.setOutputInts(0, out);
      return success();
    }
  }
  return b.setOutput(
      0, b.create<FullOp>({}, {b.named("shape", b.shapeAttr(*shape)),
                               b.named("value", b.f64Attr(value)),
                               b.named("dtype", TypeAttr::get(dtype))}));
}

/// Range whose start, limit or delta is run-time data: the length
/// max(ceil((limit - start) / delta), 0), computed in f64 and clamped to
/// kMaxElements, becomes a dim bound at run time (NodeBinder::bindShape);
/// the values are start + arange(length) * delta.
static LogicalResult importRuntimeRange(NodeBinder &b) {
  FailureOr<Value> start = b.input(0), limit = b.input(1), delta = b.input(2);
  if (failed(start) || failed(limit) || failed(delta))
    return failure();
  for (Value v : {*start, *limit, *delta})
    if (b.typeOf(v).getShape().getRank() != 0)
      return b.error() << "start, limit and delta must be scalars";
  Type dtype = b.typeOf(*start).getDtype();
  Type f64 = b.getBuilder().getF64Type(), i64 = b.getBuilder().getI64Type();
  FailureOr<Value> s = b.castTo(*start, f64), l = b.castTo(*limit, f64),
                   d = b.castTo(*delta, f64);
  if (failed(s) || failed(l) || failed(d))
    return failure();
  FailureOr<Value> span = b.create<SubtractOp>({*l, *s});
  FailureOr<Value> steps = failed(span) ? span : b.create<DivideOp>({*span, *d});
  FailureOr<Value> count = failed(steps) ? steps : b.create<CeilOp>(*steps);
  if (succeeded(count))
    count = b.create<ClipOp>(
        *count, {b.named("min", b.f64Attr(0)),
                 b.named("max", b.f64Attr(static_cast<double>(kMaxElements)))});
  if (succeeded(count))
    count = b.castTo(*count, i64);
  if (succeeded(count))
    count = b.reshape(*count, {Expr::constant(1)});
  if (failed(count))
    return failure();
  FailureOr<SmallVector<Expr>> n = b.bindShape(*count, "the range length");
  if (failed(n))
    return failure();
  FailureOr<Value> k = b.arange(Expr::constant(0), (*n)[0], Expr::constant(1),
                                dtype);
  FailureOr<Value> scaled = failed(k) ? k : b.create<MultiplyOp>({*k, *delta});
  return b.setOutput(0, failed(scaled)
                            ? scaled
                            : b.create<AddOp>({*scaled, *start}));
}

static LogicalResult importRange(NodeBinder &b) {
  if (failed(b.requireInputs(3, 3)) || failed(b.requireOutputs(1)))
    return failure();
  // start, limit and delta share one type (T); a float start with an
  // integer limit must not be read as an empty range.
  Type t0 = inputDtype(b, 0), t1 = inputDtype(b, 1), t2 = inputDtype(b, 2);
  if (!t0 || !t1 || !t2)
    return failure();
  if (t0 != t1 || t0 != t2)
    return b.error() << "start, limit and delta must have one type, got " << t0
                     << ", " << t1 << " and " << t2;
  std::optional<KnownInts> s = b.knownInts(0), l = b.knownInts(1),
                           d = b.knownInts(2);
  if (s && l && d && s->elems.size() == 1 && l->elems.size() == 1 &&
      d->elems.size() == 1)
    return b.setOutput(
        0, b.arange(s->elems[0], l->elems[0], d->elems[0], s->dtype));
  // Floating-point ranges of constants are computed here.
  DenseElementsAttr cs = b.knownConstant(0), cl = b.knownConstant(1),
                    cd = b.knownConstant(2);
  if (!cs || !cl || !cd || cs.getNumElements() != 1 ||
      cl.getNumElements() != 1 || cd.getNumElements() != 1 ||
      !isa<FloatType>(cs.getElementType()))
    return importRuntimeRange(b);
  auto get = [](DenseElementsAttr a) {
    return (*a.getValues<APFloat>().begin()).convertToDouble();
  };
  double start = get(cs), limit = get(cl), delta = get(cd);
  if (delta == 0 || !std::isfinite(start) || !std::isfinite(limit) ||
      !std::isfinite(delta))
    return b.error() << "has an invalid range";
  double count = std::ceil((limit - start) / delta);
  if (count > double(kMaxElements))
    return b.error() << "range is too long";
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(count));
  Type dtype = cs.getElementType();
  SmallVector<APFloat> values;
  for (int64_t k = 0; k < n; ++k) {
    APFloat f(start + k * delta);
    bool lost;
    f.convert(cast<FloatType>(dtype).getFloatSemantics(),
              APFloat::rmNearestTiesToEven, &lost);
    values.push_back(f);
  }
  b.setOutputConstant(
      0, DenseElementsAttr::get(RankedTensorType::get({n}, dtype), values));
  return success();
}

static LogicalResult importTile(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  if (b.knownConstant(1)) {
    FailureOr<SmallVector<int64_t>> repeats = b.constInts(1, "the repeats");
    if (failed(repeats))
      return failure();
    // onnx wants one repeat per dim; relax.tile, like numpy, would pad a
    // shorter list with leading ones.
    RelaxTensorType xt = NodeBinder::typeOf(*x);
    if (xt.hasRank() && static_cast<int64_t>(repeats->size()) != xt.getRank())
      return b.error() << "has " << repeats->size() << " repeats for rank "
                       << xt.getRank();
    return b.setOutput(
        0, b.create<TileOp>(*x, {b.named("repeats", b.i64Array(*repeats))}));
  }
  // Symbolic or run-time repeats r: [d0, d1] viewed as [1, d0, 1, d1],
  // broadcast to [r0, d0, r1, d1] and flattened to [r0 * d0, r1 * d1].
  FailureOr<SmallVector<Expr>> repeats =
      b.shapeInput(1, "the repeats (input #1)");
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(repeats) || failed(dims))
    return failure();
  if (repeats->size() != dims->size())
    return b.error() << "has " << repeats->size() << " repeats for rank "
                     << dims->size();
  SmallVector<Expr> spread, broadcast, out;
  for (auto [d, r] : llvm::zip(*dims, *repeats)) {
    spread.append({Expr::constant(1), d});
    broadcast.append({r, d});
    out.push_back(r * d);
  }
  FailureOr<Value> y = b.reshape(*x, spread);
  if (succeeded(y))
    y = b.create<BroadcastToOp>(*y, {b.named("shape", b.shapeAttr(broadcast))});
  return b.setOutput(0, failed(y) ? y : b.reshape(*y, out));
}

/// A scalar attribute value read from a one-element constant of any dtype.
static double scalarValue(DenseElementsAttr c) {
  Type t = c.getElementType();
  if (isa<FloatType>(t))
    return (*c.getValues<APFloat>().begin()).convertToDouble();
  APInt v = *c.getValues<APInt>().begin();
  if (t.isUnsignedInteger() || t.isInteger(1))
    return static_cast<double>(v.getZExtValue());
  return static_cast<double>(v.getSExtValue());
}

/// Trilu: relax.trilu with `k` from the optional input, known at import
/// time as a constant or a symbolic integer. A `k` that is run-time data
/// composes the mask instead: `j - i >= k` (upper) or `j - i <= k` over
/// the last two dims, and a `where` against 0.
static LogicalResult importTrilu(NodeBinder &b) {
  if (failed(b.requireInputs(1, 2)) || failed(b.requireOutputs(1)))
    return failure();
  bool upper = attrFlag(b, "upper", true);
  if (b.hasBadAttr())
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Expr k = Expr::constant(0);
  Value runtimeK;
  if (b.hasInput(1)) {
    if (std::optional<KnownInts> known = b.knownInts(1)) {
      if (known->elems.size() != 1)
        return b.error() << "k (input #1) must be a scalar";
      k = known->elems[0];
      if (std::optional<int64_t> c = k.getConstant())
        k = Expr::constant(std::clamp(*c, -kBoundLimit, kBoundLimit));
    } else {
      FailureOr<Value> v = b.input(1);
      if (failed(v))
        return failure();
      runtimeK = *v;
    }
  }
  if (!runtimeK)
    return b.setOutput(
        0, b.create<TriluOp>(*x, {b.named("upper", b.boolAttr(upper)),
                                  b.named("k", b.exprAttr(k))}));
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  if (dims->size() < 2)
    return b.error() << "needs an input of rank >= 2, got rank "
                     << dims->size();
  Type i64 = b.getBuilder().getI64Type();
  Expr n = (*dims)[dims->size() - 2], m = dims->back();
  FailureOr<Value> rows = axisIota(b, n, 0, 2), cols = axisIota(b, m, 1, 2);
  FailureOr<Value> kv = b.castTo(runtimeK, i64);
  if (failed(rows) || failed(cols) || failed(kv) ||
      failed(kv = b.reshape(*kv, {})))
    return failure();
  FailureOr<Value> diff = b.create<SubtractOp>({*cols, *rows});
  if (failed(diff))
    return failure();
  FailureOr<Value> keep = upper ? b.create<GreaterEqualOp>({*diff, *kv})
                                : b.create<LessEqualOp>({*diff, *kv});
  FailureOr<Value> zero = b.scalar(0.0, b.typeOf(*x).getDtype());
  if (failed(keep) || failed(zero))
    return failure();
  return b.setOutput(0, b.create<WhereOp>({*keep, *x, *zero}));
}

/// Pad: relax.pad. Opset 1 reads the `paddings` attribute, opset 2 `pads`
/// and `value`; from opset 11 the pads (known at import time, constant or
/// symbolic, or run-time data bound as non-negative dims) and the constant
/// value are inputs, from opset 18 an `axes`
/// input selects the padded dims, and opset 19 adds mode `wrap`. A
/// constant value that is run-time data pads with 0 and selects the value
/// where a padded all-true mask is false.
static LogicalResult importPad(NodeBinder &b) {
  int64_t opset = b.opset();
  if (failed(b.requireInputs(opset >= 11 ? 2 : 1,
                             opset >= 18 ? 4 : (opset >= 11 ? 3 : 1))) ||
      failed(b.requireOutputs(1)))
    return failure();
  std::string mode = b.attrString("mode", "constant");
  SmallVector<Expr> pads;
  std::optional<SmallVector<int64_t>> axes;
  double value = 0;
  Value runtimeValue;
  if (opset < 11) {
    StringRef name = opset < 2 ? "paddings" : "pads";
    std::optional<SmallVector<int64_t>> p = b.attrInts(name);
    value = b.attrFloat("value", 0.0f);
    if (b.hasBadAttr())
      return failure();
    if (!p)
      return b.error() << "needs a '" << name << "' attribute";
    for (int64_t v : *p)
      pads.push_back(Expr::constant(v));
  } else {
    if (b.hasBadAttr())
      return failure();
    // Pads that are run-time data are bound as dims (so they must not be
    // negative at run time: cropping needs import-time pads).
    FailureOr<SmallVector<Expr>> p = b.shapeInput(1, "the pads (input #1)");
    if (failed(p))
      return failure();
    pads = *p;
    if (b.hasInput(2)) {
      if (DenseElementsAttr c = b.knownConstant(2)) {
        if (c.getNumElements() != 1)
          return b.error() << "constant_value (input #2) must be a scalar";
        value = scalarValue(c);
      } else {
        FailureOr<Value> v = b.input(2);
        if (failed(v))
          return failure();
        runtimeValue = *v;
      }
    }
    if (opset >= 18 && b.hasInput(3)) {
      FailureOr<SmallVector<int64_t>> a = b.constInts(3, "the axes");
      if (failed(a))
        return failure();
      axes = *a;
    }
  }
  if (mode != "constant" && mode != "reflect" && mode != "edge" &&
      !(mode == "wrap" && opset >= 19))
    return b.badAttr("mode", "must be 'constant', 'reflect', 'edge'" +
                                 Twine(opset >= 19 ? " or 'wrap'" : "") +
                                 ", got '" + mode + "'");
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  RelaxTensorType xt = b.typeOf(*x);
  if (!xt.hasRank())
    return b.error() << "needs an input of known rank, got " << xt;
  int64_t rank = xt.getRank();
  FailureOr<SmallVector<int64_t>> normalized = b.normalizeAxes(axes, rank);
  if (failed(normalized))
    return failure();
  SmallVector<int64_t> axisList = *normalized;
  // A repeated axis would have its pads silently overwritten.
  for (int64_t i = 0, e = axisList.size(); i < e; ++i)
    for (int64_t j = 0; j < i; ++j)
      if (axisList[i] == axisList[j])
        return b.error() << "axes (input #3) repeat axis " << (*axes)[i]
                         << " (dim " << axisList[i] << " of rank " << rank
                         << ")";
  int64_t n = axisList.size();
  if (static_cast<int64_t>(pads.size()) != 2 * n)
    return b.error() << "has " << pads.size() << " pads for " << n
                     << " axes (expected " << 2 * n << ")";
  SmallVector<Expr> before(rank, Expr::constant(0)),
      after(rank, Expr::constant(0));
  for (int64_t i = 0; i < n; ++i) {
    before[axisList[i]] = pads[i];
    after[axisList[i]] = pads[i + n];
  }
  auto pad = [&](Value v, double fill) {
    return b.create<PadOp>(v,
                           {b.named("pad_before", b.shapeAttr(before)),
                            b.named("pad_after", b.shapeAttr(after)),
                            b.named("mode", b.getBuilder().getStringAttr(mode)),
                            b.named("value", b.f64Attr(fill))});
  };
  if (mode != "constant" || !runtimeValue)
    return b.setOutput(0, pad(*x, mode == "constant" ? value : 0.0));
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  Type i1 = b.getBuilder().getI1Type();
  FailureOr<Value> ones =
      b.create<FullOp>({}, {b.named("shape", b.shapeAttr(*dims)),
                            b.named("value", b.f64Attr(1.0)),
                            b.named("dtype", TypeAttr::get(i1))});
  FailureOr<Value> inside = failed(ones) ? ones : pad(*ones, 0.0);
  FailureOr<Value> padded = pad(*x, 0.0);
  FailureOr<Value> fill = b.castTo(runtimeValue, xt.getDtype());
  if (failed(inside) || failed(padded) || failed(fill))
    return failure();
  // A one-element 1-D value (older exporters) becomes a scalar.
  RelaxTensorType ft = b.typeOf(*fill);
  if ((!ft.hasRank() || ft.getRank() != 0) &&
      failed(fill = b.reshape(*fill, {})))
    return failure();
  return b.setOutput(0, b.create<WhereOp>({*inside, *padded, *fill}));
}

/// `OpTy` (a gather) of the data and indices inputs, its integer attribute
/// `name` set to `value`.
template <typename OpTy>
static LogicalResult importGatherOf(NodeBinder &b, StringRef name,
                                    int64_t value) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)) ||
      b.hasBadAttr())
    return failure();
  FailureOr<Value> data = b.input(0), indices = b.input(1);
  if (failed(data) || failed(indices))
    return failure();
  return b.setOutput(0, b.create<OpTy>({*data, *indices},
                                       {b.named(name, b.i64Attr(value))}));
}

static LogicalResult importGatherElements(NodeBinder &b) {
  return importGatherOf<GatherElementsOp>(b, "axis", b.attrInt("axis", 0));
}

/// GatherND; `batch_dims` from opset 12.
static LogicalResult importGatherND(NodeBinder &b) {
  int64_t batchDims = b.opset() >= 12 ? b.attrInt("batch_dims", 0) : 0;
  if (batchDims < 0)
    return b.badAttr("batch_dims", "must not be negative");
  return importGatherOf<GatherNDOp>(b, "batch_dims", batchDims);
}

/// The `reduction` attribute of ScatterND and ScatterElements: from opset
/// 16 `none`, `add` or `mul`, from opset 18 also `max` and `min`.
static FailureOr<std::string> scatterReduction(NodeBinder &b) {
  if (b.opset() < 16)
    return std::string("none");
  std::string r = b.attrString("reduction", "none");
  if (b.hasBadAttr())
    return failure();
  if (r == "none" || r == "add" || r == "mul" ||
      (b.opset() >= 18 && (r == "max" || r == "min")))
    return r;
  (void)b.badAttr("reduction",
                  "must be 'none', 'add', 'mul'" +
                      Twine(b.opset() >= 18 ? ", 'max' or 'min'" : "") +
                      ", got '" + r + "'");
  return failure();
}

static LogicalResult importScatterND(NodeBinder &b) {
  if (failed(b.requireInputs(3, 3)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<std::string> reduction = scatterReduction(b);
  if (failed(reduction))
    return failure();
  FailureOr<Value> data = b.input(0), indices = b.input(1),
                   updates = b.input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  return b.setOutput(
      0, b.create<ScatterNDOp>(
             {*data, *indices, *updates},
             {b.named("reduction", b.getBuilder().getStringAttr(*reduction))}));
}

/// ScatterElements (and Scatter, its opset 9 name) as relax.scatter_nd:
/// every element of `indices` becomes a full index tuple, its own value at
/// `axis` and its position elsewhere (`arange`s broadcast to the indices'
/// shape), so updates (the indices' shape) scatter one element per tuple.
static LogicalResult importScatterElements(NodeBinder &b) {
  if (failed(b.requireInputs(3, 3)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t axis = b.attrInt("axis", 0);
  FailureOr<std::string> reduction = scatterReduction(b);
  if (failed(reduction) || b.hasBadAttr())
    return failure();
  FailureOr<Value> data = b.input(0), indices = b.input(1),
                   updates = b.input(2);
  if (failed(data) || failed(indices) || failed(updates))
    return failure();
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*indices);
  if (failed(dims))
    return failure();
  int64_t rank = dims->size();
  RelaxTensorType dt = b.typeOf(*data);
  if (dt.hasRank() && dt.getRank() != rank)
    return b.error() << "indices must have the data's rank " << dt.getRank()
                     << ", got rank " << rank;
  FailureOr<int64_t> ax = b.normalizeAxis(axis, rank);
  if (failed(ax))
    return failure();
  Type i64 = b.getBuilder().getI64Type();
  SmallVector<Expr> tupleDims(*dims);
  tupleDims.push_back(Expr::constant(1));
  SmallVector<Value> parts;
  for (int64_t j = 0; j < rank; ++j) {
    FailureOr<Value> part;
    if (j == *ax) {
      part = b.castTo(*indices, i64);
      if (succeeded(part))
        part = b.create<ExpandDimsOp>(*part,
                                      {b.named("axes", b.i64Array({rank}))});
    } else {
      part = axisIota(b, (*dims)[j], j, rank + 1);
      if (succeeded(part))
        part = b.create<BroadcastToOp>(
            *part, {b.named("shape", b.shapeAttr(tupleDims))});
    }
    if (failed(part))
      return failure();
    parts.push_back(*part);
  }
  FailureOr<Value> tuples =
      parts.size() == 1
          ? FailureOr<Value>(parts[0])
          : b.create<ConcatOp>(parts, {b.named("axis", b.i64Attr(rank))});
  if (failed(tuples))
    return failure();
  return b.setOutput(
      0, b.create<ScatterNDOp>(
             {*data, *tuples, *updates},
             {b.named("reduction", b.getBuilder().getStringAttr(*reduction))}));
}

void onnx_import::addShapeOps(OpHandlerTable &table) {
  table.add("Concat", importConcat);
  table.add("Constant", importConstant);
  table.add("ConstantOfShape", importConstantOfShape);
  table.add("Expand", importExpand);
  table.add("Flatten", importFlatten);
  table.add("Gather", importGather);
  table.add("GatherElements", importGatherElements, /*sinceVersion=*/11);
  table.add("GatherND", importGatherND, /*sinceVersion=*/11);
  table.add("Identity", importIdentity);
  table.add("Pad", importPad);
  table.add("Range", importRange);
  table.add("Reshape", importReshape);
  table.add("Scatter", importScatterElements, /*sinceVersion=*/9);
  table.add("ScatterElements", importScatterElements, /*sinceVersion=*/11);
  table.add("ScatterND", importScatterND, /*sinceVersion=*/11);
  table.add("Shape", importShape);
  table.add("Size", importSize);
  table.add("Slice", importSlice);
  table.add("Split", importSplit);
  table.add("Squeeze", importSqueeze);
  table.add("Tile", importTile);
  table.add("Transpose", importTranspose);
  table.add("Trilu", importTrilu, /*sinceVersion=*/14);
  table.add("Unsqueeze", importUnsqueeze);
}
