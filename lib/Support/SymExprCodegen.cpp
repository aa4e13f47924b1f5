//===- SymExprCodegen.cpp - Emit symbolic expressions as index math -------===//
//
// The unchecked form serves loop code, where sizes were validated on the
// host; the checked form serves the host itself (shape lowering), where a
// wrapped product or a zero divisor would otherwise become a wrong
// allocation size or a SIGFPE.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Support/SymExprCodegen.h"
#include "RelaxDialect/Symbolic/SymbolicTree.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <limits>

using namespace mlir;
using namespace mlir::relax;

namespace {
/// Emits a tree, optionally with run-time checks (`onFailure` non-null).
struct TreeEmitter {
  OpBuilder &b;
  Location loc;
  function_ref<Value(StringRef)> lookupVar;
  SymFailureFn onFailure;

  Value i64Const(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), v);
  }
  Value toI64(Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }
  Value cmp(arith::CmpIPredicate pred, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, pred, x, y);
  }

  /// a + b; overflow iff both operands differ in sign from the sum.
  Value checkedAdd(Value a, Value c) {
    Value x = toI64(a), y = toI64(c);
    Value sum = arith::AddIOp::create(b, loc, x, y);
    Value sx = arith::XOrIOp::create(b, loc, x, sum);
    Value sy = arith::XOrIOp::create(b, loc, y, sum);
    Value both = arith::AndIOp::create(b, loc, sx, sy);
    onFailure(cmp(arith::CmpIPredicate::slt, both, i64Const(0)),
              "%lld + %lld overflows int64", x, y);
    return arith::AddIOp::create(b, loc, a, c);
  }

  /// a * b; overflow iff the high half of the 128-bit product is not the
  /// sign extension of the low half.
  Value checkedMul(Value a, Value c) {
    Value x = toI64(a), y = toI64(c);
    auto wide = arith::MulSIExtendedOp::create(b, loc, x, y);
    Value sign = arith::ShRSIOp::create(b, loc, wide.getLow(), i64Const(63));
    onFailure(cmp(arith::CmpIPredicate::ne, wide.getHigh(), sign),
              "%lld * %lld overflows int64", x, y);
    return arith::MulIOp::create(b, loc, a, c);
  }

  /// The divisor actually used: 1 where the real one would trap, so that
  /// the division is harmless until the caller's error branch.
  Value safeDivisor(Value divisor, Value unsafe) {
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    return arith::SelectOp::create(b, loc, unsafe, one, divisor);
  }

  Value checkedFloorDiv(Value a, Value c) {
    Value x = toI64(a), y = toI64(c);
    Value zero = cmp(arith::CmpIPredicate::eq, y, i64Const(0));
    Value overflow = arith::AndIOp::create(
        b, loc,
        cmp(arith::CmpIPredicate::eq, x,
            i64Const(std::numeric_limits<int64_t>::min())),
        cmp(arith::CmpIPredicate::eq, y, i64Const(-1)));
    onFailure(zero, "%lld floordiv %lld divides by zero", x, y);
    onFailure(overflow, "%lld floordiv %lld overflows int64", x, y);
    Value unsafe = arith::OrIOp::create(b, loc, zero, overflow);
    return arith::FloorDivSIOp::create(b, loc, a, safeDivisor(c, unsafe));
  }

  /// Floor modulo: a - floordiv(a, b) * b (the result has b's sign). The
  /// intermediate product may wrap, the difference is still exact; a mod -1
  /// is 0 = a mod 1, which avoids INT64_MIN / -1.
  Value floorMod(Value a, Value c) {
    if (onFailure) {
      Value x = toI64(a), y = toI64(c);
      Value zero = cmp(arith::CmpIPredicate::eq, y, i64Const(0));
      onFailure(zero, "%lld mod %lld divides by zero", x, y);
      Value minusOne = cmp(arith::CmpIPredicate::eq, y, i64Const(-1));
      c = safeDivisor(c, arith::OrIOp::create(b, loc, zero, minusOne));
    }
    Value q = arith::FloorDivSIOp::create(b, loc, a, c);
    Value prod = arith::MulIOp::create(b, loc, q, c);
    return arith::SubIOp::create(b, loc, a, prod);
  }

  Value emit(const sym::Tree &tree) {
    using Kind = sym::Tree::Kind;
    if (tree.kind == Kind::Constant)
      return arith::ConstantIndexOp::create(b, loc, tree.value);
    if (tree.kind == Kind::Var)
      return lookupVar(tree.name);
    SmallVector<Value> operands;
    for (const sym::Tree &operand : tree.operands) {
      Value v = emit(operand);
      if (!v)
        return Value();
      operands.push_back(v);
    }
    Value acc = operands.front();
    for (Value next : ArrayRef<Value>(operands).drop_front()) {
      switch (tree.kind) {
      case Kind::Add:
        acc = onFailure ? checkedAdd(acc, next)
                        : arith::AddIOp::create(b, loc, acc, next);
        break;
      case Kind::Mul:
        acc = onFailure ? checkedMul(acc, next)
                        : arith::MulIOp::create(b, loc, acc, next);
        break;
      case Kind::FloorDiv:
        acc = onFailure ? checkedFloorDiv(acc, next)
                        : arith::FloorDivSIOp::create(b, loc, acc, next);
        break;
      case Kind::Mod:
        acc = floorMod(acc, next);
        break;
      case Kind::Min:
        acc = arith::MinSIOp::create(b, loc, acc, next);
        break;
      case Kind::Max:
        acc = arith::MaxSIOp::create(b, loc, acc, next);
        break;
      default:
        llvm_unreachable("leaf kinds handled above");
      }
    }
    return acc;
  }
};
} // namespace

Value mlir::relax::emitSymExpr(OpBuilder &builder, Location loc,
                               const sym::Expr &expr,
                               function_ref<Value(StringRef)> lookupVar) {
  if (!expr)
    return Value();
  return TreeEmitter{builder, loc, lookupVar, nullptr}.emit(sym::toTree(expr));
}

Value mlir::relax::emitCheckedSymExpr(OpBuilder &builder, Location loc,
                                      const sym::Expr &expr,
                                      function_ref<Value(StringRef)> lookupVar,
                                      SymFailureFn onFailure) {
  if (!expr)
    return Value();
  assert(onFailure && "the checked form needs a failure handler");
  return TreeEmitter{builder, loc, lookupVar, onFailure}.emit(
      sym::toTree(expr));
}
