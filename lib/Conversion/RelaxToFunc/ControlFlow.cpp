//===- ControlFlow.cpp - relax.if and relax.while -------------------------===//
//
// --relax-lower-shapes: relax.if as a branch to two blocks joining at a
// block of the results, relax.while as a header block of the carried
// values with a branch back (docs/relax.md, "State and control flow").
//
//===----------------------------------------------------------------------===//

#include "FunctionLowering.h"

#include "RelaxDialect/Relax/IR/StorageRoot.h"

using namespace mlir;
using namespace mlir::relax;
using namespace mlir::relax::lower_shapes;

/// Lowers one branch of `op` into `target`, which ends branching to `merge`
/// with the yielded leaves. The merge block's arguments own their buffers
/// whichever branch ran: a yielded buffer the branch allocated is handed
/// over, any other (an argument, a constant, an outer or arena buffer) is
/// copied. What the branch allocated and does not yield is freed at its
/// end; its variable bindings end with it.
LogicalResult FunctionLowering::lowerBranch(IfOp op, Block &branch,
                                            Block *target, Block *merge) {
  llvm::StringMap<Value> savedEnv = env;
  llvm::StringMap<BindingSite> savedSites = sites;
  size_t outerOwned = ownedBuffers.size();
  builder.setInsertionPointToStart(target);
  for (Operation &nested : branch.without_terminator())
    if (failed(lowerOp(&nested)))
      return failure();
  builder.setInsertionPointToEnd(builder.getInsertionBlock());
  auto yield = cast<YieldOp>(branch.getTerminator());
  SmallVector<Value> leaves;
  for (Value v : yield.getOperands()) {
    FailureOr<SmallVector<Value>> fieldLeaves = lookupLeaves(yield, v);
    if (failed(fieldLeaves))
      return failure();
    llvm::append_range(leaves, *fieldLeaves);
  }
  ArrayRef<Value> branchOwned = ArrayRef(ownedBuffers).drop_front(outerOwned);
  llvm::SmallPtrSet<Value, 8> handedOver;
  SmallVector<Value> operands;
  for (auto [leaf, arg] : llvm::zip(leaves, merge->getArguments())) {
    Value value = leaf;
    if (isa<BaseMemRefType>(leaf.getType())) {
      Value root = aliasRoot.lookup(leaf) ? aliasRoot.lookup(leaf) : leaf;
      if (!llvm::is_contained(branchOwned, root) ||
          !handedOver.insert(root).second) {
        if (!isa<MemRefType>(leaf.getType()))
          return yield.emitOpError(
              "cannot yield a value of unknown rank that the branch did not "
              "create: match_cast it to a ranked type first");
        value = copyToFresh(leaf, yield.getLoc());
        handedOver.insert(value);
      }
    }
    operands.push_back(castTo(value, arg.getType()));
  }
  // What is handed over leaves the record-memory count here: the join's
  // buffers are not counted (they may be copies).
  for (Value buffer : ArrayRef(ownedBuffers).drop_front(outerOwned)) {
    if (!handedOver.contains(buffer))
      freeBuffer(buffer, yield.getLoc());
    else if (Value bytes = countedBytes.lookup(buffer))
      callMemoryCounter(kMemoryFreeFn, bytes, yield.getLoc());
  }
  cf::BranchOp::create(builder, yield.getLoc(), merge, operands);
  ownedBuffers.resize(outerOwned);
  ++ownedVersion;
  env = std::move(savedEnv);
  sites = std::move(savedSites);
  return success();
}
/// The leaves joined at `block` (a relax.if's merge, a relax.while's header
/// or exit): owned by the function from here, their types' new variables
/// bound from the run-time dims and their other dims checked (as match_cast
/// does), each cast to its relax type's static form. Errors name
/// "<what> leaf <i>".
FailureOr<SmallVector<Value>>
FunctionLowering::bindJoinedLeaves(Block *block, ArrayRef<Type> leafRelax,
                                   const std::string &what) {
  SmallVector<Value> values;
  SmallVector<std::string> bound;
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(block->getArguments(), leafRelax))) {
    auto [arg, relaxType] = pair;
    Value value = arg;
    if (isa<BaseMemRefType>(arg.getType()))
      addOwned(arg, Value());
    auto tensor = dyn_cast<RelaxTensorType>(relaxType);
    if (tensor && tensor.hasRank()) {
      std::string leafWhat = what + " leaf " + std::to_string(i);
      SmallVector<bool> binds = bindVars(arg, tensor, leafWhat);
      if (failed(
              checkDims(arg, tensor, leafWhat, /*isArgument=*/false, binds)))
        return failure();
      for (auto [d, dim] : llvm::enumerate(tensor.getDims()))
        if (binds[d])
          bound.push_back(dim.getVarName().str());
      value = castTo(arg, *convertRelaxType(tensor));
    }
    values.push_back(value);
  }
  checkSymBounds(bound);
  flushChecks();
  return values;
}
/// relax.if becomes a conditional branch to two blocks that join at a block
/// whose arguments are the results (cf, not scf.if: the run-time checks
/// inside a branch leave the function through their own failure exits,
/// which scf.if's single-block regions cannot hold). The condition is read
/// from a host copy (a device-to-host transfer under --relax-lower-to-gpu).
/// After the join, the result types' new variables are bound from the run-
/// time dims and their other dims checked, as match_cast does.
LogicalResult FunctionLowering::lowerIf(IfOp op) {
  Location loc = op.getLoc();
  FailureOr<Value> condValue = loadCondition(op.getCond(), op);
  if (failed(condValue))
    return failure();
  Value cond = *condValue;
  SmallVector<Type> leafRelax, resultTypes;
  for (Type t : op.getResultTypes())
    for (Type leaf : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(leaf);
      if (failed(converted))
        return op.emitOpError("result type ") << t << " cannot be lowered";
      leafRelax.push_back(leaf);
      resultTypes.push_back(dynamicForm(*converted));
    }
  Region &body = dst.getBody();
  Block *thenBlock = new Block(), *elseBlock = new Block(),
        *merge = new Block();
  body.push_back(thenBlock);
  body.push_back(elseBlock);
  body.push_back(merge);
  for (Type t : resultTypes)
    merge->addArgument(t, loc);
  cf::CondBranchOp::create(builder, loc, cond, thenBlock, elseBlock);
  if (failed(lowerBranch(op, *op.thenBlock(), thenBlock, merge)) ||
      failed(lowerBranch(op, *op.elseBlock(), elseBlock, merge)))
    return failure();
  builder.setInsertionPointToStart(merge);
  FailureOr<SmallVector<Value>> lowered = bindJoinedLeaves(
      merge, leafRelax, "relax.if at " + describeLoc(loc) + " result");
  if (failed(lowered))
    return failure();
  unsigned next = 0;
  for (Value result : op.getResults()) {
    size_t n = leafTypes(result.getType()).size();
    mapLeaves(result, ArrayRef<Value>(*lowered).slice(next, n));
    next += n;
  }
  return success();
}
/// The i1 value of a rank-0 condition tensor, read from a host copy (a
/// device-to-host transfer under --relax-lower-to-gpu).
FailureOr<Value> FunctionLowering::loadCondition(Value cond, Operation *op) {
  Value buffer = mapping.lookupOrNull(cond);
  if (!buffer || !isa<MemRefType>(buffer.getType()))
    return op->emitOpError("condition was not lowered to a buffer");
  Value staging = stageOnHost(buffer, op->getLoc());
  Value value =
      memref::LoadOp::create(builder, op->getLoc(), staging, ValueRange());
  freeStaging(staging, op->getLoc());
  flushChecks();
  return value;
}
/// relax.while becomes a header block whose arguments are the carried
/// values, entered from before the loop and from the end of each iteration,
/// and an exit block whose arguments are the results: a branch back, never
/// recursion, so a loop of any trip count runs in constant stack.
///
/// Ownership: the header's arguments own their buffers. On entry every
/// initial value is copied (it may be an argument, a constant or a value
/// used after the loop); at the end of an iteration a yielded buffer that
/// the iteration owns (its own allocation or a carried argument) is handed
/// over to the next iteration, any other is copied, and everything else the
/// iteration owns is freed, the carried arguments it replaced included. A
/// failed check inside the body frees what the iteration owns. The carried
/// types' new variables are bound at the top of each iteration from the
/// run-time dims (their other dims checked) and again after the loop.
LogicalResult FunctionLowering::lowerWhile(WhileOp op) {
  Location loc = op.getLoc();
  std::string site = "relax.while at " + describeLoc(loc);
  FailureOr<Value> cond = loadCondition(op.getCond(), op);
  if (failed(cond))
    return failure();
  SmallVector<Type> leafRelax, carriedTypes;
  for (Type t : op.getResultTypes())
    for (Type leaf : leafTypes(t)) {
      FailureOr<Type> converted = convertRelaxType(leaf);
      auto tensor = dyn_cast<RelaxTensorType>(leaf);
      if (failed(converted) || (tensor && !tensor.hasRank()))
        return op.emitOpError("cannot carry a value of type ")
               << t << " (tensors of known rank, tuples of them and "
               << "primitive values can be carried)";
      leafRelax.push_back(leaf);
      carriedTypes.push_back(dynamicForm(*converted));
    }

  // Entry: copies of the initial values, owned by the loop.
  size_t outerOwned = ownedBuffers.size();
  SmallVector<Value> entryOperands;
  {
    SmallVector<Value> leaves;
    for (Value v : op.getInits()) {
      FailureOr<SmallVector<Value>> fieldLeaves = lookupLeaves(op, v);
      if (failed(fieldLeaves))
        return failure();
      llvm::append_range(leaves, *fieldLeaves);
    }
    for (auto [leaf, type] : llvm::zip(leaves, carriedTypes)) {
      Value value = leaf;
      if (isa<MemRefType>(leaf.getType()))
        value = copyToFresh(leaf, loc, "relax.while");
      entryOperands.push_back(castTo(value, type));
    }
  }
  Region &region = dst.getBody();
  Block *header = new Block(), *exit = new Block();
  region.push_back(header);
  region.push_back(exit);
  for (Type t : carriedTypes) {
    header->addArgument(t, loc);
    exit->addArgument(t, loc);
  }
  builder.setInsertionPointToEnd(builder.getInsertionBlock());
  cf::CondBranchOp::create(builder, loc, *cond, header, entryOperands, exit,
                           entryOperands);
  ownedBuffers.resize(outerOwned);
  ++ownedVersion;


  // The body, one iteration.
  {
    llvm::StringMap<Value> savedEnv = env;
    llvm::StringMap<BindingSite> savedSites = sites;
    builder.setInsertionPointToStart(header);
    FailureOr<SmallVector<Value>> carried =
        bindJoinedLeaves(header, leafRelax, site + " carried value");
    if (failed(carried))
      return failure();
    unsigned next = 0;
    for (BlockArgument arg : op.bodyBlock()->getArguments()) {
      size_t n = leafTypes(arg.getType()).size();
      mapLeaves(arg, ArrayRef<Value>(*carried).slice(next, n));
      next += n;
    }
    for (Operation &nested : op.bodyBlock()->without_terminator())
      if (failed(lowerOp(&nested)))
        return failure();
    builder.setInsertionPointToEnd(builder.getInsertionBlock());
    auto yield = cast<LoopYieldOp>(op.bodyBlock()->getTerminator());
    Location yieldLoc = yield.getLoc();
    FailureOr<Value> again = loadCondition(yield.getCond(), yield);
    if (failed(again))
      return failure();
    SmallVector<Value> leaves;
    for (Value v : yield.getValues()) {
      FailureOr<SmallVector<Value>> fieldLeaves = lookupLeaves(yield, v);
      if (failed(fieldLeaves))
        return failure();
      llvm::append_range(leaves, *fieldLeaves);
    }
    SmallVector<Value> iterationOwned(ownedBuffers.begin() + outerOwned,
                                      ownedBuffers.end());
    llvm::SmallPtrSet<Value, 8> handedOver;
    SmallVector<Value> operands;
    for (auto [leaf, type] : llvm::zip(leaves, carriedTypes)) {
      Value value = leaf;
      if (isa<BaseMemRefType>(leaf.getType())) {
        Value root = aliasRoot.lookup(leaf) ? aliasRoot.lookup(leaf) : leaf;
        if (!llvm::is_contained(iterationOwned, root) ||
            !handedOver.insert(root).second) {
          if (!isa<MemRefType>(leaf.getType()))
            return yield.emitOpError(
                "cannot carry a value of unknown rank that the iteration "
                "did not create: match_cast it to a ranked type first");
          value = copyToFresh(leaf, yieldLoc, "relax.while");
          handedOver.insert(value);
        }
      }
      operands.push_back(castTo(value, type));
    }
    for (Value buffer : ArrayRef(ownedBuffers).drop_front(outerOwned)) {
      if (!handedOver.contains(buffer))
        freeBuffer(buffer, yieldLoc);
      else if (Value bytes = countedBytes.lookup(buffer))
        callMemoryCounter(kMemoryFreeFn, bytes, yieldLoc);
    }
    cf::CondBranchOp::create(builder, yieldLoc, *again, header, operands, exit,
                             operands);
    ownedBuffers.resize(outerOwned);
    ++ownedVersion;
    env = std::move(savedEnv);
    sites = std::move(savedSites);
  }

  // After the loop: the results own the final carried buffers.
  builder.setInsertionPointToStart(exit);
  FailureOr<SmallVector<Value>> results =
      bindJoinedLeaves(exit, leafRelax, site + " result");
  if (failed(results))
    return failure();
  unsigned next = 0;
  for (Value result : op.getResults()) {
    size_t n = leafTypes(result.getType()).size();
    mapLeaves(result, ArrayRef<Value>(*results).slice(next, n));
    next += n;
  }
  return success();
}
