//===- ShapeValueOps.cpp - ONNX ops producing shapes, constants -----------===//
//
// Shape, Size, ConstantOfShape, Range, Constant and Identity: the ops
// that produce shapes or constants. On import-time values they stay
// symbolic integer vectors (ShapeOps.cpp).
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

void onnx_import::addShapeValueOps(OpHandlerTable &table) {
  table.add("Constant", importConstant);
  table.add("ConstantOfShape", importConstantOfShape);
  table.add("Identity", importIdentity);
  table.add("Range", importRange);
  table.add("Shape", importShape);
  table.add("Size", importSize);
}
