//===- Annotation.cpp - parallel, vectorize, unroll, bind -----------------===//
//
// The primitives that only change how a loop runs (its kind and thread
// axis), after checking that its iterations are independent.
//
//===----------------------------------------------------------------------===//

#include "ScheduleUtils.h"

using namespace mlir;
using namespace mlir::tir;
using namespace mlir::tir::schedule;

//===----------------------------------------------------------------------===//
// Loop kinds
//===----------------------------------------------------------------------===//

/// The first block inside `loop` that binds a reduce iteration variable (its
/// index in `var`) to a value computed from `loop`'s induction variable: the
/// iterations then accumulate into the same element.
static BlockOp findCarriedReduction(ForOp loop, unsigned &var) {
  Value iv = loop.getInductionVar();
  BlockOp offending;
  loop.walk([&](BlockOp block) {
    for (auto [i, binding] : llvm::enumerate(block.getBindings()))
      if (block.getIterKind(i) == IterKind::reduce && dependsOn(binding, iv)) {
        offending = block;
        var = i;
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return offending;
}

bool tir::carriesReduction(ForOp loop) {
  unsigned var = 0;
  return static_cast<bool>(findCarriedReduction(loop, var));
}

/// Fails with a diagnostic when `loop` carries a reduction.
static LogicalResult checkNoReduction(ForOp loop, StringRef prim) {
  unsigned var = 0;
  BlockOp offending = findCarriedReduction(loop, var);
  if (!offending)
    return success();
  InFlightDiagnostic diag =
      loop.emitError(prim) << ": loop '" << loop.getLoopName().value_or("")
                           << "' carries reduce iteration variable #" << var
                           << " of block '" << offending.getBlockName()
                           << "'";
  diag.attachNote(offending.getLoc()) << "reduction block here";
  return diag;
}

static void setKind(ForOp loop, LoopKind kind, StringRef thread = {}) {
  loop.setKind(kind);
  if (thread.empty())
    loop.removeThreadAttr();
  else
    loop.setThreadAttr(StringAttr::get(loop.getContext(), thread));
}

LogicalResult tir::parallel(ForOp loop) {
  if (failed(checkNoReduction(loop, "parallel")))
    return failure();
  setKind(loop, LoopKind::parallel);
  return success();
}

LogicalResult tir::vectorize(ForOp loop) {
  if (failed(checkNoReduction(loop, "vectorize")))
    return failure();
  setKind(loop, LoopKind::vectorized);
  return success();
}

LogicalResult tir::unroll(ForOp loop) {
  setKind(loop, LoopKind::unrolled);
  return success();
}

LogicalResult tir::bind(ForOp loop, StringRef thread) {
  if (!llvm::is_contained({"blockIdx.x", "blockIdx.y", "blockIdx.z",
                           "threadIdx.x", "threadIdx.y", "threadIdx.z"},
                          thread))
    return loop.emitError("bind: unknown thread axis '")
           << thread << "' (expected blockIdx.x/y/z or threadIdx.x/y/z)";
  // Two nested loops on one axis would both read the same hardware index.
  for (auto parent = loop->getParentOfType<ForOp>(); parent;
       parent = parent->getParentOfType<ForOp>())
    if (parent.getKind() == LoopKind::thread_binding &&
        parent.getThread() == thread)
      return loop.emitError("bind: an enclosing loop is already bound to '")
             << thread << "'";
  if (failed(checkNoReduction(loop, "bind")))
    return failure();
  setKind(loop, LoopKind::thread_binding, thread);
  return success();
}
