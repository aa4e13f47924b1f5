//===- SerializeSmallOmpParallel.cpp - --serialize-small-omp-parallel -----===//
//
// A fork and join of the OpenMP team costs microseconds with spinning
// workers and up to a time slice under contention; kernels smaller than
// that run faster on the calling thread. The decision needs the sizes, which
// are symbolic, so it is made at run time: each omp.parallel gets
// `if(work >= min-work)`, with `work` an index expression built in front of
// the region from the loop bounds.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/OpenMP/SerializeSmallOmpParallel.h"
#include "RelaxDialect/Conversion/ParallelLoops/WorkEstimator.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_SERIALIZESMALLOMPPARALLEL
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;

namespace {
struct SerializeSmallOmpParallelPass
    : public relax::impl::SerializeSmallOmpParallelBase<
          SerializeSmallOmpParallelPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<omp::ParallelOp> regions;
    // Outer regions first, so that their estimates do not count the ops
    // of the inner estimates.
    getOperation().walk<WalkOrder::PreOrder>([&](omp::ParallelOp parallel) {
      // A clause already there is the author's. Nested regions get one too:
      // they fork when the region around them was serialized.
      if (!parallel.getIfExpr())
        regions.push_back(parallel);
    });
    for (omp::ParallelOp parallel : regions) {
      relax::WorkEstimator estimator(parallel.getRegion(), parallel);
      // The estimate's ops are built in front of the region; a failed
      // estimate leaves them dead for canonicalization to remove.
      Value work = estimator.ofBlock(parallel.getRegion().front());
      if (!work)
        continue;
      OpBuilder builder(parallel);
      Value big = arith::CmpIOp::create(builder, parallel.getLoc(),
                                        arith::CmpIPredicate::sge, work,
                                        estimator.constant(minWork));
      parallel.getIfExprMutable().assign(big);
    }
  }
};
} // namespace
