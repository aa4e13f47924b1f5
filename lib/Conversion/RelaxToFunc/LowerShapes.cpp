//===- LowerShapes.cpp - --relax-lower-shapes -----------------------------===//
//
// Relax functions become host functions over memrefs. Symbolic variables
// become `index` values bound at their binding points, every other dim at a
// binding point is checked at run time, and call_tir outputs are allocated
// with sizes computed from the symbolic shapes. Every size computed here is
// overflow-checked (so is the byte size of each allocation), divisors of
// floordiv/mod are checked for zero, and a failed allocation is an error.
//
// Failed checks never abort: the first failure is recorded in the runtime's
// error slot (relax_rt_shape_error) and the function returns at once with
// poison results; the caller reads the message back (relax_rt_last_error).
// The lowering is a straight walk over each function's single block, which is
// what relax functions are once dataflow regions are inlined.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "RelaxDialect/Extern/IR/ExternDialect.h"
#include "RelaxDialect/Conversion/HostMemoryToGPU/HostMemoryToGPU.h"
#include "RelaxDialect/Conversion/RelaxToFunc/RelaxToFunc.h"
#include "RelaxDialect/Relax/IR/StorageRoot.h"
#include "RelaxDialect/Relax/Transforms/MemoryPlan.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/Support/SymExprCodegen.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/Path.h"
#include "llvm/ADT/StringSet.h"

#include <functional>

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXLOWERSHAPES
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::lower_shapes;

