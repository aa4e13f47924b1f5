//===- MatmulMatch.h - The matmul nests the GPU matmul schedules take -*- C++ -*-===//
//
// Internal to lib/TIR/Transforms/Schedule: the match of a loop nest
// computing out[batch.., i, j] += f(A[.., i, .., k]) * g(B[.., k, .., j])
// that both GPU matmul schedules (TiledMatmul.cpp, TensorCoreMatmul.cpp)
// rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_TIR_TRANSFORMS_SCHEDULE_MATMULMATCH_H
#define LIB_TIR_TRANSFORMS_SCHEDULE_MATMULMATCH_H

#include "ScheduleUtils.h"

namespace mlir {
namespace tir {
namespace schedule {

/// What the rewrite needs to know about a matched matmul nest.
struct MatmulMatch {
  SmallVector<ForOp> loops;      // Root to innermost, one per block variable.
  SmallVector<unsigned> loopVar; // The block variable each loop drives.
  unsigned iVar, jVar, kVar;
  SmallVector<unsigned> batchVars; // In loop order.
  LoadOp loadA, loadB, accLoad;
  StoreOp accStore;
  TypedAttr init;
};

/// Matches a perfect nest of unit loops around one block computing
/// out = out + f(A) * g(B) with a zero init (f, g: casts or nothing).
FailureOr<MatmulMatch> matchMatmul(ForOp root, BlockOp block,
                                   Reporter report);

/// The block argument `value` is, if any.
std::optional<unsigned> blockVar(BlockOp block, Value value);

/// ceil(n / d), folded when n is a constant.
Value ceilDiv(OpBuilder &b, Location loc, Value n, int64_t d);

/// `indices` (of a load or store in `block`) with the block variables
/// replaced by `vars` (indexed by variable number).
SmallVector<Value> mapBlockIndices(BlockOp block, ValueRange indices,
                                   ArrayRef<Value> vars);

/// `load` re-issued with the block variables mapped to `vars`, under
/// `inBounds`, else zero.
Value guardedLoad(OpBuilder &b, Location loc, BlockOp block, LoadOp load,
                  ArrayRef<Value> vars, Value inBounds);

/// The grid of a tiled matmul and where a block's tile lies.
struct MatmulGrid {
  ForOp zLoop;                // The outermost (blockIdx.z) loop.
  SmallVector<Value> extent;  // Per block variable.
  SmallVector<Value> base;    // Batch variables' values in this block.
  Value rowBase, colBase;     // First row (i) and column (j) of the tile.
  Value kTiles;               // Steps of the reduction, ceil(K / tileK).
};

/// Builds the blockIdx.z (fused batch dims) / y (tiles of `tileM` rows) /
/// x (tiles of `tileN` columns) loops at `b`, which is left at the start of
/// the x loop's body; `beforeLoops` (if any) runs just before the loops are
/// built, to put other values there.
MatmulGrid buildMatmulGrid(OpBuilder &b, Location loc, MatmulMatch &m,
                           int64_t tileM, int64_t tileN, int64_t tileK,
                           function_ref<void()> beforeLoops = {});

} // namespace schedule
} // namespace tir
} // namespace mlir

#endif // LIB_TIR_TRANSFORMS_SCHEDULE_MATMULMATCH_H
