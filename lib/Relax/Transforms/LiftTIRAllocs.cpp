//===- LiftTIRAllocs.cpp - --relax-lift-tir-allocs -------------------------===//
//
// Intermediates that fusion left inside a merged program (a matmul result
// that a fused reduction reads, the rotated halves of a rotary embedding)
// are `tir.alloc`s of global scope at the top of the program: the host
// lowering allocates them on every call, outside any plan. This pass makes
// each one an extra output of the program, so that every call_tir of it
// returns the buffer as a result nobody reads: the memory planner then
// places it in the caller's arena, where its slot is free again as soon as
// the call returns. A relax.call_tir_inplace of it (a rotary fused into a
// KV-cache append) gets the buffer as an extra fresh output (-1).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/CallTIRBinding.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXLIFTTIRALLOCS
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

namespace {
/// The program's liftable scratch: global-scope allocs directly in its body
/// whose dims are known and use only variables the parameters bind.
SmallVector<tir::AllocOp> liftableAllocs(tir::PrimFuncOp func) {
  llvm::StringSet<> bound;
  for (Type t : func.getArgumentTypes())
    if (auto buffer = dyn_cast<tir::BufferType>(t))
      for (const sym::Expr &dim : buffer.getDims())
        if (dim && dim.isVar())
          bound.insert(dim.getVarName());
  SmallVector<tir::AllocOp> allocs;
  if (func.getBody().empty())
    return allocs;
  for (auto alloc : func.getBody().front().getOps<tir::AllocOp>()) {
    tir::BufferType type = alloc.getType();
    if (type.getScope() != tir::MemoryScope::global ||
        !type.getShape().isFullyKnown())
      continue;
    SmallVector<std::string> vars;
    for (const sym::Expr &dim : type.getDims())
      dim.collectVars(vars);
    if (llvm::all_of(vars,
                     [&](const std::string &v) { return bound.contains(v); }))
      allocs.push_back(alloc);
  }
  return allocs;
}

struct RelaxLiftTIRAllocsPass
    : public relax::impl::RelaxLiftTIRAllocsBase<RelaxLiftTIRAllocsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : llvm::make_early_inc_range(module.getOps<tir::PrimFuncOp>()))
      if (failed(lift(func, module)))
        return signalPassFailure();
  }

  LogicalResult lift(tir::PrimFuncOp func, ModuleOp module) {
    SmallVector<tir::AllocOp> allocs = liftableAllocs(func);
    if (allocs.empty())
      return success();
    // Every user must be a call_tir the pass can extend, and bind every
    // variable of the lifted shapes to a known caller expression.
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(func, module);
    if (!uses)
      return success();
    SmallVector<std::pair<Operation *, SmallVector<Type>>> calls;
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *call = use.getUser();
      llvm::StringMap<sym::Expr> binding;
      LogicalResult bound = failure();
      if (auto plain = dyn_cast<CallTIROp>(call))
        bound = bindCallTIRVars(plain, func, binding, /*emitErrors=*/false);
      else if (auto inplace = dyn_cast<CallTIRInplaceOp>(call))
        bound = bindCallTIRVars(inplace, func, binding, /*emitErrors=*/false);
      if (failed(bound))
        return success();
      SmallVector<Type> extra;
      for (tir::AllocOp alloc : allocs) {
        SmallVector<sym::Expr> dims;
        for (const sym::Expr &dim : alloc.getType().getDims()) {
          SmallVector<std::string> vars;
          dim.collectVars(vars);
          if (llvm::any_of(vars, [&](const std::string &v) {
                return !binding.lookup(v);
              }))
            return success();
          dims.push_back(dim.substitute(binding));
        }
        extra.push_back(
            RelaxTensorType::get(SymShape(dims), alloc.getType().getDtype()));
      }
      calls.emplace_back(call, std::move(extra));
    }

    // New output parameters after the existing buffers, before the index
    // parameters of tir_vars.
    unsigned position = 0;
    for (Type t : func.getArgumentTypes())
      if (isa<tir::BufferType>(t))
        ++position;
    for (tir::AllocOp alloc : allocs) {
      if (failed(func.insertArgument(position, alloc.getType(),
                                     DictionaryAttr(), alloc.getLoc())))
        return failure();
      alloc.getResult().replaceAllUsesWith(func.getArgument(position));
      alloc.erase();
      ++position;
    }
    for (auto &[call, extra] : calls) {
      OpBuilder b(call);
      SmallVector<Type> types(call->getResultTypes());
      llvm::append_range(types, extra);
      OperationState state(call->getLoc(), call->getName());
      state.addOperands(call->getOperands());
      state.addAttributes(call->getAttrs());
      // The new buffers follow the fresh outputs' parameters, so they are
      // fresh outputs after the existing results.
      if (auto inplace = dyn_cast<CallTIRInplaceOp>(call)) {
        SmallVector<int64_t> indices(inplace.getInplaceIndices());
        indices.append(extra.size(), -1);
        state.attributes.set(inplace.getInplaceIndicesAttrName(),
                             b.getDenseI64ArrayAttr(indices));
      }
      state.addTypes(types);
      Operation *replacement = b.create(state);
      for (auto [from, to] :
           llvm::zip(call->getResults(), replacement->getResults()))
        from.replaceAllUsesWith(to);
      call->erase();
    }
    return success();
  }
};
} // namespace