/// A private declaration of a runtime function, created on first use.
func::FuncOp FunctionLowering::declareRuntimeFunction(StringRef name,
                                                      FunctionType type,
                                                      bool cInterface) {
  auto module = src->getParentOfType<ModuleOp>();
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), name, type);
  decl.setPrivate();
  if (cInterface)
    decl->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
  return decl;
}
/// Names the leaves of a parameter for messages: "'kv'" for a tensor,
/// "'kv' field 1.0" for field 0 of field 1 of a tuple.
static void appendLeafNames(Type type, const std::string &name,
                            const std::string &path,
                            SmallVectorImpl<std::string> &names) {
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple) {
    names.push_back(path.empty() ? name : name + " field " + path);
    return;
  }
  for (auto [i, field] : llvm::enumerate(tuple.getTypes()))
    appendLeafNames(field, name,
                    path.empty() ? std::to_string(i)
                                 : path + "." + std::to_string(i),
                    names);
}
LogicalResult FunctionLowering::lowerSignature() {
  // Parameters are fully dynamic memrefs: every dim, static ones included,
  // is checked against the descriptor the caller passed. A tuple parameter
  // is its leaves, one memref each (appendLeafTypes).
  SmallVector<Type> inputs, staticInputs, results, leafRelaxTypes;
  SmallVector<std::string> names;
  Block &srcEntry = src.getBody().front();
  for (auto [i, t] : llvm::enumerate(src.getArgumentTypes())) {
    auto name = src.getArgAttrOfType<StringAttr>(i, "relax.name");
    appendLeafNames(t,
                    name ? ("'" + name.getValue() + "'").str()
                         : "#" + std::to_string(i),
                    "", names);
    for (Type leaf : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(leaf);
      if (failed(converted))
        return src.emitOpError("parameter #")
               << i << " of type " << t
               << " cannot be lowered to host code yet";
      leafRelaxTypes.push_back(leaf);
      staticInputs.push_back(*converted);
      inputs.push_back(dynamicForm(*converted));
    }
  }
  for (auto [i, t] : llvm::enumerate(src.getResultTypes())) {
    for (Type field : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(field);
      if (failed(converted))
        return src.emitOpError("result #")
               << i << " of type " << t << " cannot be lowered yet";
      results.push_back(*converted);
    }
  }
  builder.setInsertionPoint(src);
  dst = func::FuncOp::create(builder, src.getLoc(), src.getSymName(),
                             builder.getFunctionType(inputs, results));
  if (src.getSymVisibility())
    dst.setSymVisibilityAttr(src.getSymVisibilityAttr());
  // Argument attributes (relax.name) have served the check messages; they
  // are not carried over, LLVM would not know them.
  Block *entry = dst.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  // Bind the variables of all parameters before checking any dim, so that
  // `f(x: [n + 1], y: [n])` checks x against the n that y binds.
  SmallVector<SmallVector<bool>> binds;
  for (auto [i, leaf] : llvm::enumerate(leafRelaxTypes)) {
    auto tensor = dyn_cast<RelaxTensorType>(leaf);
    binds.push_back(tensor && tensor.hasRank()
                        ? bindVars(entry->getArgument(i), tensor, names[i])
                        : SmallVector<bool>());
  }
  for (auto [i, leaf] : llvm::enumerate(leafRelaxTypes)) {
    auto tensor = dyn_cast<RelaxTensorType>(leaf);
    if (tensor && tensor.hasRank() &&
        failed(checkDims(entry->getArgument(i), tensor, names[i],
                         /*isArgument=*/true, binds[i])))
      return failure();
  }
  SmallVector<std::string> bound;
  for (auto &entry : env)
    bound.push_back(entry.getKey().str());
  checkSymBounds(bound);
  flushChecks();
  unsigned next = 0;
  for (BlockArgument arg : srcEntry.getArguments()) {
    SmallVector<Value> leaves;
    for (size_t n = leafTypes(arg.getType()).size(); n > 0; --n, ++next)
      leaves.push_back(castTo(entry->getArgument(next), staticInputs[next]));
    mapLeaves(arg, leaves);
  }
  return success();
}
LogicalResult FunctionLowering::lowerConstant(ConstantOp op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto type = cast<MemRefType>(*convertRelaxType(op.getResult().getType()));
  std::string name = "__relax_const_" + std::to_string(messageCounter++);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    memref::GlobalOp::create(builder, op.getLoc(), name,
                             builder.getStringAttr("private"), type,
                             op.getValue(), /*constant=*/true,
                             builder.getI64IntegerAttr(64));
  }
  mapping.map(op.getResult(),
              memref::GetGlobalOp::create(builder, op.getLoc(), type, name));
  return success();
}
LogicalResult FunctionLowering::lowerReturn(ReturnOp op) {
  SmallVector<Value> values;
  for (Value v : op.getOperands()) {
    FailureOr<SmallVector<Value>> leaves = lookupLeaves(op, v);
    if (failed(leaves))
      return failure();
    llvm::append_range(values, *leaves);
  }
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(values, dst.getResultTypes()))) {
    auto &[value, type] = pair;
    if (value.getType() != type)
      value = castTo(value, type);
  }
  // Free what is not handed to the caller.
  llvm::SmallPtrSet<Value, 8> escaping;
  for (Value v : values) {
    escaping.insert(v);
    if (Value root = aliasRoot.lookup(v))
      escaping.insert(root);
  }
  if (options.recordMemory && plan)
    recordPlan(op.getLoc());
  for (Value buffer : ownedBuffers)
    if (!escaping.contains(buffer))
      freeBuffer(buffer, op.getLoc());
  // What the caller takes ownership of: each buffer this function allocated,
  // once (a buffer returned twice is owned through its first result).
  SmallVector<bool> &owned = ownedResults[src.getSymName()];
  owned.clear();
  llvm::SmallPtrSet<Value, 8> handedOver;
  for (Value v : values) {
    Value root = aliasRoot.lookup(v) ? aliasRoot.lookup(v) : v;
    owned.push_back(llvm::is_contained(ownedBuffers, root) &&
                    handedOver.insert(root).second);
  }
  func::ReturnOp::create(builder, op.getLoc(), values);
  return success();
}
LogicalResult FunctionLowering::lowerOp(Operation *op) {
  builder.setInsertionPointToEnd(builder.getInsertionBlock());
  if (auto callTIR = dyn_cast<CallTIROp>(op))
    return lowerCallTIR(callTIR);
  if (auto inplace = dyn_cast<CallTIRInplaceOp>(op))
    return lowerCallTIRInplace(inplace);
  if (auto ifOp = dyn_cast<IfOp>(op))
    return lowerIf(ifOp);
  if (auto loop = dyn_cast<WhileOp>(op))
    return lowerWhile(loop);
  if (auto dps = dyn_cast<CallDPSPackedOp>(op))
    return lowerCallDPSPacked(dps);
  if (auto cast = dyn_cast<MatchCastOp>(op))
    return lowerMatchCast(cast);
  if (auto view = dyn_cast<ViewOp>(op))
    return lowerView(view);
  if (auto check = dyn_cast<AssertDimsOp>(op))
    return lowerAssertDims(check);
  if (auto check = dyn_cast<AssertIndicesOp>(op))
    return lowerAssertIndices(check);
  if (auto toShape = dyn_cast<TensorToShapeOp>(op))
    return lowerTensorToShape(toShape);
  if (auto constant = dyn_cast<ConstantOp>(op))
    return lowerConstant(constant);
  if (auto call = dyn_cast<CallOp>(op))
    return lowerCall(call);
  if (auto ret = dyn_cast<ReturnOp>(op))
    return lowerReturn(ret);
  if (auto tuple = dyn_cast<TupleOp>(op)) {
    SmallVector<Value> leaves;
    for (Value field : tuple.getFields()) {
      // A shape has no run-time value here; such a tuple can be taken apart
      // but not passed on (function signatures reject shapes).
      if (isa<RelaxShapeType>(field.getType())) {
        leaves.push_back(Value());
        continue;
      }
      FailureOr<SmallVector<Value>> fieldLeaves = lookupLeaves(op, field);
      if (failed(fieldLeaves))
        return failure();
      llvm::append_range(leaves, *fieldLeaves);
    }
    tuples[tuple.getResult()] = std::move(leaves);
    return success();
  }
  if (auto get = dyn_cast<TupleGetItemOp>(op)) {
    FailureOr<SmallVector<Value>> leaves = lookupLeaves(op, get.getTuple());
    if (failed(leaves))
      return failure();
    auto [first, count] = fieldLeafRange(
        cast<TupleType>(get.getTuple().getType()), get.getIndex());
    mapLeaves(get.getResult(), ArrayRef<Value>(*leaves).slice(first, count));
    return success();
  }
  if (isa<ShapeOfOp, ShapeExprOp>(op) && op->use_empty())
    return success();
  if (op->getDialect() && op->getDialect()->getNamespace() == "relax")
    return op->emitOpError("has no host lowering: legalize high-level ops "
                           "first (relax-legalize-ops)");
  return op->emitOpError("cannot appear in a relax function being lowered");
}
LogicalResult FunctionLowering::run() {
  // Dataflow regions are a grouping only: inline them.
  SmallVector<DataflowOp> regions;
  src.walk([&](DataflowOp df) { regions.push_back(df); });
  for (DataflowOp df : regions) {
    Block &body = df.getBody().front();
    auto output = cast<OutputOp>(body.getTerminator());
    df.replaceAllUsesWith(output.getOperands());
    output.erase();
    df->getBlock()->getOperations().splice(df->getIterator(),
                                           body.getOperations());
    df.erase();
  }
  if (failed(lowerSignature()))
    return failure();
  liveness.emplace(src);
  if (!liveness->isAnalyzable())
    liveness.reset();
  if (failed(allocateArena()))
    return failure();
  for (Operation &op : llvm::make_early_inc_range(src.getBody().front())) {
    if (failed(lowerOp(&op)))
      return failure();
    freeDeadBuffers(&op);
  }
  return success();
}
namespace {
struct RelaxLowerShapesPass
    : public relax::impl::RelaxLowerShapesBase<RelaxLowerShapesPass> {
  using RelaxLowerShapesBase::RelaxLowerShapesBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<FuncOp> funcs(module.getOps<FuncOp>());
    if (funcs.empty())
      return;
    OpBuilder builder(module.getContext());
    if (!module.lookupSymbol(kShapeErrorFn)) {
      builder.setInsertionPointToStart(module.getBody());
      Type ptr = LLVM::LLVMPointerType::get(module.getContext());
      auto decl = func::FuncOp::create(
          builder, module.getLoc(), kShapeErrorFn,
          builder.getFunctionType({ptr, builder.getI64Type(),
                                   builder.getI64Type()},
                                  {}));
      decl.setPrivate();
    }
    // Library declarations become C-interface func.func declarations named
    // by their link names; this happens first because a link name may equal
    // the extern.func's own symbol name.
    llvm::StringMap<func::FuncOp> externs;
    SmallVector<std::tuple<std::string, std::string, FunctionType, Location>>
        decls;
    for (ext::FuncOp decl :
         llvm::make_early_inc_range(module.getOps<ext::FuncOp>())) {
      SmallVector<Type> params;
      for (Type t : decl.getArgumentTypes()) {
        FailureOr<Type> converted = convertRelaxType(t);
        if (failed(converted)) {
          decl.emitOpError("parameter type ")
              << t << " cannot be lowered to host code";
          return signalPassFailure();
        }
        params.push_back(*converted);
      }
      decls.emplace_back(decl.getSymName().str(), decl.getLinkName().str(),
                         builder.getFunctionType(params, {}), decl.getLoc());
      decl.erase();
    }
    builder.setInsertionPointToStart(module.getBody());
    for (auto &[symName, linkName, type, loc] : decls) {
      auto callee = module.lookupSymbol<func::FuncOp>(linkName);
      if (!callee) {
        callee = func::FuncOp::create(builder, loc, linkName, type);
        callee.setPrivate();
        callee->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
      }
      externs[symName] = callee;
    }

    // An in-place update of a constant's storage would write into a
    // read-only global (or, once relax-externalize-params has run, into the
    // weights every later call reads): the verifier rejects it, and so does
    // this pass for IR that was never verified. Checked before any function
    // is lowered, while every callee is still a relax.func.
    SymbolTableCollection symbols;
    WalkResult storage = module.walk([&](Operation *op) {
      LogicalResult checked = success();
      if (auto inplace = dyn_cast<CallTIRInplaceOp>(op))
        checked = verifyInPlaceStorage(inplace, symbols);
      else if (auto call = dyn_cast<CallOp>(op))
        checked = verifyInPlaceStorage(call, symbols);
      return failed(checked) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (storage.wasInterrupted())
      return signalPassFailure();

    // Callees first, so that a call knows which results it owns.
    SmallVector<FuncOp> order;
    llvm::SmallPtrSet<Operation *, 8> visited;
    std::function<void(FuncOp)> visit = [&](FuncOp func) {
      if (!visited.insert(func).second)
        return;
      func.walk([&](CallOp call) {
        if (auto callee = module.lookupSymbol<FuncOp>(call.getCallee()))
          visit(callee);
      });
      order.push_back(func);
    };
    for (FuncOp func : funcs)
      visit(func);
    unsigned counter = 0;
    OwnedResultsMap ownedResults;
    RelaxLowerShapesOptions options;
    options.reuseArena = reuseArena;
    options.freeAfterLastUse = freeAfterLastUse;
    options.recordMemory = recordMemory;
    for (FuncOp func : order) {
      FunctionLowering lowering(func, options, counter, externs, ownedResults);
      if (failed(lowering.run()))
        return signalPassFailure();
    }
    for (FuncOp func : funcs)
      func.erase();
    // Lowered loop programs no longer need the names of their tir_vars
    // parameters (convert-tir-to-scf resolved them); dropping them keeps the
    // LLVM IR translation from warning about unknown argument attributes.
    for (auto fn : module.getOps<func::FuncOp>())
      for (unsigned i = 0, e = fn.getNumArguments(); i < e; ++i)
        fn.removeArgAttr(i, StringAttr::get(&getContext(), "tir.var"));
  }
};
} // namespace
