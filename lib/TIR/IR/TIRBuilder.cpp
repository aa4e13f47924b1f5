//===- TIRBuilder.cpp - C++ construction helpers for tir ------------------===//

#include "RelaxDialect/TIR/IR/TIRBuilder.h"
#include "RelaxDialect/Support/SymExprCodegen.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::tir;

PrimFuncOp
tir::buildPrimFunc(OpBuilder &builder, Location loc, StringRef name,
                   ArrayRef<Type> bufferAndIndexParamTypes,
                   function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  auto type = builder.getFunctionType(bufferAndIndexParamTypes, {});
  auto func = PrimFuncOp::create(builder, loc, name, type);
  Block *entry = func.addEntryBlock();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(entry);
  if (body)
    body(builder, loc, entry->getArguments());
  ReturnOp::create(builder, loc);
  return func;
}

Value tir::materializeDim(OpBuilder &builder, Location loc,
                          const relax::sym::Expr &expr) {
  // One tir.sym_var per variable per expression; CSE merges the rest.
  llvm::StringMap<Value> vars;
  return relax::emitSymExpr(builder, loc, expr, [&](StringRef name) {
    Value &value = vars[name];
    if (!value)
      value = SymVarOp::create(builder, loc, name);
    return value;
  });
}

/// Builds the loops from `depth` inward, collecting induction variables.
static void
buildLoops(OpBuilder &builder, Location loc, ValueRange upperBounds,
           ArrayRef<LoopKind> kinds, unsigned depth,
           SmallVectorImpl<Value> &ivs,
           function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  if (depth == upperBounds.size()) {
    body(builder, loc, ivs);
    return;
  }
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  LoopKind kind = kinds.empty() ? LoopKind::serial : kinds[depth];
  ForOp::create(builder, loc, zero, upperBounds[depth], one, kind,
                [&](OpBuilder &b, Location l, Value iv) {
                  ivs.push_back(iv);
                  buildLoops(b, l, upperBounds, kinds, depth + 1, ivs, body);
                });
}

void tir::buildLoopNest(
    OpBuilder &builder, Location loc, ValueRange upperBounds,
    ArrayRef<LoopKind> kinds,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  assert((kinds.empty() || kinds.size() == upperBounds.size()) &&
         "one kind per loop");
  SmallVector<Value> ivs;
  buildLoops(builder, loc, upperBounds, kinds, 0, ivs, body);
}

void tir::buildLoopNest(
    OpBuilder &builder, Location loc, ArrayRef<relax::sym::Expr> extents,
    ArrayRef<LoopKind> kinds,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  SmallVector<Value> upperBounds;
  for (const relax::sym::Expr &extent : extents)
    upperBounds.push_back(materializeDim(builder, loc, extent));
  buildLoopNest(builder, loc, ValueRange(upperBounds), kinds, body);
}
