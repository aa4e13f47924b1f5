//===- Elementwise.cpp - Legalization of the elementwise ops --------------===//
//
// Every elementwise op becomes one loop nest over the result shape with a
// single spatial block that loads each operand through numpy broadcasting
// and stores one scalar; only the scalar function differs per op. The
// prim_func's op_pattern is `elementwise` when every operand has the result
// shape and `broadcast` otherwise, which is what fusion keys on.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/Legalize.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relax;

namespace {
/// Computes the result scalar from the operand scalars; `dtype` is the input
/// dtype (for casts and comparisons the result dtype can differ).
using ScalarFn = std::function<Value(OpBuilder &, Location, ValueRange,
                                     Type dtype, Operation *op)>;
} // namespace

static LogicalResult legalizeElementwise(Operation *op, LegalizeContext &ctx,
                                         const ScalarFn &fn) {
  auto resultType = cast<RelaxTensorType>(op->getResult(0).getType());
  SmallVector<Type> inputTypes(op->getOperandTypes());
  // Unsigned operands are computed on as the signless integer of their
  // width (toSignlessScalar), which is right for the ops whose scalar
  // functions pick unsigned forms from the dtype.
  static const llvm::StringSet<> unsignedOk = {
      "add",        "subtract", "multiply",      "divide",    "maximum",
      "minimum",    "power",    "equal",         "not_equal", "less",
      "less_equal", "greater",  "greater_equal", "astype",    "where",
      "floor_mod",  "fmod",     "left_shift",    "right_shift"};
  for (Type t : inputTypes) {
    Type dtype = cast<RelaxTensorType>(t).getDtype();
    if (isUnsignedDtype(dtype) && !unsignedOk.contains(shortOpName(op)))
      return op->emitOpError("cannot be legalized: ")
             << dtype
             << " arithmetic is not supported by the loop lowering yet";
  }
  bool sameShapes = llvm::all_of(inputTypes, [&](Type t) {
    return cast<RelaxTensorType>(t).getShape() == resultType.getShape();
  });
  Type dtype = cast<RelaxTensorType>(inputTypes.back()).getDtype();
  // Attribute values (clip bounds, target dtype) are part of the program.
  Attribute key = op->getAttrDictionary();
  std::string name = ("T_" + shortOpName(op)).str();
  bool ok = true;
  LogicalResult result = ctx.replaceWithCallTIR(
      op, name, op->getOperands(), op->getResultTypes(),
      [&](OpBuilder &b, Location loc, ValueRange inputs, ValueRange outputs) {
        const SymShape &out = resultType.getShape();
        buildSpatialCompute(
            b, loc, name, out, [&](OpBuilder &b, Location l, ValueRange ivs) {
              SmallVector<Value> scalars;
              for (auto [input, type] : llvm::zip(inputs, inputTypes)) {
                FailureOr<SmallVector<Value>> idx = broadcastIndices(
                    b, l, cast<RelaxTensorType>(type).getShape(), out, ivs);
                if (failed(idx)) {
                  ok = false;
                  return;
                }
                scalars.push_back(toSignlessScalar(
                    b, l, tir::LoadOp::create(b, l, input, *idx)));
              }
              Value v = fn(b, l, scalars, dtype, op);
              tir::StoreOp::create(
                  b, l, fromSignlessScalar(b, l, v, resultType.getDtype()),
                  outputs[0], ivs);
            });
      },
      sameShapes ? tir::OpPattern::Elementwise : tir::OpPattern::Broadcast, key);
  if (!ok)
    return op->emitError("internal error: broadcast of an operand could not "
                         "be resolved while legalizing");
  return result;
}

/// Registers the elementwise legalizer of `OpTy` computing scalars with `fn`.
template <typename OpTy>
static void add(LegalizerTable &table, ScalarFn fn) {
  registerLegalizer<OpTy>(table, [fn](Operation *op, LegalizeContext &ctx) {
    return legalizeElementwise(op, ctx, fn);
  });
}

static bool isFloat(Type t) { return isa<FloatType>(t); }

/// A unary float function from the math dialect.
template <typename MathOp>
static ScalarFn mathUnary() {
  return [](OpBuilder &b, Location l, ValueRange a, Type, Operation *) {
    return MathOp::create(b, l, a[0]).getResult();
  };
}

