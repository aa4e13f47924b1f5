//===- Reduction.cpp - decompose_reduction --------------------------------===//
//
// Moves a reduction's init out of the reduction loops into its own nest.
// (The cross-thread form of a reduction is CrossThreadReduction.cpp.)
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;

//===----------------------------------------------------------------------===//
// decompose_reduction
//===----------------------------------------------------------------------===//

namespace {
/// Re-materialises values of the reduction nest inside the new init nest:
/// mapped induction variables, values defined above the nest as they are,
/// and side-effect-free ops cloned on demand.
struct Remapper {
  Operation *anchor; // The loop the init nest goes before.
  IRMapping mapping;

  Value remap(OpBuilder &b, Value value) {
    if (Value mapped = mapping.lookupOrNull(value))
      return mapped;
    if (value.getParentRegion()->isAncestor(anchor->getParentRegion()))
      return value;
    Operation *op = value.getDefiningOp();
    if (!op || op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      return {};
    for (Value operand : op->getOperands())
      if (!remap(b, operand))
        return {};
    b.clone(*op, mapping);
    return mapping.lookup(value);
  }
};
} // namespace

FailureOr<BlockOp> tir::decomposeReduction(BlockOp block, ForOp loop) {
  if (!loop->isProperAncestor(block))
    return block.emitError("decompose_reduction: block '")
           << block.getBlockName() << "' is not inside loop '"
           << loop.getLoopName().value_or("") << "'";
  InitOp init = block.getInitOp();
  if (!init)
    return block.emitError("decompose_reduction: block '")
           << block.getBlockName() << "' has no tir.init";

  // Reduce variables must be driven by loops at or below `loop` only, or
  // the init would run again inside an enclosing reduction loop.
  SmallVector<Value> reduceBindings, spatialBindings;
  SmallVector<Value> spatialVars;
  for (auto [i, binding] : llvm::enumerate(block.getBindings())) {
    if (block.getIterKind(i) == IterKind::reduce)
      reduceBindings.push_back(binding);
    else {
      spatialBindings.push_back(binding);
      spatialVars.push_back(block.getIterVars()[i]);
    }
  }
  for (auto outer = loop->getParentOfType<ForOp>(); outer;
       outer = outer->getParentOfType<ForOp>())
    for (Value r : reduceBindings)
      if (dependsOn(r, outer.getInductionVar()))
        return loop.emitError("decompose_reduction: a reduce variable of "
                              "block '")
               << block.getBlockName() << "' is driven by loop '"
               << outer.getLoopName().value_or("")
               << "' outside loop '" << loop.getLoopName().value_or("")
               << "'";
  // The init must not read the reduce variables it is hoisted away from.
  for (auto [i, var] : llvm::enumerate(block.getIterVars()))
    if (block.getIterKind(i) == IterKind::reduce)
      for (Operation *user : var.getUsers())
        if (init->isAncestor(user))
          return init.emitError("decompose_reduction: the init of block '")
                 << block.getBlockName() << "' uses a reduce variable";

  // The ops between `loop` and `block`, outermost first.
  SmallVector<Operation *> chain;
  for (Operation *p = block->getParentOp(); p != loop; p = p->getParentOp())
    chain.push_back(p);
  chain.push_back(loop);
  std::reverse(chain.begin(), chain.end());

  // Classify first so that failures leave the IR untouched.
  SmallVector<bool> keep;
  for (Operation *op : chain) {
    if (auto l = dyn_cast<ForOp>(op)) {
      Value iv = l.getInductionVar();
      bool spatial = llvm::any_of(spatialBindings,
                                  [&](Value v) { return dependsOn(v, iv); });
      bool reduce = llvm::any_of(reduceBindings,
                                 [&](Value v) { return dependsOn(v, iv); });
      if (spatial && reduce)
        return l.emitError("decompose_reduction: loop '")
               << l.getLoopName().value_or("")
               << "' drives both spatial and reduce variables of block '"
               << block.getBlockName() << "'";
      keep.push_back(spatial);
      continue;
    }
    if (auto guard = dyn_cast<scf::IfOp>(op)) {
      if (guard.getNumResults() != 0 || !guard.getThenRegion().isAncestor(
                                            block->getParentRegion()))
        return guard.emitError("decompose_reduction: unsupported scf.if "
                               "around block '")
               << block.getBlockName() << "'";
      keep.push_back(true);
      continue;
    }
    return op->emitError("decompose_reduction: unsupported op around block '")
           << block.getBlockName() << "'";
  }

  OpBuilder b(loop);
  Location loc = block.getLoc();
  Remapper remapper{loop, {}};
  SmallVector<Operation *> created; // Top-level ops, erased on failure.
  auto fail = [&](Operation *at, const Twine &what) -> FailureOr<BlockOp> {
    for (Operation *op : llvm::reverse(created))
      op->erase();
    return at->emitError("decompose_reduction: ")
           << what << " depends on a loop the init nest drops";
  };
  auto track = [&](Operation *op) {
    if (op->getBlock() == loop->getBlock())
      created.push_back(op);
  };
  // Remaps `v`, recording the ops it clones at the top level (right before
  // `loop`, the insertion point there).
  auto remapAt = [&](Value v) {
    bool topLevel = b.getInsertionBlock() == loop->getBlock();
    Operation *first = loop->getPrevNode();
    Value r = remapper.remap(b, v);
    if (topLevel)
      for (Operation *op = first ? first->getNextNode()
                                 : &loop->getBlock()->front();
           op != loop.getOperation(); op = op->getNextNode())
        created.push_back(op);
    return r;
  };

  for (auto [op, kept] : llvm::zip(chain, keep)) {
    if (!kept)
      continue;
    if (auto l = dyn_cast<ForOp>(op)) {
      Value lb = remapAt(l.getLowerBound()), ub = remapAt(l.getUpperBound()),
            step = remapAt(l.getStep());
      if (!lb || !ub || !step)
        return fail(l, "a bound of loop '" +
                           l.getLoopName().value_or("").str() + "'");
      ForOp copy = createLoopLike(b, l.getLoc(), l, lb, ub, step);
      if (l.getLoopName())
        copy.setLoopNameAttr(
            b.getStringAttr(*l.getLoopName() + "_init"));
      track(copy);
      remapper.mapping.map(l.getInductionVar(), copy.getInductionVar());
      b.setInsertionPoint(copy.getBody()->getTerminator());
      continue;
    }
    auto guard = cast<scf::IfOp>(op);
    Value cond = remapAt(guard.getCondition());
    if (!cond)
      return fail(guard, "the scf.if condition");
    auto copy = scf::IfOp::create(b, guard.getLoc(), cond, false);
    track(copy);
    b.setInsertionPoint(copy.thenBlock()->getTerminator());
  }

  SmallVector<Value> bindings;
  for (Value v : spatialBindings) {
    Value r = remapAt(v);
    if (!r)
      return fail(block, "a spatial binding");
    bindings.push_back(r);
  }
  // Values the init body reads from the reduction nest (not the block).
  for (Operation &op : init.getBody()->without_terminator())
    for (Value operand : op.getOperands())
      if (!block->isAncestor(operand.getParentRegion()->getParentOp()) &&
          !remapAt(operand))
        return fail(init, "a value the init reads");

  SmallVector<IterKind> kinds(bindings.size(), IterKind::spatial);
  auto initBlock = BlockOp::create(
      b, loc, (block.getBlockName() + "_init").str(), bindings, kinds,
      nullptr, [&](OpBuilder &nb, Location, ValueRange vars) {
        for (auto [oldVar, newVar] : llvm::zip(spatialVars, vars))
          remapper.mapping.map(oldVar, newVar);
        for (Operation &op : init.getBody()->without_terminator())
          nb.clone(op, remapper.mapping);
      });
  track(initBlock);
  init.erase();
  return initBlock;
}
