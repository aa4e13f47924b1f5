//===- ElementwiseOps.cpp - ONNX elementwise ops --------------------------===//
//
// Unary and binary arithmetic (Mod, BitShift), comparisons, logic and the
// float tests (IsNaN, IsInf), variadic Min/Max/Sum/Mean, the activations
// (composed from relax elementwise ops where relax has no op of their own),
// Clip, Where and the casts. Integer arithmetic on import-time shape values
// folds symbolically.
//
//===----------------------------------------------------------------------===//

#include "AttrChecks.h"
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

/// Neg; an import-time integer vector (shape arithmetic, such as the
/// `-axis` of the expanded LayerNormalization) folds.
static LogicalResult importNeg(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  // Neg is for signed types only (T excludes the unsigned integers).
  Type t = inputDtype(b, 0);
  if (!t)
    return failure();
  if (t.isUnsignedInteger())
    return b.error() << "needs a signed input, got " << t;
  std::optional<KnownInts> k = b.knownInts(0);
  if (k && !k->dtype.isUnsignedInteger() &&
      static_cast<int64_t>(k->elems.size()) <= kMaxKnownInts &&
      llvm::all_of(k->elems, [](Expr &e) {
        e = Expr::constant(0) - e;
        return bool(e);
      })) {
    b.setOutputInts(0, *k);
    return success();
  }
  return importUnary<NegativeOp>(b);
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

/// Mod: relax.floor_mod (the divisor's sign, `fmod = 0`, ONNX's default)
/// or relax.fmod (the dividend's sign, `fmod = 1`, required for floats).
static LogicalResult importMod(NodeBinder &b) {
  int64_t fmod = b.attrInt("fmod", 0);
  if (b.hasBadAttr())
    return failure();
  if (fmod != 0 && fmod != 1)
    return b.badAttr("fmod", "must be 0 or 1");
  // The spec (and onnxruntime) require fmod = 1 for floating-point inputs.
  if (!fmod && b.numInputs() >= 1) {
    FailureOr<Value> x = b.input(0);
    if (failed(x))
      return failure();
    if (isa<FloatType>(b.typeOf(*x).getDtype()))
      return b.badAttr("fmod", "must be 1 for floating-point inputs, got 0");
  }
  return fmod ? importBinary<FmodOp>(b) : importBinary<FloorModOp>(b);
}

/// BitShift (unsigned integers): relax.left_shift / relax.right_shift by
/// `direction`.
static LogicalResult importBitShift(NodeBinder &b) {
  if (!b.attr("direction"))
    return b.error() << "needs a 'direction' attribute";
  std::string direction = b.attrString("direction", "");
  if (b.hasBadAttr())
    return failure();
  if (direction != "LEFT" && direction != "RIGHT")
    return b.badAttr("direction", "must be 'LEFT' or 'RIGHT'");
  // BitShift is for unsigned integers only (a signed right shift would be
  // arithmetic, which onnx does not define).
  for (unsigned i = 0; i < 2 && i < b.numInputs(); ++i)
    if (Type t = inputDtype(b, i); t && !t.isUnsignedInteger())
      return b.error() << "needs unsigned integer inputs, got " << t;
  return direction == "LEFT" ? importBinary<LeftShiftOp>(b)
                             : importBinary<RightShiftOp>(b);
}

/// IsInf: relax.isinf, narrowed to one sign by comparing with 0 where only
/// detect_positive or detect_negative is set.
static LogicalResult importIsInf(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  bool positive = attrFlag(b, "detect_positive", true);
  bool negative = attrFlag(b, "detect_negative", true);
  if (b.hasBadAttr())
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  FailureOr<Value> inf = b.create<IsInfOp>(*x);
  if (failed(inf) || (positive && negative))
    return b.setOutput(0, inf);
  if (!positive && !negative) {
    // Nothing detected: all false (no value is both NaN and infinite).
    FailureOr<Value> nan = b.create<IsNanOp>(*x);
    if (failed(nan))
      return failure();
    return b.setOutput(0, b.create<LogicalAndOp>({*inf, *nan}));
  }
  FailureOr<Value> zero = b.scalar(0.0, b.typeOf(*x).getDtype());
  if (failed(zero))
    return failure();
  FailureOr<Value> sign = positive ? b.create<GreaterOp>({*x, *zero})
                                   : b.create<LessOp>({*x, *zero});
  if (failed(sign))
    return failure();
  return b.setOutput(0, b.create<LogicalAndOp>({*inf, *sign}));
}

static LogicalResult importCastLike(NodeBinder &b) {
  if (failed(b.requireInputs(2, 2)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0), like = b.input(1);
  if (failed(x) || failed(like))
    return failure();
  return b.setOutput(0, b.castTo(*x, b.typeOf(*like).getDtype()));
}

static LogicalResult importSoftsign(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  // x / (1 + |x|)
  FailureOr<Value> one = b.scalar(1.0, b.typeOf(*x).getDtype());
  FailureOr<Value> d = b.create<AbsOp>(*x);
  if (failed(one) || failed(d) || failed(d = b.create<AddOp>({*d, *one})))
    return failure();
  return b.setOutput(0, b.create<DivideOp>({*x, *d}));
}

static LogicalResult importCelu(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  float alpha = b.attrFloat("alpha", 1.0f);
  if (b.hasBadAttr())
    return failure();
  if (alpha == 0.0f)
    return b.badAttr("alpha", "must not be 0");
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  // max(0, x) + min(0, alpha * (exp(x / alpha) - 1)): x where x >= 0, else
  // the second term (both are 0 at 0).
  Type dtype = b.typeOf(*x).getDtype();
  FailureOr<Value> a = b.scalar(alpha, dtype), one = b.scalar(1.0, dtype);
  if (failed(a) || failed(one))
    return failure();
  FailureOr<Value> t = b.create<DivideOp>({*x, *a});
  if (failed(t) || failed(t = b.create<ExpOp>(*t)) ||
      failed(t = b.create<SubtractOp>({*t, *one})) ||
      failed(t = b.create<MultiplyOp>({*t, *a})))
    return failure();
  return b.setOutput(0, selectNegative(b, *x, *t));
}

static LogicalResult importShrink(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  float lambd = b.attrFloat("lambd", 0.5f), bias = b.attrFloat("bias", 0.0f);
  if (b.hasBadAttr())
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  // x + bias where x < -lambd, x - bias where x > lambd, else 0. On integers
  // the bounds truncate toward 0, which keeps the strict comparisons exact.
  Type dtype = b.typeOf(*x).getDtype();
  FailureOr<Value> zero = b.scalar(0.0, dtype), hi = b.scalar(lambd, dtype),
                   bs = b.scalar(bias, dtype);
  if (failed(zero) || failed(hi) || failed(bs))
    return failure();
  FailureOr<Value> above = b.create<GreaterOp>({*x, *hi});
  FailureOr<Value> down = b.create<SubtractOp>({*x, *bs});
  if (failed(above) || failed(down))
    return failure();
  FailureOr<Value> y = b.create<WhereOp>({*above, *down, *zero});
  if (failed(y))
    return failure();
  if (!dtype.isUnsignedInteger()) {
    FailureOr<Value> lo = b.scalar(-lambd, dtype);
    FailureOr<Value> up = b.create<AddOp>({*x, *bs});
    if (failed(lo) || failed(up))
      return failure();
    FailureOr<Value> below = b.create<LessOp>({*x, *lo});
    if (failed(below) || failed(y = b.create<WhereOp>({*below, *up, *y})))
      return failure();
  }
  b.setOutput(0, *y);
  return success();
}

FailureOr<Value> onnx_import::axisIota(NodeBinder &b, Expr n, int64_t axis,
                                       int64_t rank) {
  FailureOr<Value> iota = b.arange(Expr::constant(0), n, Expr::constant(1),
                                   b.getBuilder().getI64Type());
  if (failed(iota))
    return failure();
  SmallVector<Expr> dims(rank, Expr::constant(1));
  dims[axis] = n;
  return b.reshape(*iota, dims);
}

FailureOr<Value> onnx_import::oneHotMask(NodeBinder &b, Value indices,
                                         int64_t axis, Expr depth) {
  RelaxTensorType t = b.typeOf(indices);
  // OneHot checks the rank; Hardmax's argmax and the losses' target (cast
  // to i64) keep the rank of a value already read through dimsOf or
  // checked.
  assert(t.hasRank() && "oneHotMask needs indices of known rank");
  FailureOr<Value> iota = axisIota(b, depth, axis, t.getRank() + 1);
  FailureOr<Value> wide =
      b.create<ExpandDimsOp>(indices, {b.named("axes", b.i64Array({axis}))});
  if (failed(iota) || failed(wide))
    return failure();
  return b.create<EqualOp>({*wide, *iota});
}

static LogicalResult importEyeLike(NodeBinder &b) {
  if (failed(b.requireInputs(1, 1)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t k = b.attrInt("k", 0);
  const onnx::AttributeProto *dtypeAttr = b.attr("dtype");
  int64_t to = b.attrInt("dtype", 0);
  if (b.hasBadAttr())
    return failure();
  FailureOr<Value> x = b.input(0);
  if (failed(x))
    return failure();
  Type dtype = b.typeOf(*x).getDtype();
  if (dtypeAttr) {
    dtype = convertElementType(b.getContext(), to);
    if (!dtype)
      return b.badAttr("dtype",
                       "names unsupported element type " + elementTypeName(to));
  }
  FailureOr<SmallVector<Expr>> dims = b.dimsOf(*x);
  if (failed(dims))
    return failure();
  if (dims->size() != 2)
    return b.error() << "needs a 2-D input, got rank " << dims->size();
  // Ones where column == row + k.
  Type i64 = b.getBuilder().getI64Type();
  FailureOr<Value> rows =
      b.arange(Expr::constant(k), (*dims)[0] + k, Expr::constant(1), i64);
  FailureOr<Value> cols =
      b.arange(Expr::constant(0), (*dims)[1], Expr::constant(1), i64);
  if (failed(rows) || failed(cols) ||
      failed(rows = b.reshape(*rows, {(*dims)[0], Expr::constant(1)})))
    return failure();
  FailureOr<Value> eq = b.create<EqualOp>({*rows, *cols});
  if (failed(eq))
    return failure();
  return b.setOutput(0, b.castTo(*eq, dtype));
}

/// Element `i` of the 1-D `v` as a rank-0 tensor.
static FailureOr<Value> elementAt(NodeBinder &b, Value v, int64_t i) {
  FailureOr<Value> s = b.create<StridedSliceOp>(
      v, {b.named("axes", b.i64Array({0})),
          b.named("begin", b.shapeAttr({Expr::constant(i)})),
          b.named("end", b.shapeAttr({Expr::constant(i + 1)}))});
  if (failed(s))
    return failure();
  return b.reshape(*s, {});
}

/// OneHot; from opset 11 (`negativeIndices`) an index in [-depth, 0) counts
/// from the end, before that it selects nothing.
template <bool negativeIndices>
static LogicalResult importOneHot(NodeBinder &b) {
  if (failed(b.requireInputs(3, 3)) || failed(b.requireOutputs(1)))
    return failure();
  int64_t axis = b.attrInt("axis", -1);
  if (b.hasBadAttr())
    return failure();
  // The depth sets the result shape: a constant (of any numeric type,
  // truncated to an integer), a symbolic integer, or run-time data bound as
  // a dim.
  Expr depth;
  if (DenseElementsAttr c = b.knownConstant(1)) {
    if (c.getNumElements() != 1)
      return b.error() << "depth must be a scalar (or one element)";
    if (isa<FloatType>(c.getElementType())) {
      double d = (*c.getValues<APFloat>().begin()).convertToDouble();
      if (!(std::fabs(d) < 9.0e18))
        return b.error() << "depth " << d << " is out of range";
      depth = Expr::constant(static_cast<int64_t>(d));
    } else {
      depth = Expr::constant((*c.getValues<APInt>().begin()).getSExtValue());
    }
  } else if (std::optional<KnownInts> k = b.knownInts(1)) {
    if (k->elems.size() != 1)
      return b.error() << "depth must be a scalar (or one element)";
    depth = k->elems[0];
  } else {
    // Run-time data: truncated to an integer, bound as a dim at run time.
    FailureOr<Value> v = b.input(1);
    if (succeeded(v))
      v = b.castTo(*v, b.getBuilder().getI64Type());
    if (succeeded(v))
      v = b.reshape(*v, {Expr::constant(1)});
    FailureOr<SmallVector<Expr>> bound =
        failed(v) ? FailureOr<SmallVector<Expr>>(failure())
                  : b.bindShape(*v, "the depth (input #1)");
    if (failed(bound))
      return failure();
    depth = (*bound)[0];
  }
  if (std::optional<int64_t> d = depth.getConstant(); d && *d < 1)
    return b.error() << "depth must be positive, got " << *d;
  FailureOr<Value> indices = b.input(0), values = b.input(2);
  if (failed(indices) || failed(values))
    return failure();
  RelaxTensorType vt = b.typeOf(*values);
  if (!vt.hasRank() || vt.getRank() != 1 || !vt.getDims()[0] ||
      vt.getDims()[0].getConstant() != std::optional<int64_t>(2))
    return b.error() << "values (input #2) must be [off_value, on_value], got "
                     << vt;
  RelaxTensorType it = b.typeOf(*indices);
  if (!it.hasRank())
    return b.error() << "needs indices of known rank, got " << it;
  FailureOr<int64_t> ax = b.normalizeAxis(axis, it.getRank() + 1);
  if (failed(ax))
    return failure();
  // Non-integer indices truncate toward zero.
  Type i64 = b.getBuilder().getI64Type();
  FailureOr<Value> idx = b.castTo(*indices, i64);
  if (failed(idx))
    return failure();
  if (negativeIndices) {
    FailureOr<Value> zero = b.scalar(0.0, i64), d = b.symScalar(depth, i64);
    if (failed(zero) || failed(d))
      return failure();
    FailureOr<Value> neg = b.create<LessOp>({*idx, *zero});
    FailureOr<Value> wrapped = b.create<AddOp>({*idx, *d});
    if (failed(neg) || failed(wrapped) ||
        failed(idx = b.create<WhereOp>({*neg, *wrapped, *idx})))
      return failure();
  }
  FailureOr<Value> mask = oneHotMask(b, *idx, *ax, depth);
  FailureOr<Value> off = elementAt(b, *values, 0),
                   on = elementAt(b, *values, 1);
  if (failed(mask) || failed(off) || failed(on))
    return failure();
  return b.setOutput(0, b.create<WhereOp>({*mask, *on, *off}));
}

void onnx_import::addElementwiseOps(OpHandlerTable &table) {
  table.add("Abs", importUnary<AbsOp>);
  table.add("Acos", importUnary<AcosOp>);
  table.add("Acosh", importUnary<AcoshOp>);
  table.add("Add", importBinary<AddOp>);
  table.add("And", importBinary<LogicalAndOp>);
  table.add("Asin", importUnary<AsinOp>);
  table.add("Asinh", importUnary<AsinhOp>);
  table.add("Atan", importUnary<AtanOp>);
  table.add("Atanh", importUnary<AtanhOp>);
  table.add("BitShift", importBitShift, /*sinceVersion=*/11);
  table.add("Cast", importCast);
  table.add("CastLike", importCastLike);
  table.add("Ceil", importUnary<CeilOp>);
  table.add("Celu", importCelu);
  table.add("Clip", importClip);
  table.add("Cos", importUnary<CosOp>);
  table.add("Cosh", importUnary<CoshOp>);
  table.add("Div", importBinary<DivideOp>);
  table.add("Elu", importElu);
  table.add("Equal", importBinary<EqualOp>);
  table.add("Erf", importUnary<ErfOp>);
  table.add("Exp", importUnary<ExpOp>);
  table.add("EyeLike", importEyeLike);
  table.add("Floor", importUnary<FloorOp>);
  table.add("Gelu", importGelu, /*sinceVersion=*/20);
  table.add("Greater", importBinary<GreaterOp>);
  table.add("GreaterOrEqual", importBinary<GreaterEqualOp>);
  table.add("HardSigmoid", importHardSigmoid);
  table.add("HardSwish", importHardSwish);
  table.add("IsInf", importIsInf, /*sinceVersion=*/10);
  table.add("IsNaN", importUnary<IsNanOp>, /*sinceVersion=*/9);
  table.add("LeakyRelu", importLeakyRelu);
  table.add("Less", importBinary<LessOp>);
  table.add("LessOrEqual", importBinary<LessEqualOp>);
  table.add("Log", importUnary<LogOp>);
  table.add("Max", importVariadic<MaximumOp>);
  table.add("Mean", importMean);
  table.add("Min", importVariadic<MinimumOp>);
  table.add("Mod", importMod, /*sinceVersion=*/10);
  table.add("Mul", importBinary<MultiplyOp>);
  table.add("Neg", importNeg);
  table.add("Not", importUnary<LogicalNotOp>);
  table.add("OneHot", importOneHot<false>, /*sinceVersion=*/9);
  table.add("OneHot", importOneHot<true>, /*sinceVersion=*/11);
  table.add("Or", importBinary<LogicalOrOp>);
  table.add("Pow", importPow);
  table.add("PRelu", importPRelu);
  table.add("Reciprocal", importReciprocal);
  table.add("Relu", importUnary<ReluOp>);
  table.add("Round", importUnary<RoundOp>);
  table.add("Selu", importSelu);
  table.add("Shrink", importShrink);
  table.add("Sigmoid", importUnary<SigmoidOp>);
  table.add("Sign", importSign);
  table.add("Sin", importUnary<SinOp>);
  table.add("Sinh", importUnary<SinhOp>);
  table.add("Softplus", importSoftplus);
  table.add("Softsign", importSoftsign);
  table.add("Sqrt", importUnary<SqrtOp>);
  table.add("Sub", importBinary<SubtractOp>);
  table.add("Sum", importVariadic<AddOp>);
  table.add("Tan", importUnary<TanOp>);
  table.add("Tanh", importUnary<TanhOp>);
  table.add("ThresholdedRelu", importThresholdedRelu);
  table.add("Where", importWhere);
  table.add("Xor", importBinary<NotEqualOp>);
}