/// A binary op with a float, a signed and an unsigned integer form.
template <typename FloatOp, typename IntOp, typename UIntOp = IntOp>
static ScalarFn arithBinary() {
  return [](OpBuilder &b, Location l, ValueRange a, Type t,
            Operation *) -> Value {
    if (isFloat(t))
      return FloatOp::create(b, l, a[0], a[1]);
    if (isUnsignedDtype(t))
      return UIntOp::create(b, l, a[0], a[1]);
    return IntOp::create(b, l, a[0], a[1]);
  };
}

/// Integer division defined everywhere (docs/relax.md): x / 0 = 0, and
/// INT_MIN / -1 wraps to INT_MIN, as numpy does; signed division truncates.
/// A raw divsi/divui would be undefined there (SIGFPE on x86), so the
/// division runs on a divisor of 1 in those lanes: a compare and two selects
/// per element, which vectorize.
static Value integerSafeDivide(OpBuilder &b, Location l, ValueRange a, Type t,
                               Operation *) {
  if (isFloat(t))
    return arith::DivFOp::create(b, l, a[0], a[1]);
  Type type = a[0].getType();
  unsigned width = type.getIntOrFloatBitWidth();
  auto constant = [&](const APInt &v) -> Value {
    return arith::ConstantOp::create(b, l, b.getIntegerAttr(type, v));
  };
  Value zero = constant(APInt::getZero(width));
  Value one = constant(APInt(width, 1));
  Value byZero =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, a[1], zero);
  Value unsafe = byZero;
  if (!isUnsignedDtype(t)) {
    // INT_MIN / 1 is INT_MIN, the wrapped quotient of INT_MIN / -1.
    Value minNumerator = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::eq, a[0],
        constant(APInt::getSignedMinValue(width)));
    Value minusOne = arith::CmpIOp::create(
        b, l, arith::CmpIPredicate::eq, a[1],
        constant(APInt::getAllOnes(width)));
    unsafe = arith::OrIOp::create(
        b, l, byZero, arith::AndIOp::create(b, l, minNumerator, minusOne));
  }
  Value divisor = arith::SelectOp::create(b, l, unsafe, one, a[1]);
  Value quotient =
      isUnsignedDtype(t)
          ? arith::DivUIOp::create(b, l, a[0], divisor).getResult()
          : arith::DivSIOp::create(b, l, a[0], divisor).getResult();
  return arith::SelectOp::create(b, l, byZero, zero, quotient);
}

/// Integer and float remainders (docs/relax.md, "Integer dtypes"). `floor`
/// gives the divisor's sign (numpy np.mod), otherwise the dividend's (C
/// fmod). Integers: x mod 0 = 0 as in numpy, and a divisor of -1 (whose
/// INT_MIN case traps in remsi) always leaves 0, so both divide by 1
/// instead. The floor form corrects a nonzero remainder whose sign differs
/// from the divisor's by adding the divisor, for floats too (numpy's
/// npy_divmod; a float divisor of 0 gives NaN).
static Value remainder(OpBuilder &b, Location l, Value x, Value y, Type t,
                       bool floor) {
  Value r, rNegative, yNegative, nonZero;
  if (isFloat(t)) {
    r = arith::RemFOp::create(b, l, x, y);
    if (!floor)
      return r;
    Value zero = createScalarConstant(b, l, t, 0.0);
    nonZero = arith::CmpFOp::create(b, l, arith::CmpFPredicate::ONE, r, zero);
    rNegative =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, r, zero);
    yNegative =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, y, zero);
  } else {
    Value zero = createScalarConstant(b, l, t, 0);
    Value one = createScalarConstant(b, l, t, 1);
    Value unsafe =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, y, zero);
    if (isUnsignedDtype(t))
      return arith::RemUIOp::create(
          b, l, x, arith::SelectOp::create(b, l, unsafe, one, y));
    Value minusOne = arith::ConstantOp::create(
        b, l, b.getIntegerAttr(y.getType(), -1));
    unsafe = arith::OrIOp::create(
        b, l, unsafe,
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, y, minusOne));
    r = arith::RemSIOp::create(b, l, x,
                               arith::SelectOp::create(b, l, unsafe, one, y));
    if (!floor)
      return r;
    nonZero = arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, r, zero);
    rNegative = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, r, zero);
    yNegative = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, y, zero);
  }
  Value adjust = arith::AndIOp::create(
      b, l, nonZero, arith::XOrIOp::create(b, l, rNegative, yNegative));
  Value sum = isFloat(t) ? Value(arith::AddFOp::create(b, l, r, y))
                         : Value(arith::AddIOp::create(b, l, r, y));
  return arith::SelectOp::create(b, l, adjust, sum, r);
}

