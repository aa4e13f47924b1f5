//===- ScheduleUtils.h - Helpers shared by the schedule primitives -*- C++ -*-===//
//
// Internal to lib/TIR/Transforms/Schedule (not installed): what several
// primitive families need. The public API is
// RelaxDialect/TIR/Transforms/Schedule.h.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_TIR_TRANSFORMS_SCHEDULE_SCHEDULEUTILS_H
#define LIB_TIR_TRANSFORMS_SCHEDULE_SCHEDULEUTILS_H

#include "RelaxDialect/TIR/IR/TIRBuilder.h"
#include "RelaxDialect/TIR/Transforms/Schedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace tir {
namespace schedule {

/// The symbolic expression an index value computes, when it is built only
/// from constants, tir.sym_var and integer arithmetic; else null.
relax::sym::Expr toSymExpr(Value value);

/// Whether two index values are equal: the same value, or expressions the
/// symbolic engine proves equal.
bool sameIndexValue(Value a, Value b);

/// Whether `value` is computed from `iv`.
inline bool dependsOn(Value value, Value iv) {
  return dependsOnAny(value, iv);
}

/// Whether `loop` has the canonical `0 to n step 1` form that primitives
/// which rebuild loops assume.
inline bool isUnitLoop(ForOp loop) {
  return getConstantIntValue(loop.getLowerBound()) == 0 &&
         getConstantIntValue(loop.getStep()) == 1;
}
/// Fails with "<prim>: loop must have lower bound 0 and step 1" unless
/// `loop` is a unit loop.
LogicalResult checkUnitLoop(ForOp loop, StringRef prim);

/// Whether `op` is a side-effect-free op without regions: constants and
/// index math that primitives may move or clone freely.
inline bool isPureLeaf(Operation &op) {
  return op.getNumRegions() == 0 && isMemoryEffectFree(&op);
}

/// A new loop with `proto`'s kind, thread and name.
ForOp createLoopLike(OpBuilder &b, Location loc, ForOp proto, Value lb,
                     Value ub, Value step);

inline Value constIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// `indices` of an access in `block`'s body (iteration variables or values
/// from outside) as values outside the block: a variable's binding, each
/// through `outer`.
SmallVector<Value> getIndicesOutside(BlockOp block, ValueRange indices,
                                     const IRMapping &outer);
/// One 128-bit `tir.vector_load` of `lanes` elements per load of `loads`
/// (in `block`), at its indices outside the block under `outer`, aligned to
/// its size; keyed by the load.
llvm::MapVector<Operation *, Value> loadLanes(OpBuilder &b, Location loc,
                                              BlockOp block,
                                              ArrayRef<LoadOp> loads,
                                              const IRMapping &outer,
                                              int64_t lanes);
/// In a clone of the block (`cloned` maps the original's ops), replaces
/// each load of `wide` by element `lane` of its vector.
void extractLanes(const IRMapping &cloned,
                  const llvm::MapVector<Operation *, Value> &wide,
                  int64_t lane);

/// Reports a failed precondition as "<prim>: <message>" on an op, or stays
/// silent when the caller only asks whether the primitive applies
/// (canCrossThreadReduce, canTileMatmul).
struct Reporter {
  bool emit;
  StringRef prim;
  LogicalResult operator()(Operation *op, const Twine &message) const {
    if (emit)
      op->emitError(prim) << ": " << message;
    return failure();
  }
};

} // namespace schedule
} // namespace tir
} // namespace mlir

#endif // LIB_TIR_TRANSFORMS_SCHEDULE_SCHEDULEUTILS_H
