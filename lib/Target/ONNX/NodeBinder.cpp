//===- NodeBinder.cpp - One ONNX node's inputs, attributes and outputs ---===//
//
// The NodeBinder of Importer.h: how an op handler reads its node's inputs
// (as relax values, known integers or constants), its attributes (each
// marked handled, the rest reported), and sets its outputs; the small
// relax builders the handlers share (scalars, arange, reshape, casts).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;


InFlightDiagnostic NodeBinder::error() {
  return emitError(loc) << "ONNX " << node.op_type() << " node '" << node.name()
                        << "' (opset " << opset() << "): ";
}

InFlightDiagnostic NodeBinder::unsupportedAttrError(StringRef name) {
  return emitError(loc) << "unsupported attribute '" << name << "' of ONNX op '"
                        << node.op_type() << "' (node '" << node.name()
                        << "', opset " << opset() << ")";
}

LogicalResult NodeBinder::badAttr(StringRef name, const Twine &why) {
  attrFailed = true;
  return error() << "attribute '" << name << "' " << why;
}

LogicalResult NodeBinder::verifyAttrsHandled() {
  if (attrFailed)
    return failure();
  // onnx's checker refuses a repeated attribute (the binder reads the
  // first).
  llvm::StringSet<> seen;
  for (const onnx::AttributeProto &a : node.attribute())
    if (!seen.insert(a.name()).second)
      return error() << "attribute '" << a.name() << "' appears twice";
  for (const onnx::AttributeProto &a : node.attribute())
    if (!usedAttrs.contains(a.name()))
      return unsupportedAttrError(a.name());
  return success();
}

Slot *NodeBinder::inputSlot(unsigned i) {
  if (!hasInput(i)) {
    error() << "input #" << i << " is missing";
    return nullptr;
  }
  Slot *s = importer.lookupSlot(node.input(i));
  if (!s)
    error() << "input '" << node.input(i) << "' is not defined before use";
  return s;
}

FailureOr<Value> NodeBinder::input(unsigned i) {
  Slot *s = inputSlot(i);
  if (!s)
    return failure();
  return importer.getValue(*s, node.input(i), loc, [&] { return error(); });
}

FailureOr<SmallVector<Value>> NodeBinder::allInputs() {
  SmallVector<Value> values;
  for (unsigned i = 0, e = numInputs(); i < e; ++i) {
    FailureOr<Value> v = input(i);
    if (failed(v))
      return failure();
    values.push_back(*v);
  }
  return values;
}

std::optional<KnownInts> NodeBinder::knownInts(unsigned i) {
  if (!hasInput(i))
    return std::nullopt;
  Slot *s = importer.lookupSlot(node.input(i));
  if (!s)
    return std::nullopt;
  if (s->ints)
    return s->ints;
  if (!s->constant || !isa<IntegerType>(s->constant.getElementType()))
    return std::nullopt;
  KnownInts k;
  auto type = s->constant.getType();
  k.shape.assign(type.getShape().begin(), type.getShape().end());
  k.dtype = type.getElementType();
  bool isUnsigned = k.dtype.isUnsignedInteger() || k.dtype.isInteger(1);
  for (const APInt &v : s->constant.getValues<APInt>()) {
    // Values outside the symbolic range (INT64_MIN, unsigned > INT64_MAX)
    // yield a null Expr: such a tensor is not usable as a shape.
    Expr e = Expr::constant(isUnsigned ? int64_t(v.getZExtValue())
                                       : v.getSExtValue());
    if (!e || (isUnsigned && v.getZExtValue() > uint64_t(INT64_MAX)))
      return std::nullopt;
    k.elems.push_back(e);
  }
  return k;
}

DenseElementsAttr NodeBinder::knownConstant(unsigned i) {
  if (!hasInput(i))
    return {};
  Slot *s = importer.lookupSlot(node.input(i));
  if (!s)
    return {};
  if (s->constant)
    return s->constant;
  if (!s->ints)
    return {};
  SmallVector<APInt> values;
  unsigned width = s->ints->dtype.getIntOrFloatBitWidth();
  for (const Expr &e : s->ints->elems) {
    std::optional<int64_t> c = e.getConstant();
    if (!c)
      return {};
    values.push_back(
        APInt(width, *c, /*isSigned=*/true, /*implicitTrunc=*/true));
  }
  return DenseElementsAttr::get(
      RankedTensorType::get(s->ints->shape, s->ints->dtype), values);
}

FailureOr<SmallVector<int64_t>> NodeBinder::constInts(unsigned i,
                                                      StringRef what) {
  std::optional<KnownInts> k = knownInts(i);
  if (!k) {
    runtimeValueError() << what << " (input #" << i
                        << ") must be a constant known at import time";
    return failure();
  }
  SmallVector<int64_t> out;
  for (const Expr &e : k->elems) {
    std::optional<int64_t> c = e.getConstant();
    if (!c) {
      runtimeValueError() << what << " (input #" << i
                          << ") must be constant, not " << e.str();
      return failure();
    }
    out.push_back(*c);
  }
  return out;
}