/// Shifts defined for every amount, as numpy: the amount is read as
/// unsigned, and one of at least the bit width (where arith's shifts are
/// poison) shifts every bit out: 0, or for a signed right shift the sign
/// (the shift by width - 1).
static Value shift(OpBuilder &b, Location l, Value x, Value s, Type t,
                   bool left) {
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(b, l, b.getIntegerAttr(type, v));
  };
  Value tooFar = arith::CmpIOp::create(b, l, arith::CmpIPredicate::uge, s,
                                       constant(width));
  if (!left && !isUnsignedDtype(t))
    return arith::ShRSIOp::create(
        b, l, x, arith::SelectOp::create(b, l, tooFar, constant(width - 1), s));
  Value zero = constant(0);
  Value amount = arith::SelectOp::create(b, l, tooFar, zero, s);
  Value shifted = left ? Value(arith::ShLIOp::create(b, l, x, amount))
                       : Value(arith::ShRUIOp::create(b, l, x, amount));
  return arith::SelectOp::create(b, l, tooFar, zero, shifted);
}

/// A binary scalar function with a flag (remainder's `floor`, shift's
/// `left`) as a ScalarFn.
template <Value (*Fn)(OpBuilder &, Location, Value, Value, Type, bool)>
static ScalarFn withFlag(bool flag) {
  return [flag](OpBuilder &b, Location l, ValueRange a, Type t, Operation *) {
    return Fn(b, l, a[0], a[1], t, flag);
  };
}

static Value sigmoid(OpBuilder &b, Location l, Value x, Type t) {
  Value one = createScalarConstant(b, l, t, 1.0);
  Value negX = arith::NegFOp::create(b, l, x);
  Value e = math::ExpOp::create(b, l, negX);
  return arith::DivFOp::create(b, l, one, arith::AddFOp::create(b, l, one, e));
}

static ScalarFn compare(arith::CmpFPredicate fp, arith::CmpIPredicate ip,
                        arith::CmpIPredicate up) {
  return [fp, ip, up](OpBuilder &b, Location l, ValueRange a, Type t,
                      Operation *) -> Value {
    if (isFloat(t))
      return arith::CmpFOp::create(b, l, fp, a[0], a[1]);
    return arith::CmpIOp::create(b, l, isUnsignedDtype(t) ? up : ip, a[0],
                                 a[1]);
  };
}

/// `x ** e` for integers of one width. math.ipowi reads the exponent as
/// signed, which is right for signed dtypes. An unsigned exponent `e` with
/// the top bit set (e >= 2^(w-1)) reads as negative; modulo 2^w such a power
/// is 0 for even `x` (it has at least e >= w factors of 2) and equals
/// `x ** (e - 2^(w-1))` for odd `x` (the odd residues form a group of order
/// 2^(w-1), so x ** 2^(w-1) == 1). So clear the top bit and zero the result
/// of even bases when it was set.
static Value integerPower(OpBuilder &b, Location l, Value x, Value e,
                          bool isUnsigned) {
  if (!isUnsigned)
    return math::IPowIOp::create(b, l, x, e);
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value lowBits = arith::ConstantOp::create(
      b, l, b.getIntegerAttr(type, APInt::getSignedMaxValue(width)));
  Value zero = arith::ConstantOp::create(b, l, b.getIntegerAttr(type, 0));
  Value one = arith::ConstantOp::create(b, l, b.getIntegerAttr(type, 1));
  Value isTopSet =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, e, zero);
  Value isEven =
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                            arith::AndIOp::create(b, l, x, one), zero);
  Value power =
      math::IPowIOp::create(b, l, x, arith::AndIOp::create(b, l, e, lowBits));
  Value vanishes = arith::AndIOp::create(b, l, isTopSet, isEven);
  return arith::SelectOp::create(b, l, vanishes, zero, power);
}

