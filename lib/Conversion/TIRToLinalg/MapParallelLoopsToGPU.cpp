//===- MapParallelLoopsToGPU.cpp - The linalg route's loops on a GPU ------===//
//
// linalg ops lowered by --convert-linalg-to-parallel-loops are one
// scf.parallel over their parallel dims, around serial loops for the
// reduction dims. Upstream's --convert-parallel-loops-to-gpu turns mapped
// scf.parallel nests into gpu.launch; this pass gives them a shape that
// fits any size: all dims collapsed into one, tiled by the block size, tiles
// on blockIdx.x and the tile's elements on threadIdx.x.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/TIRToLinalg/TIRToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXMAPPARALLELLOOPSTOGPU
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;
using namespace mlir::relax;

/// Maps every dim of `loop` to `processor` (dim 0) and the rest to
/// sequential.
static LogicalResult setMapping(scf::ParallelOp loop,
                                gpu::Processor processor) {
  MLIRContext *ctx = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (unsigned d = 0; d < loop.getNumLoops(); ++d)
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(
        ctx, d == 0 ? processor : gpu::Processor::Sequential, identity,
        identity));
  return gpu::setMappingAttr(loop, mapping);
}

namespace {
struct RelaxMapParallelLoopsToGPU
    : relax::impl::RelaxMapParallelLoopsToGPUBase<RelaxMapParallelLoopsToGPU> {
  using RelaxMapParallelLoopsToGPUBase::RelaxMapParallelLoopsToGPUBase;

  void runOnOperation() override {
    SmallVector<scf::ParallelOp> loops;
    getOperation().walk([&](scf::ParallelOp loop) {
      if (loop->getParentOfType<scf::ParallelOp>() ||
          loop->getParentOfType<gpu::LaunchOp>() ||
          loop->hasAttr(gpu::getMappingAttrName()) ||
          loop.getNumReductions() != 0)
        return;
      loops.push_back(loop);
    });
    IRRewriter rewriter(&getContext());
    for (scf::ParallelOp loop : loops) {
      if (loop.getNumLoops() > 1) {
        // The collapsed loop replaces `loop` at the same place.
        Operation *next = loop->getNextNode();
        rewriter.setInsertionPoint(loop);
        std::vector<unsigned> all;
        for (unsigned d = 0; d < loop.getNumLoops(); ++d)
          all.push_back(d);
        collapseParallelLoops(rewriter, loop, {all});
        loop = cast<scf::ParallelOp>(next->getPrevNode());
      }
      auto [tiles, elements] =
          scf::tileParallelLoop(loop, {blockSize}, /*noMinMaxBounds=*/true);
      if (failed(setMapping(tiles, gpu::Processor::BlockX)) ||
          failed(setMapping(elements, gpu::Processor::ThreadX)))
        return signalPassFailure();
      // Deeper parallel loops (after a reduction loop) run in the thread.
      WalkResult nested = elements.getBody()->walk([&](scf::ParallelOp inner) {
        return failed(setMapping(inner, gpu::Processor::Sequential))
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
      if (nested.wasInterrupted())
        return signalPassFailure();
    }
  }
};
} // namespace
