//===- Schedule.h - Loop transformations on tir programs --------*- C++ -*-===//
//
// The tir schedule API: primitives that rewrite the loops and blocks of a
// tir.prim_func in place. Each primitive checks its preconditions first and,
// when they do not hold, emits an error on the offending op and returns
// failure without changing the IR, so a schedule never produces wrong code.
//
// Loops are addressed by their `loop_name`, blocks by their name; new loops
// are named `<name>.outer` / `<name>.inner` (split) and `<a>.<b>.fused`
// (fuse) when the original loops have names.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_TIR_TRANSFORMS_SCHEDULE_H
#define RELAXDIALECT_TIR_TRANSFORMS_SCHEDULE_H

#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/Support/LLVM.h"

namespace mlir {
namespace tir {

/// The unique loop of `func` named `name`; emits an error on `func` and
/// returns failure when there is none or more than one.
FailureOr<ForOp> getLoop(PrimFuncOp func, StringRef name);
/// The unique block of `func` named `name`, likewise.
FailureOr<BlockOp> getBlock(PrimFuncOp func, StringRef name);

struct SplitResult {
  ForOp outer;
  ForOp inner;
};
/// Splits `loop` (lower bound 0, step 1, extent `n`) into
/// `outer = 0 to ceildiv(n, factor)` and `inner = 0 to factor`; the body
/// sees `outer * factor + inner` and runs under `scf.if (that < n)` unless
/// `n` is provably a multiple of `factor` (constants, or a `tir.sym_var`
/// expression proved by the symbolic engine). Both loops are serial.
FailureOr<SplitResult> split(ForOp loop, int64_t factor);

/// Fuses two perfectly nested loops (lower bound 0, step 1) into one serial
/// loop over the product of their extents; the original induction variables
/// are recovered with divui / remui.
FailureOr<ForOp> fuse(ForOp outer, ForOp inner);

/// Swaps two perfectly nested loops, with their kinds and names. Returns the
/// new outer loop (the old inner one).
FailureOr<ForOp> reorder(ForOp outer, ForOp inner);

/// Set the loop kind. `parallel`, `vectorize` and `bind` refuse a loop that
/// carries a reduce iteration variable of a block inside it (its iterations
/// are not independent); `bind` takes blockIdx.{x,y,z} / threadIdx.{x,y,z}.
LogicalResult parallel(ForOp loop);
LogicalResult vectorize(ForOp loop);
LogicalResult unroll(ForOp loop);
LogicalResult bind(ForOp loop, StringRef thread);

/// Moves the `tir.init` of `block` out of the reduction into a new block
/// `<name>_init` in its own loop nest, placed just before `loop` (an
/// ancestor of `block`). The nest copies the loops between `loop` and
/// `block` that feed spatial iteration variables; every loop that feeds a
/// reduce variable must lie inside `loop`. Returns the new init block.
FailureOr<BlockOp> decomposeReduction(BlockOp block, ForOp loop);

/// Inlines a spatial elementwise producer: `block` must be loads, pure ops
/// and one store to a `tir.alloc` buffer at exactly its iteration
/// variables. Every load of that buffer is replaced by the producer's
/// computation at the load's indices; the producer, the loops that only
/// held it and the dead buffer are removed. Refuses reduce variables,
/// parameter buffers (the caller reads them), other writers of the buffer
/// and inputs written elsewhere in the program.
LogicalResult computeInline(BlockOp block);

} // namespace tir
} // namespace mlir

#endif // RELAXDIALECT_TIR_TRANSFORMS_SCHEDULE_H
