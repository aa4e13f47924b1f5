//===- ElementwiseOps.cpp - ONNX elementwise ops --------------------------===//
//
// Unary and binary arithmetic, comparisons and logic, variadic Min/Max/Sum/
// Mean, the activations (composed from relax elementwise ops where relax has
// no op of their own), Clip, Where and the casts. Integer arithmetic on
// import-time shape values folds symbolically.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include <cmath>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::onnx_import;
using sym::Expr;

template <typename OpTy> static LogicalResult importUnary(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  return b.setOutput(0, b.create<OpTy>(*x));
}

/// Folds integer arithmetic `OpTy` on import-time values (shape
/// computations).
template <typename OpTy>
static std::optional<KnownInts> foldBinary(const KnownInts &a,
                                           const KnownInts &b) {
  if (a.dtype != b.dtype)
    return std::nullopt;
  constexpr bool isEqual = std::is_same_v<OpTy, EqualOp>;
  const KnownInts &big = a.elems.size() >= b.elems.size() ? a : b;
  if (a.elems.size() != b.elems.size() && a.elems.size() != 1 &&
      b.elems.size() != 1)
    return std::nullopt;
  if (a.shape.size() > 1 || b.shape.size() > 1)
    return std::nullopt;
  KnownInts out;
  out.dtype = isEqual ? IntegerType::get(a.dtype.getContext(), 1) : a.dtype;
  out.shape = a.shape.size() >= b.shape.size() ? a.shape : b.shape;
  for (size_t k = 0; k < big.elems.size(); ++k) {
    Expr x = a.elems[a.elems.size() == 1 ? 0 : k];
    Expr y = b.elems[b.elems.size() == 1 ? 0 : k];
    Expr r;
    if constexpr (std::is_same_v<OpTy, AddOp>) {
      r = x + y;
    } else if constexpr (std::is_same_v<OpTy, SubtractOp>) {
      r = x - y;
    } else if constexpr (std::is_same_v<OpTy, MultiplyOp>) {
      r = x * y;
    } else if constexpr (std::is_same_v<OpTy, DivideOp>) {
      // ONNX integer division truncates; fold only where that equals floor.
      std::optional<int64_t> cx = x.getConstant(), cy = y.getConstant();
      if (cx && cy) {
        if (*cy == 0)
          return std::nullopt;
        r = Expr::constant(*cx / *cy);
      } else if (cy && *cy > 0) {
        r = sym::floorDiv(x, y);
      } else {
        return std::nullopt;
      }
    } else if constexpr (isEqual) {
      // Symbolic dims are >= 0, so `dim == -1` folds to false.
      sym::Truth eq = defaultSymContext().isEQ(x, y);
      if (eq == sym::Truth::Unknown)
        return std::nullopt;
      r = Expr::constant(eq == sym::Truth::True ? 1 : 0);
    } else {
      return std::nullopt;
    }
    if (!r)
      return std::nullopt;
    out.elems.push_back(r);
  }
  return out;
}

