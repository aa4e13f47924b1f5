//===- SymExprCodegen.cpp - Emit symbolic expressions as index math -------===//

#include "RelaxDialect/Support/SymExprCodegen.h"
#include "RelaxDialect/Symbolic/SymbolicTree.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::relax;

static Value emitTree(OpBuilder &b, Location loc, const sym::Tree &tree,
                      function_ref<Value(StringRef)> lookupVar) {
  using Kind = sym::Tree::Kind;
  if (tree.kind == Kind::Constant)
    return arith::ConstantIndexOp::create(b, loc, tree.value);
  if (tree.kind == Kind::Var)
    return lookupVar(tree.name);
  SmallVector<Value> operands;
  for (const sym::Tree &operand : tree.operands) {
    Value v = emitTree(b, loc, operand, lookupVar);
    if (!v)
      return Value();
    operands.push_back(v);
  }
  Value acc = operands.front();
  for (Value next : ArrayRef<Value>(operands).drop_front()) {
    switch (tree.kind) {
    case Kind::Add:
      acc = arith::AddIOp::create(b, loc, acc, next);
      break;
    case Kind::Mul:
      acc = arith::MulIOp::create(b, loc, acc, next);
      break;
    case Kind::FloorDiv:
      acc = arith::FloorDivSIOp::create(b, loc, acc, next);
      break;
    case Kind::Mod: {
      // Floor modulo: a - floordiv(a, b) * b (the result has b's sign).
      Value q = arith::FloorDivSIOp::create(b, loc, acc, next);
      Value prod = arith::MulIOp::create(b, loc, q, next);
      acc = arith::SubIOp::create(b, loc, acc, prod);
      break;
    }
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

Value mlir::relax::emitSymExpr(OpBuilder &builder, Location loc,
                               const sym::Expr &expr,
                               function_ref<Value(StringRef)> lookupVar) {
  if (!expr)
    return Value();
  return emitTree(builder, loc, sym::toTree(expr), lookupVar);
}