LogicalResult NodeBinder::requireInputs(unsigned lo, unsigned hi) {
  if (numInputs() < lo || numInputs() > hi)
    return error() << "expects " << lo << " to " << hi << " inputs, got "
                   << numInputs();
  for (unsigned i = 0; i < lo; ++i)
    if (!hasInput(i))
      return error() << "input #" << i << " is missing";
  return success();
}

LogicalResult NodeBinder::requireOutputs(unsigned hi) {
  if (numOutputs() > hi)
    return error() << "only the first " << hi
                   << " output(s) are supported, got " << numOutputs();
  if (numOutputs() == 0)
    return error() << "has no outputs";
  return success();
}

const onnx::AttributeProto *NodeBinder::attr(StringRef name) {
  usedAttrs.insert(name);
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t NodeBinder::attrInt(StringRef name, int64_t dflt) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::INT) {
    (void)badAttr(name, "must be an integer");
    return dflt;
  }
  return a->i();
}

float NodeBinder::attrFloat(StringRef name, float dflt) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt;
  if (a->type() != onnx::AttributeProto::FLOAT) {
    (void)badAttr(name, "must be a float");
    return dflt;
  }
  return a->f();
}

std::string NodeBinder::attrString(StringRef name, StringRef dflt) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return dflt.str();
  if (a->type() != onnx::AttributeProto::STRING) {
    (void)badAttr(name, "must be a string");
    return dflt.str();
  }
  return a->s();
}

std::optional<SmallVector<int64_t>> NodeBinder::attrInts(StringRef name) {
  const onnx::AttributeProto *a = attr(name);
  if (!a)
    return std::nullopt;
  if (a->type() != onnx::AttributeProto::INTS) {
    (void)badAttr(name, "must be a list of integers");
    return std::nullopt;
  }
  return SmallVector<int64_t>(a->ints().begin(), a->ints().end());
}

void NodeBinder::setOutputInts(unsigned i, KnownInts ints) {
  Slot &s = importer.getOrCreateSlot(node.output(i));
  s = Slot();
  s.ints = std::move(ints);
}

void NodeBinder::setOutputConstant(unsigned i, DenseElementsAttr value) {
  Slot &s = importer.getOrCreateSlot(node.output(i));
  s = Slot();
  s.constant = value;
}

FailureOr<Value> NodeBinder::scalar(double value, Type dtype) {
  auto type = RankedTensorType::get({}, dtype);
  DenseElementsAttr attr;
  if (auto ft = dyn_cast<FloatType>(dtype)) {
    APFloat f(value);
    bool lost;
    f.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    attr = DenseElementsAttr::get(type, f);
  } else if (dtype.isInteger(1)) {
    attr = DenseElementsAttr::get(type, value != 0);
  } else {
    // Out-of-range or non-finite values saturate instead of being undefined.
    double clamped =
        std::isnan(value) ? 0.0 : std::clamp(value, -9.2e18, 9.2e18);
    attr = DenseElementsAttr::get(type, APInt(dtype.getIntOrFloatBitWidth(),
                                              static_cast<int64_t>(clamped),
                                              /*isSigned=*/true,
                                              /*implicitTrunc=*/true));
  }
  return constant(attr, "scalar");
}

FailureOr<Value> NodeBinder::arange(Expr start, Expr end, Expr step,
                                    Type dtype) {
  return create<ArangeOp>({}, {named("start", exprAttr(start)),
                               named("end", exprAttr(end)),
                               named("step", exprAttr(step)),
                               named("dtype", TypeAttr::get(dtype))});
}

FailureOr<Value> NodeBinder::symScalar(Expr e, Type dtype) {
  if (std::optional<int64_t> c = e.getConstant())
    return scalar(static_cast<double>(*c), dtype);
  FailureOr<Value> r = arange(e, e + 1, Expr::constant(1), dtype);
  if (failed(r))
    return failure();
  return reshape(*r, {});
}

FailureOr<Value> NodeBinder::reshape(Value v, ArrayRef<Expr> dims) {
  return create<ReshapeOp>(v, {named("shape", shapeAttr(dims))});
}

FailureOr<Value> NodeBinder::castTo(Value v, Type dtype) {
  if (typeOf(v).getDtype() == dtype)
    return v;
  return create<AstypeOp>(v, {named("dtype", TypeAttr::get(dtype))});
}

FailureOr<SmallVector<Expr>> NodeBinder::dimsOf(Value v) {
  RelaxTensorType t = typeOf(v);
  if (!t.hasRank())
    return error() << "needs an input of known rank, got " << t;
  SmallVector<Expr> dims(t.getDims());
  for (const Expr &d : dims)
    if (!d)
      return error() << "needs an input whose dims are known "
                        "(symbolically), got "
                     << t;
  return dims;
}
