//===- PlacedLowering.h - GPU-or-loops lowering of tir GPU ops --*- C++ -*-===//
//
// The tensor-core and TMA ops (MmaSyncLowering.cpp, TmaLowering.cpp) each
// have two lowerings: NVVM in a GPU thread, and their definition as loops
// elsewhere (the CPU emulation of GPU schedules, whose serialised thread
// loops are no longer GPU threads). Private to convert-tir-to-scf.
//
//===----------------------------------------------------------------------===//
#ifndef LIB_CONVERSION_TIRTOSCF_PLACEDLOWERING_H
#define LIB_CONVERSION_TIRTOSCF_PLACEDLOWERING_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::relax {

/// Whether `op` runs in a GPU thread: inside a tir loop bound to a thread
/// axis, or the gpu-mapped scf.parallel it became.
bool inGPUThread(Operation *op);

/// fence.proxy.async.shared::cta: the thread's shared-memory writes (by
/// the generic proxy) become visible to asynchronous-proxy operations (the
/// tensor cores' operand reads, TMA's mbarrier updates).
void createAsyncProxyFence(OpBuilder &b, Location loc);

inline Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// `src[indices]` where `inBounds`, else zero: the copies' definition
/// off the GPU (cp.async and TMA both fill zeros out of bounds without
/// reading the source).
Value loadOrZero(OpBuilder &b, Location loc, Value inBounds, Value src,
                 ValueRange indices);

/// The memrefs behind `buffers` (getLoweredMemRef), or a match failure on
/// `op` while one is not lowered yet.
FailureOr<SmallVector<Value>>
getLoweredMemRefs(Operation *op, ValueRange buffers, PatternRewriter &rewriter);

/// A pattern for one side of the placement rule: ops in a GPU thread
/// (`OnGPU`) or elsewhere; the other side's pattern takes the rest.
template <typename OpTy, bool OnGPU>
struct PlacedPattern : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    if (inGPUThread(op) != OnGPU)
      return rewriter.notifyMatchFailure(op, "placed on the other side");
    return rewritePlaced(op, rewriter);
  }

  virtual LogicalResult rewritePlaced(OpTy op,
                                      PatternRewriter &rewriter) const = 0;
};

} // namespace mlir::relax

#endif // LIB_CONVERSION_TIRTOSCF_PLACEDLOWERING_H