template <typename OpTy> static LogicalResult importBinary(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  std::optional<KnownInts> ka = b.knownInts(0), kb = b.knownInts(1);
  // Shape vectors (at most kMaxKnownInts long, constant or symbolic) fold.
  if (ka && kb && (ka->shape.size() <= 1 && kb->shape.size() <= 1) &&
      static_cast<int64_t>(std::max(ka->elems.size(), kb->elems.size())) <=
          kMaxKnownInts) {
    if (std::optional<KnownInts> r = foldBinary<OpTy>(*ka, *kb)) {
      b.setOutputInts(0, *r);
      return success();
    }
  }
  FailureOr<Value> lhs = b.input(0), rhs = b.input(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  Value operands[] = {*lhs, *rhs};
  if (failed(b.alignBroadcast(operands)))
    return failure();
  return b.setOutput(0, b.create<OpTy>(operands));
}

/// Folds the inputs left to right with the binary `OpTy`.
template <typename OpTy> static FailureOr<Value> foldInputs(NodeBinder &b) {
  if (b.numInputs() < 1 || failed(b.requireOutputs(1)))
    return b.error() << "expects at least one input";
  FailureOr<Value> acc = b.input(0);
  if (failed(acc))
    return failure();
  for (unsigned i = 1; i < b.numInputs(); ++i) {
    FailureOr<Value> x = b.input(i);
    if (failed(x))
      return failure();
    Value operands[] = {*acc, *x};
    if (failed(b.alignBroadcast(operands)))
      return failure();
    acc = b.create<OpTy>(operands);
    if (failed(acc))
      return failure();
  }
  return acc;
}

template <typename OpTy> static LogicalResult importVariadic(NodeBinder &b) {
  return b.setOutput(0, foldInputs<OpTy>(b));
}

static LogicalResult importMean(NodeBinder &b) {
  FailureOr<Value> sum = foldInputs<AddOp>(b);
  if (failed(sum))
    return failure();
  FailureOr<Value> n = b.scalar(b.numInputs(), b.typeOf(*sum).getDtype());
  if (failed(n))
    return failure();
  return b.setOutput(0, b.create<DivideOp>({*sum, *n}));
}

static LogicalResult importPow(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> lhs = b.input(0), rhs = b.input(1);
  if (failed(lhs) || failed(rhs))
    return failure();
  // ONNX allows an exponent of another type; relax.power wants one dtype.
  FailureOr<Value> e = b.castTo(*rhs, b.typeOf(*lhs).getDtype());
  if (failed(e))
    return failure();
  return b.setOutput(0, b.create<PowerOp>({*lhs, *e}));
}

static LogicalResult importReciprocal(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> one = b.scalar(1.0, b.typeOf(*x).getDtype());
  if (failed(one))
    return failure();
  return b.setOutput(0, b.create<DivideOp>({*one, *x}));
}

static LogicalResult importLeakyRelu(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  float alpha = b.attrFloat("alpha", 0.01f);
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  FailureOr<Value> zero = b.scalar(0.0, dtype), a = b.scalar(alpha, dtype);
  if (failed(zero) || failed(a))
    return failure();
  FailureOr<Value> neg = b.create<LessOp>({*x, *zero});
  FailureOr<Value> scaled = b.create<MultiplyOp>({*x, *a});
  if (failed(neg) || failed(scaled))
    return failure();
  return b.setOutput(0, b.create<WhereOp>({*neg, *scaled, *x}));
}

/// `ifNegative` where `x` is negative, else `x`.
static FailureOr<Value> selectNegative(NodeBinder &b, Value x,
                                       Value ifNegative) {
  FailureOr<Value> zero = b.scalar(0.0, b.typeOf(x).getDtype());
  if (failed(zero))
    return failure();
  FailureOr<Value> neg = b.create<LessOp>({x, *zero});
  if (failed(neg))
    return failure();
  return b.create<WhereOp>({*neg, ifNegative, x});
}

static LogicalResult importSign(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  FailureOr<Value> zero = b.scalar(0.0, dtype), one = b.scalar(1.0, dtype),
                   minusOne = b.scalar(-1.0, dtype);
  if (failed(zero) || failed(one) || failed(minusOne))
    return failure();
  FailureOr<Value> pos = b.create<GreaterOp>({*x, *zero});
  FailureOr<Value> neg = b.create<LessOp>({*x, *zero});
  if (failed(pos) || failed(neg))
    return failure();
  FailureOr<Value> inner = b.create<WhereOp>({*neg, *minusOne, *zero});
  if (failed(inner))
    return failure();
  return b.setOutput(0, b.create<WhereOp>({*pos, *one, *inner}));
}

static LogicalResult importSoftplus(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> one = b.scalar(1.0, b.typeOf(*x).getDtype());
  FailureOr<Value> e = b.create<ExpOp>(*x);
  if (failed(one) || failed(e))
    return failure();
  FailureOr<Value> y = b.create<AddOp>({*e, *one});
  if (failed(y) || failed(y = b.create<LogOp>(*y)))
    return failure();
  b.setOutput(0, *y);
  return success();
}

static LogicalResult importElu(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  float alpha = b.attrFloat("alpha", 1.0f);
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  FailureOr<Value> one = b.scalar(1.0, dtype), a = b.scalar(alpha, dtype);
  FailureOr<Value> e = b.create<ExpOp>(*x);
  if (failed(one) || failed(a) || failed(e))
    return failure();
  FailureOr<Value> t = b.create<SubtractOp>({*e, *one});
  if (failed(t) || failed(t = b.create<MultiplyOp>({*t, *a})))
    return failure();
  return b.setOutput(0, selectNegative(b, *x, *t));
}

static LogicalResult importSelu(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  float alpha = b.attrFloat("alpha", 1.67326319217681884765625f);
  float gamma = b.attrFloat("gamma", 1.05070102214813232421875f);
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  FailureOr<Value> a = b.scalar(alpha, dtype), g = b.scalar(gamma, dtype);
  FailureOr<Value> e = b.create<ExpOp>(*x);
  if (failed(a) || failed(g) || failed(e))
    return failure();
  // alpha * exp(x) - alpha for x <= 0; at 0 both branches give 0.
  FailureOr<Value> t = b.create<MultiplyOp>({*e, *a});
  if (failed(t) || failed(t = b.create<SubtractOp>({*t, *a})))
    return failure();
  FailureOr<Value> y = selectNegative(b, *x, *t);
  if (failed(y) || failed(y = b.create<MultiplyOp>({*y, *g})))
    return failure();
  b.setOutput(0, *y);
  return success();
}

static LogicalResult importHardSigmoid(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  float alpha = b.attrFloat("alpha", 0.2f), beta = b.attrFloat("beta", 0.5f);
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  FailureOr<Value> slope = b.scalar(alpha, dtype),
                   offset = b.scalar(beta, dtype);
  if (failed(slope) || failed(offset))
    return failure();
  FailureOr<Value> y = b.create<MultiplyOp>({*x, *slope});
  if (failed(y) || failed(y = b.create<AddOp>({*y, *offset})) ||
      failed(y = b.create<ClipOp>(*y, {b.named("min", b.f64Attr(0.0)),
                                       b.named("max", b.f64Attr(1.0))})))
    return failure();
  b.setOutput(0, *y);
  return success();
}

static LogicalResult importHardSwish(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  FailureOr<Value> slope = b.scalar(1.0 / 6.0, dtype),
                   offset = b.scalar(0.5, dtype);
  if (failed(slope) || failed(offset))
    return failure();
  FailureOr<Value> y = b.create<MultiplyOp>({*x, *slope});
  if (failed(y) || failed(y = b.create<AddOp>({*y, *offset})) ||
      failed(y = b.create<ClipOp>(*y, {b.named("min", b.f64Attr(0.0)),
                                       b.named("max", b.f64Attr(1.0))})) ||
      failed(y = b.create<MultiplyOp>({*x, *y})))
    return failure();
  b.setOutput(0, *y);
  return success();
}

static LogicalResult importThresholdedRelu(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  float alpha = b.attrFloat("alpha", 1.0f);
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  FailureOr<Value> a = b.scalar(alpha, dtype), zero = b.scalar(0.0, dtype);
  if (failed(a) || failed(zero))
    return failure();
  FailureOr<Value> keep = b.create<GreaterOp>({*x, *a});
  if (failed(keep))
    return failure();
  return b.setOutput(0, b.create<WhereOp>({*keep, *x, *zero}));
}

static LogicalResult importPRelu(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0), slope = b.input(1);
  if (failed(x) || failed(slope))
    return failure();
  FailureOr<Value> scaled = b.create<MultiplyOp>({*x, *slope});
  if (failed(scaled))
    return failure();
  // The product broadcasts x against the slope: select on its shape.
  return b.setOutput(0, selectNegative(b, *x, *scaled));
}