void relax::addElementwiseLegalizers(LegalizerTable &table) {
  add<ExpOp>(table, mathUnary<math::ExpOp>());
  add<LogOp>(table, mathUnary<math::LogOp>());
  add<SqrtOp>(table, mathUnary<math::SqrtOp>());
  add<RsqrtOp>(table, mathUnary<math::RsqrtOp>());
  add<TanhOp>(table, mathUnary<math::TanhOp>());
  add<ErfOp>(table, mathUnary<math::ErfOp>());
  add<SinOp>(table, mathUnary<math::SinOp>());
  add<CosOp>(table, mathUnary<math::CosOp>());
  add<TanOp>(table, mathUnary<math::TanOp>());
  add<SinhOp>(table, mathUnary<math::SinhOp>());
  add<CoshOp>(table, mathUnary<math::CoshOp>());
  add<AsinOp>(table, mathUnary<math::AsinOp>());
  add<AcosOp>(table, mathUnary<math::AcosOp>());
  add<AtanOp>(table, mathUnary<math::AtanOp>());
  add<AsinhOp>(table, mathUnary<math::AsinhOp>());
  add<AcoshOp>(table, mathUnary<math::AcoshOp>());
  add<AtanhOp>(table, mathUnary<math::AtanhOp>());
  add<SigmoidOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                           Operation *) { return sigmoid(b, l, a[0], t); });
  add<SiluOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                        Operation *) -> Value {
    return arith::MulFOp::create(b, l, a[0], sigmoid(b, l, a[0], t));
  });
  // gelu(x) = 0.5 x (1 + erf(x / sqrt(2)))
  add<GeluOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                        Operation *) -> Value {
    Value x = a[0];
    Value scaled = arith::MulFOp::create(
        b, l, x, createScalarConstant(b, l, t, M_SQRT1_2));
    Value erf = math::ErfOp::create(b, l, scaled);
    Value onePlus =
        arith::AddFOp::create(b, l, createScalarConstant(b, l, t, 1.0), erf);
    Value half =
        arith::MulFOp::create(b, l, x, createScalarConstant(b, l, t, 0.5));
    return arith::MulFOp::create(b, l, half, onePlus);
  });
  // gelu_tanh(x) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  add<GeluTanhOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                            Operation *) -> Value {
    Value x = a[0];
    Value x3 = arith::MulFOp::create(b, l, x, arith::MulFOp::create(b, l, x, x));
    Value inner = arith::AddFOp::create(
        b, l, x,
        arith::MulFOp::create(b, l, x3, createScalarConstant(b, l, t, 0.044715)));
    Value scaled = arith::MulFOp::create(
        b, l, inner, createScalarConstant(b, l, t, std::sqrt(2.0 / M_PI)));
    Value th = math::TanhOp::create(b, l, scaled);
    Value onePlus =
        arith::AddFOp::create(b, l, createScalarConstant(b, l, t, 1.0), th);
    Value half =
        arith::MulFOp::create(b, l, x, createScalarConstant(b, l, t, 0.5));
    return arith::MulFOp::create(b, l, half, onePlus);
  });
  add<ReluOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                        Operation *) -> Value {
    Value zero = createScalarConstant(b, l, t, 0.0);
    if (isFloat(t))
      return arith::MaximumFOp::create(b, l, a[0], zero);
    return arith::MaxSIOp::create(b, l, a[0], zero);
  });
  add<NegativeOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                            Operation *) -> Value {
    if (isFloat(t))
      return arith::NegFOp::create(b, l, a[0]);
    return arith::SubIOp::create(b, l, createScalarConstant(b, l, t, 0), a[0]);
  });
  add<AbsOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                       Operation *) -> Value {
    if (isFloat(t))
      return math::AbsFOp::create(b, l, a[0]);
    return math::AbsIOp::create(b, l, a[0]);
  });
  // Rounding is the identity on integers.
  auto rounding = [](auto tag) -> ScalarFn {
    using MathOp = decltype(tag);
    return [](OpBuilder &b, Location l, ValueRange a, Type t,
              Operation *) -> Value {
      if (!isFloat(t))
        return a[0];
      return MathOp::create(b, l, a[0]);
    };
  };
  add<FloorOp>(table, rounding(math::FloorOp()));
  add<CeilOp>(table, rounding(math::CeilOp()));
  add<RoundOp>(table, rounding(math::RoundEvenOp()));
  // NaN is the one value unordered with itself.
  add<IsNanOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type,
                         Operation *) -> Value {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, a[0], a[0]);
  });
  add<IsInfOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                         Operation *) -> Value {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ,
                                 math::AbsFOp::create(b, l, a[0]),
                                 createScalarConstant(b, l, t, INFINITY));
  });
  add<LogicalNotOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                              Operation *) -> Value {
    return arith::XOrIOp::create(b, l, a[0], createScalarConstant(b, l, t, 1));
  });
  add<ClipOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                        Operation *op) -> Value {
    auto clip = cast<ClipOp>(op);
    double lo = clip.getMin().convertToDouble();
    double hi = clip.getMax().convertToDouble();
    Value vlo = createScalarConstant(b, l, t, lo);
    Value vhi = createScalarConstant(b, l, t, hi);
    if (isFloat(t))
      return arith::MinimumFOp::create(
          b, l, arith::MaximumFOp::create(b, l, a[0], vlo), vhi);
    return arith::MinSIOp::create(
        b, l, arith::MaxSIOp::create(b, l, a[0], vlo), vhi);
  });
  add<AstypeOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                          Operation *op) -> Value {
    Type to = cast<AstypeOp>(op).getDtype();
    return castScalar(b, l, a[0], to, isUnsignedDtype(t));
  });

  add<AddOp>(table, arithBinary<arith::AddFOp, arith::AddIOp>());
  add<SubtractOp>(table, arithBinary<arith::SubFOp, arith::SubIOp>());
  add<MultiplyOp>(table, arithBinary<arith::MulFOp, arith::MulIOp>());
  add<DivideOp>(table, integerSafeDivide);
  add<MaximumOp>(
      table, arithBinary<arith::MaximumFOp, arith::MaxSIOp, arith::MaxUIOp>());
  add<MinimumOp>(
      table, arithBinary<arith::MinimumFOp, arith::MinSIOp, arith::MinUIOp>());
  add<PowerOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type t,
                         Operation *) -> Value {
    if (isFloat(t))
      return math::PowFOp::create(b, l, a[0], a[1]);
    return integerPower(b, l, a[0], a[1], isUnsignedDtype(t));
  });
  add<FloorModOp>(table, withFlag<remainder>(/*floor=*/true));
  add<FmodOp>(table, withFlag<remainder>(/*floor=*/false));
  add<LeftShiftOp>(table, withFlag<shift>(/*left=*/true));
  add<RightShiftOp>(table, withFlag<shift>(/*left=*/false));
  add<EqualOp>(
      table, compare(arith::CmpFPredicate::OEQ, arith::CmpIPredicate::eq,
                     arith::CmpIPredicate::eq));
  add<NotEqualOp>(
      table, compare(arith::CmpFPredicate::UNE, arith::CmpIPredicate::ne,
                     arith::CmpIPredicate::ne));
  add<LessOp>(
      table, compare(arith::CmpFPredicate::OLT, arith::CmpIPredicate::slt,
                     arith::CmpIPredicate::ult));
  add<LessEqualOp>(
      table, compare(arith::CmpFPredicate::OLE, arith::CmpIPredicate::sle,
                     arith::CmpIPredicate::ule));
  add<GreaterOp>(
      table, compare(arith::CmpFPredicate::OGT, arith::CmpIPredicate::sgt,
                     arith::CmpIPredicate::ugt));
  add<GreaterEqualOp>(
      table, compare(arith::CmpFPredicate::OGE, arith::CmpIPredicate::sge,
                     arith::CmpIPredicate::uge));
  add<LogicalAndOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type,
                              Operation *) -> Value {
    return arith::AndIOp::create(b, l, a[0], a[1]);
  });
  add<LogicalOrOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type,
                             Operation *) -> Value {
    return arith::OrIOp::create(b, l, a[0], a[1]);
  });
  // where(cond, x, y): the dtype passed is the last operand's (x/y).
  add<WhereOp>(table, [](OpBuilder &b, Location l, ValueRange a, Type,
                         Operation *) -> Value {
    return arith::SelectOp::create(b, l, a[0], a[1], a[2]);
  });
}
