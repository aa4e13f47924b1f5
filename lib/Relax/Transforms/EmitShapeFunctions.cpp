//===- EmitShapeFunctions.cpp - --relax-emit-shape-functions --------------===//
//
// Generates, per entry, the function that computes the dims of its
// parameters and results from the values of its symbolic variables
// (ShapeFunctions.h). Callers of compiled code then never parse or evaluate
// the printed dims: relax-run, the C API and the JIT call this function.
// The arithmetic is SymExprCodegen's checked form, the one the shape
// lowering uses for the entry's own sizes, so the two agree on overflow,
// floordiv and mod.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/Relax/Transforms/ShapeFunctions.h"
#include "RelaxDialect/Support/SymExprCodegen.h"

#include "mlir/IR/SymbolTable.h"

#include <limits>

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXEMITSHAPEFUNCTIONS
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

std::string mlir::relax::shapeFunctionName(StringRef entry) {
  return (entry + "__shapes").str();
}

/// Appends the leaves of `type` (tuples flattened depth first, as the
/// lowered function passes them): a tensor's shape, else an unranked one.
static void appendLeaves(Type type, SmallVectorImpl<SymShape> &leaves) {
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type field : tuple.getTypes())
      appendLeaves(field, leaves);
    return;
  }
  if (auto tensor = dyn_cast<RelaxTensorType>(type))
    leaves.push_back(tensor.getShape());
  else
    leaves.push_back(SymShape());
}

ShapeFunctionLayout mlir::relax::getShapeFunctionLayout(FuncOp func) {
  ShapeFunctionLayout layout;
  layout.entry = func.getSymName().str();
  layout.function = shapeFunctionName(func.getSymName());
  for (Type t : func.getArgumentTypes())
    appendLeaves(t, layout.params);
  for (Type t : func.getResultTypes())
    appendLeaves(t, layout.results);
  for (auto [leaf, shape] : llvm::enumerate(layout.params)) {
    if (!shape.hasRank())
      continue;
    for (auto [d, dim] : llvm::enumerate(shape.getDims())) {
      if (!dim)
        continue;
      SmallVector<std::string> vars;
      dim.collectVars(vars);
      for (const std::string &v : vars)
        if (!llvm::is_contained(layout.symbols, v)) {
          layout.symbols.push_back(v);
          layout.bindings.push_back({-1, -1});
        }
      if (dim.isVar()) {
        auto k = llvm::find(layout.symbols, dim.getVarName().str()) -
                 layout.symbols.begin();
        if (layout.bindings[k].first < 0)
          layout.bindings[k] = {static_cast<int64_t>(leaf),
                                static_cast<int64_t>(d)};
      }
    }
  }
  return layout;
}

std::optional<SmallVector<int64_t>>
ShapeFunctionLayout::dimSymbols(const sym::Expr &dim) const {
  if (!dim)
    return std::nullopt;
  SmallVector<std::string> vars;
  dim.collectVars(vars);
  SmallVector<int64_t> indices;
  for (const std::string &v : vars) {
    const auto *it = llvm::find(symbols, v);
    if (it == symbols.end())
      return std::nullopt;
    indices.push_back(it - symbols.begin());
  }
  return indices;
}

/// Builds `layout.function` at the end of `module`.
static void emitShapeFunction(ModuleOp module,
                              const ShapeFunctionLayout &layout, Location loc) {
  MLIRContext *ctx = module.getContext();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  auto fn = func::FuncOp::create(b, loc, layout.function,
                                 b.getFunctionType({ptr, ptr}, {i32}));
  fn->setAttr(kShapeFunctionOfAttr, b.getStringAttr(layout.entry));
  Block *body = fn.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value symbolsPtr = body->getArgument(0), dimsPtr = body->getArgument(1);

  auto slot = [&](Value base, int64_t k) {
    return LLVM::GEPOp::create(b, loc, ptr, i64, base,
                               ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(k)});
  };
  llvm::StringMap<Value> symbols;
  for (auto [k, name] : llvm::enumerate(layout.symbols)) {
    Value v = LLVM::LoadOp::create(b, loc, i64, slot(symbolsPtr, k));
    symbols[name] = arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  }

  Value noValue = arith::ConstantIntOp::create(
      b, loc, i64, std::numeric_limits<int64_t>::min());
  Value unknown = arith::ConstantIntOp::create(b, loc, i64, -1);
  Value count = arith::ConstantIntOp::create(b, loc, i32, 0);
  int64_t next = 0;
  for (const SmallVector<SymShape> *leaves : {&layout.params, &layout.results})
    for (const SymShape &shape : *leaves) {
      if (!shape.hasRank())
        continue;
      for (const sym::Expr &dim : shape.getDims()) {
        Value out = unknown;
        if (layout.dimSymbols(dim)) {
          // Null while no operation of the dim can fail (a variable, a
          // constant).
          Value failed;
          Value v = emitCheckedSymExpr(
              b, loc, dim, [&](StringRef v) { return symbols.lookup(v); },
              [&](Value cond, StringRef, Value, Value) {
                failed =
                    failed ? arith::OrIOp::create(b, loc, failed, cond) : cond;
              });
          out = arith::IndexCastOp::create(b, loc, i64, v);
          if (failed) {
            out = arith::SelectOp::create(b, loc, failed, noValue, out);
            count = arith::AddIOp::create(
                b, loc, count, arith::ExtUIOp::create(b, loc, i32, failed));
          }
        }
        LLVM::StoreOp::create(b, loc, out, slot(dimsPtr, next++));
      }
    }
  func::ReturnOp::create(b, loc, count);
}

namespace {
struct RelaxEmitShapeFunctionsPass
    : public relax::impl::RelaxEmitShapeFunctionsBase<
          RelaxEmitShapeFunctionsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<FuncOp> funcs;
    for (auto func : module.getOps<FuncOp>()) {
      bool listed = llvm::is_contained(entries, func.getSymName().str());
      if (entries.empty() ? func.isPublic() : listed)
        funcs.push_back(func);
    }
    for (FuncOp func : funcs) {
      ShapeFunctionLayout layout = getShapeFunctionLayout(func);
      if (SymbolTable::lookupSymbolIn(module, layout.function)) {
        func.emitError() << "cannot generate the shape function of '"
                         << layout.entry << "': the module has a symbol '"
                         << layout.function << "' already";
        return signalPassFailure();
      }
      emitShapeFunction(module, layout, func.getLoc());
    }
  }
};
} // namespace