static LogicalResult importClip(NodeBinder &b) {
  if (failed(b.requireInputs(1, b.opset() >= 11 ? 3 : 1)) ||
      failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  std::optional<double> lo, hi;
  Value loV, hiV;
  if (b.opset() < 11) {
    lo = b.attrFloat("min", -std::numeric_limits<float>::max());
    hi = b.attrFloat("max", std::numeric_limits<float>::max());
  } else {
    for (unsigned i : {1u, 2u}) {
      if (!b.hasInput(i))
        continue;
      std::optional<double> &bound = i == 1 ? lo : hi;
      DenseElementsAttr c = b.knownConstant(i);
      if (c && c.getNumElements() == 1) {
        if (isa<FloatType>(c.getElementType()))
          bound = (*c.getValues<APFloat>().begin()).convertToDouble();
        else if (c.getElementType().isUnsignedInteger())
          bound = double((*c.getValues<APInt>().begin()).getZExtValue());
        else
          bound = double((*c.getValues<APInt>().begin()).getSExtValue());
      } else {
        FailureOr<Value> v = b.input(i);
        if (failed(v))
          return failure();
        (i == 1 ? loV : hiV) = *v;
      }
    }
  }
  Value y = *x;
  if (loV || hiV || (lo && hi && *lo > *hi)) {
    // Run-time bounds (or an empty range, where ONNX yields max): compose
    // max then min.
    if (lo && !loV) {
      FailureOr<Value> s = b.scalar(*lo, dtype);
      if (failed(s))
        return failure();
      loV = *s;
    }
    if (hi && !hiV) {
      FailureOr<Value> s = b.scalar(*hi, dtype);
      if (failed(s))
        return failure();
      hiV = *s;
    }
    FailureOr<Value> r = y;
    if (loV && failed(r = b.create<MaximumOp>({*r, loV})))
      return failure();
    if (hiV && failed(r = b.create<MinimumOp>({*r, hiV})))
      return failure();
    b.setOutput(0, *r);
    return success();
  }
  double lowest, highest;
  if (isa<FloatType>(dtype)) {
    lowest = -std::numeric_limits<double>::infinity();
    highest = std::numeric_limits<double>::infinity();
  } else {
    unsigned w = dtype.getIntOrFloatBitWidth();
    bool isUnsigned = dtype.isUnsignedInteger();
    lowest = isUnsigned ? 0 : -std::ldexp(1.0, w - 1);
    highest = isUnsigned ? std::ldexp(1.0, w) - 1 : std::ldexp(1.0, w - 1) - 1;
    if (w == 64) {
      lowest = -9007199254740992.0;
      highest = 9007199254740992.0;
    }
  }
  return b.setOutput(
      0, b.create<ClipOp>(y, {b.named("min", b.f64Attr(lo ? *lo : lowest)),
                              b.named("max", b.f64Attr(hi ? *hi : highest))}));
}

static LogicalResult importWhere(NodeBinder &b) {
  if (failed(b.requireInputs(3, 3)) || failed(b.requireOutputs(1)))
    return failure();
  // A select between known shape vectors by a known condition (the
  // exporters' `Where(Equal(shape, -1), ones, shape)`) stays known.
  std::optional<KnownInts> kc = b.knownInts(0), kx = b.knownInts(1),
                           ky = b.knownInts(2);
  if (kc && kx && ky && kx->dtype == ky->dtype && kc->shape.size() <= 1 &&
      kx->shape.size() <= 1 && ky->shape.size() <= 1) {
    size_t n = std::max({kc->elems.size(), kx->elems.size(),
                         ky->elems.size()});
    auto at = [&](const KnownInts &k, size_t i) -> std::optional<Expr> {
      if (k.elems.size() == n)
        return k.elems[i];
      if (k.elems.size() == 1)
        return k.elems[0];
      return std::nullopt;
    };
    KnownInts out;
    out.dtype = kx->dtype;
    out.shape = {static_cast<int64_t>(n)};
    if (kc->shape.empty() && kx->shape.empty() && ky->shape.empty())
      out.shape.clear();
    for (size_t i = 0; i < n; ++i) {
      std::optional<Expr> c = at(*kc, i), x = at(*kx, i), y = at(*ky, i);
      std::optional<int64_t> cv = c ? c->getConstant() : std::nullopt;
      if (!cv || !x || !y)
        break;
      out.elems.push_back(*cv ? *x : *y);
    }
    if (out.elems.size() == n) {
      b.setOutputInts(0, out);
      return success();
    }
  }
  FailureOr<Value> cond = b.input(0), lhs = b.input(1), rhs = b.input(2);
  if (failed(cond) || failed(lhs) || failed(rhs))
    return failure();
  Value operands[] = {*cond, *lhs, *rhs};
  if (failed(b.alignBroadcast(operands)))
    return failure();
  return b.setOutput(0, b.create<WhereOp>(operands));
}

static LogicalResult importCast(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t to = b.attrInt("to", 0);
  // Opset 19's `saturate` only changes conversions to float8 types, which
  // relax has none of.
  if (b.opset() >= 19)
    (void)b.attrInt("saturate", 1);
  if (b.hasBadAttr())
    return failure();
  Type dtype = convertElementType(b.getContext(), to);
  if (!dtype)
    return b.badAttr("to",
                     "names unsupported element type " + elementTypeName(to));
  std::optional<KnownInts> k = b.knownInts(0);
  if (k && isa<IntegerType>(dtype) && !dtype.isInteger(1) &&
      dtype.getIntOrFloatBitWidth() >= 32) {
    k->dtype = dtype;
    b.setOutputInts(0, *k);
    return success();
  }
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  return b.setOutput(0, b.castTo(*x, dtype));
}

/// Gelu (opset 20): exact (erf) or the tanh approximation.
static LogicalResult importGelu(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  std::string approximate = b.attrString("approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    return b.badAttr("approximate", "must be 'none' or 'tanh'");
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  if (approximate == "tanh")
    return b.setOutput(0, b.create<GeluTanhOp>(*x));
  return b.setOutput(0, b.create<GeluOp>(*x));
}

/// IsNaN: `x != x` (relax.not_equal compares floats unordered, so it is
/// true exactly for NaN).
static LogicalResult importIsNaN(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  return b.setOutput(0, b.create<NotEqualOp>({*x, *x}));
}

/// IsInf: `x == +inf` and/or `x == -inf` as detect_positive/negative say.
static LogicalResult importIsInf(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  bool positive = b.attrInt("detect_positive", 1) != 0;
  bool negative = b.attrInt("detect_negative", 1) != 0;
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  double inf = std::numeric_limits<double>::infinity();
  auto equalTo = [&](double v) -> FailureOr<Value> {
    FailureOr<Value> c = b.scalar(v, dtype);
    if (failed(c))
      return failure();
    return b.create<EqualOp>({*x, *c});
  };
  if (!positive && !negative) {
    // Nothing detected: all false, as `x != x and x == x`.
    FailureOr<Value> ne = b.create<NotEqualOp>({*x, *x});
    FailureOr<Value> eq = b.create<EqualOp>({*x, *x});
    if (failed(ne) || failed(eq))
      return failure();
    return b.setOutput(0, b.create<LogicalAndOp>({*ne, *eq}));
  }
  FailureOr<Value> pos = positive ? equalTo(inf) : FailureOr<Value>();
  FailureOr<Value> neg = negative ? equalTo(-inf) : FailureOr<Value>();
  if ((positive && failed(pos)) || (negative && failed(neg)))
    return failure();
  if (positive && negative)
    return b.setOutput(0, b.create<LogicalOrOp>({*pos, *neg}));
  return b.setOutput(0, positive ? pos : neg);
}

static LogicalResult importCastLike(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0), like = b.input(1);
  if (failed(x) || failed(like))
    return failure();
  return b.setOutput(0, b.castTo(*x, b.typeOf(*like).getDtype()));
}

void onnx_import::addElementwiseOps(OpHandlerTable &table) {
  table.add("Abs", importUnary<AbsOp>);
  table.add("Add", importBinary<AddOp>);
  table.add("And", importBinary<LogicalAndOp>);
  table.add("Cast", importCast);
  table.add("CastLike", importCastLike);
  table.add("Ceil", importUnary<CeilOp>);
  table.add("Clip", importClip);
  table.add("Cos", importUnary<CosOp>);
  table.add("Div", importBinary<DivideOp>);
  table.add("Elu", importElu);
  table.add("Equal", importBinary<EqualOp>);
  table.add("Erf", importUnary<ErfOp>);
  table.add("Exp", importUnary<ExpOp>);
  table.add("Floor", importUnary<FloorOp>);
  table.add("Gelu", importGelu, /*sinceVersion=*/20);
  table.add("Greater", importBinary<GreaterOp>);
  table.add("GreaterOrEqual", importBinary<GreaterEqualOp>);
  table.add("HardSigmoid", importHardSigmoid);
  table.add("HardSwish", importHardSwish);
  table.add("IsInf", importIsInf, /*sinceVersion=*/10);
  table.add("IsNaN", importIsNaN, /*sinceVersion=*/9);
  table.add("LeakyRelu", importLeakyRelu);
  table.add("Less", importBinary<LessOp>);
  table.add("LessOrEqual", importBinary<LessEqualOp>);
  table.add("Log", importUnary<LogOp>);
  table.add("Max", importVariadic<MaximumOp>);
  table.add("Mean", importMean);
  table.add("Min", importVariadic<MinimumOp>);
  table.add("Mul", importBinary<MultiplyOp>);
  table.add("Neg", importUnary<NegativeOp>);
  table.add("Not", importUnary<LogicalNotOp>);
  table.add("Or", importBinary<LogicalOrOp>);
  table.add("Pow", importPow);
  table.add("PRelu", importPRelu);
  table.add("Reciprocal", importReciprocal);
  table.add("Relu", importUnary<ReluOp>);
  table.add("Round", importUnary<RoundOp>);
  table.add("Selu", importSelu);
  table.add("Sigmoid", importUnary<SigmoidOp>);
  table.add("Sign", importSign);
  table.add("Sin", importUnary<SinOp>);
  table.add("Softplus", importSoftplus);
  table.add("Sqrt", importUnary<SqrtOp>);
  table.add("Sub", importBinary<SubtractOp>);
  table.add("Sum", importVariadic<AddOp>);
  table.add("Tanh", importUnary<TanhOp>);
  table.add("ThresholdedRelu", importThresholdedRelu);
  table.add("Where", importWhere);
  table.add("Xor", importBinary<NotEqualOp>);
}
