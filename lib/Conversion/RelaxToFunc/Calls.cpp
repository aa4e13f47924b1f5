//===- Calls.cpp - call_tir, call_dps_packed, relax.call ------------------===//
//
// --relax-lower-shapes: calls of lowered loop programs (call_tir,
// call_tir_inplace), library functions (call_dps_packed) and other relax
// functions (relax.call), with their outputs and symbolic arguments.
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "RelaxDialect/Relax/IR/StorageRoot.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::lower_shapes;

FailureOr<SmallVector<Value>>
FunctionLowering::callArgs(Operation *op, ValueRange inputs,
                           ArrayRef<Value> outputs, ArrayRef<Value> extra,
                           func::FuncOp callee) {
  SmallVector<Value> args;
  for (Value v : inputs)
    args.push_back(mapping.lookup(v));
  llvm::append_range(args, outputs);
  llvm::append_range(args, extra);
  ArrayRef<Type> params = callee.getArgumentTypes();
  if (params.size() != args.size())
    return op->emitOpError("callee '")
           << callee.getSymName() << "' takes " << params.size()
           << " arguments after lowering, the call has " << args.size();
  for (auto [arg, type] : llvm::zip(args, params)) {
    if (arg.getType() == type)
      continue;
    if (!isa<BaseMemRefType>(arg.getType()) || !isa<BaseMemRefType>(type) ||
        !memref::CastOp::areCastCompatible(arg.getType(), type))
      return op->emitOpError("cannot pass ")
             << arg.getType() << " to parameter of type " << type;
    arg = castTo(arg, type);
  }
  return args;
}
/// The func.func a call_tir / call_tir_inplace calls, once its tir program
/// is lowered; null (with an error on `op`) before convert-tir-to-scf.
func::FuncOp FunctionLowering::lookupLoweredCallee(Operation *op,
                                                   StringRef name) {
  auto module = op->getParentOfType<ModuleOp>();
  auto callee = module.lookupSymbol<func::FuncOp>(name);
  if (!callee)
    op->emitOpError("callee '")
        << name
        << "' is not lowered yet: run convert-tir-to-scf before "
           "relax-lower-shapes";
  return callee;
}
/// The index values of a call's `tir_vars`, the callee's trailing
/// parameters.
FailureOr<SmallVector<Value>>
FunctionLowering::emitTirVars(Operation *op, std::optional<ShapeExprAttr> vars,
                              const std::string &site) {
  SmallVector<Value> values;
  if (!vars)
    return values;
  for (const sym::Expr &e : vars->getShape().getDims()) {
    Value v = emitExpr(e, "tir_vars of " + site);
    if (!v)
      return op->emitOpError("tir_vars uses an unbound variable");
    values.push_back(v);
  }
  return values;
}
LogicalResult FunctionLowering::lowerCallTIR(CallTIROp op) {
  func::FuncOp callee = lookupLoweredCallee(op, op.getCallee());
  if (!callee)
    return failure();
  std::string site =
      ("call_tir @" + op.getCallee() + " at " + describeLoc(op.getLoc())).str();
  FailureOr<SmallVector<Value>> allocated = allocateOutputs(op, site);
  if (failed(allocated))
    return failure();
  SmallVector<Value> outputs = std::move(*allocated);
  FailureOr<SmallVector<Value>> extra =
      emitTirVars(op, op.getTirVars(), site);
  if (failed(extra))
    return failure();
  FailureOr<SmallVector<Value>> args =
      callArgs(op, op.getInputs(), outputs, *extra, callee);
  if (failed(args))
    return failure();
  func::CallOp::create(builder, op.getLoc(), callee, *args);
  for (auto [result, buffer] : llvm::zip(op.getResults(), outputs))
    mapping.map(result, buffer);
  return success();
}
/// The callee writes the updated inputs through their own parameters: only
/// the fresh outputs are allocated (or placed in the arena), and an updated
/// result is its input's buffer, whoever owns it (an argument stays the
/// caller's).
LogicalResult FunctionLowering::lowerCallTIRInplace(CallTIRInplaceOp op) {
  func::FuncOp callee = lookupLoweredCallee(op, op.getCallee());
  if (!callee)
    return failure();
  std::string site = ("call_tir_inplace @" + op.getCallee() + " at " +
                      describeLoc(op.getLoc()))
                         .str();
  SmallVector<bool> aliased;
  for (unsigned i = 0; i < op.getNumResults(); ++i)
    aliased.push_back(static_cast<bool>(op.getAliasedInput(i)));
  FailureOr<SmallVector<Value>> outputs = allocateOutputs(op, site, aliased);
  if (failed(outputs))
    return failure();
  FailureOr<SmallVector<Value>> extra =
      emitTirVars(op, op.getTirVars(), site);
  if (failed(extra))
    return failure();
  FailureOr<SmallVector<Value>> args =
      callArgs(op, op.getInputs(), *outputs, *extra, callee);
  if (failed(args))
    return failure();
  func::CallOp::create(builder, op.getLoc(), callee, *args);
  unsigned next = 0;
  for (auto [i, result] : llvm::enumerate(op.getResults())) {
    if (Value input = op.getAliasedInput(i))
      mapping.map(result, mapping.lookup(input));
    else
      mapping.map(result, (*outputs)[next++]);
  }
  return success();
}
/// Library calls go through the library's C interface: memrefs are passed as
/// descriptors to `_mlir_ciface_<link_name>`, which the runtime implements.
LogicalResult FunctionLowering::lowerCallDPSPacked(CallDPSPackedOp op) {
  func::FuncOp callee = externs.lookup(op.getCallee());
  if (!callee)
    return op.emitOpError("'") << op.getCallee() << "' is not an extern.func";
  FailureOr<SmallVector<Value>> allocated = allocateOutputs(
      op, ("call_dps_packed @" + op.getCallee() + " at " +
           describeLoc(op.getLoc()))
              .str());
  if (failed(allocated))
    return failure();
  SmallVector<Value> outputs = std::move(*allocated);
  FailureOr<SmallVector<Value>> args =
      callArgs(op, op.getInputs(), outputs, {}, callee);
  if (failed(args))
    return failure();
  func::CallOp::create(builder, op.getLoc(), callee, *args);
  // A library reports bad input in the error slot and returns: stop here
  // (freeing the outputs) rather than hand its unwritten outputs on.
  checkRuntimeErrorSlot(op.getLoc());
  flushChecks();
  for (auto [result, buffer] : llvm::zip(op.getResults(), outputs))
    mapping.map(result, buffer);
  return success();
}
LogicalResult FunctionLowering::lowerCall(CallOp op) {
  // Tuples cross the call as their leaves, as lowerSignature takes them.
  SmallVector<Type> results;
  for (Type t : op.getResultTypes()) {
    for (Type leaf : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(leaf);
      if (failed(converted))
        return op.emitOpError("result type ") << t << " cannot be lowered yet";
      results.push_back(*converted);
    }
  }
  // Lowered relax functions take fully dynamic memrefs (lowerSignature):
  // a static dim of the argument (`[m, 4]` -> memref<?x4xf32>) is cast away
  // here and checked again by the callee. Passing the static type made the
  // func.call ill-typed.
  SmallVector<Value> args;
  for (Value v : op.getOperands()) {
    FailureOr<SmallVector<Value>> leaves = lookupLeaves(op, v);
    if (failed(leaves))
      return failure();
    for (Value arg : *leaves)
      args.push_back(castTo(arg, dynamicForm(arg.getType())));
  }
  auto call = func::CallOp::create(builder, op.getLoc(), op.getCallee(),
                                   results, args);
  // A failed callee returns poison: stop before using or freeing it.
  checkRuntimeErrorSlot(op.getLoc());
  flushChecks();
  // The callee hands over the buffers it allocated; a result that views
  // one of its arguments or a constant stays with its owner. A callee not
  // lowered yet (recursion) hands over nothing: a leak, never a bad free.
  auto owned = ownedResults.find(op.getCallee());
  for (auto [i, to] : llvm::enumerate(call.getResults()))
    if (owned != ownedResults.end() && i < owned->second.size() &&
        owned->second[i])
      addOwned(to, Value());
  unsigned next = 0;
  for (Value from : op.getResults()) {
    size_t n = leafTypes(from.getType()).size();
    mapLeaves(from, SmallVector<Value>(call.getResults().slice(next, n)));
    next += n;
  }
  return success();
}
