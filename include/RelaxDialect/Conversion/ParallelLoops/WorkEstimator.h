//===- WorkEstimator.h - Run-time work estimates of loop nests -*- C++ -*-===//
//
// Shared by --serialize-small-omp-parallel and
// --convert-parallel-loops-to-runtime: both decide at run time, from the
// symbolic sizes, whether a parallel loop has enough work to be worth
// another thread.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_PARALLELLOOPS_WORKESTIMATOR_H
#define RELAXDIALECT_CONVERSION_PARALLELLOOPS_WORKESTIMATOR_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir {
namespace relax {

/// Builds the work estimate of a parallel region (omp.parallel, or an
/// scf.parallel about to be outlined) in front of the op that holds it, as
/// an index value: the operation count of its blocks with each loop's body
/// weighted by the loop's trip count, read from the loop bounds (symbolic
/// dims are SSA values by then, so the estimate follows the actual sizes).
class WorkEstimator {
public:
  /// Estimates for ops in `region`, built in front of `holder`.
  WorkEstimator(Region &region, Operation *holder)
      : region(region), builder(holder), loc(holder->getLoc()) {}

  /// The estimated operation count of `block`, or null when a trip count
  /// inside it is not computable before the region starts.
  Value ofBlock(Block &block) {
    Value total = constant(0);
    int64_t plainOps = 0;
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        continue;
      if (op.getNumRegions() == 0) {
        ++plainOps;
        continue;
      }
      Value work = ofOp(op);
      if (!work)
        return nullptr;
      total = add(total, work);
    }
    return add(total, constant(plainOps));
  }

  /// Trip count of a loop from its bounds, when they are defined outside the
  /// region (so the estimate can be built in front of it).
  Value tripCount(Value lb, Value ub, Value step) {
    if (!isOutside(lb) || !isOutside(ub) || !isOutside(step))
      return nullptr;
    // max(ceildiv(ub - lb, step), 0) for a positive step.
    std::optional<int64_t> l = getConstantIntValue(lb),
                           u = getConstantIntValue(ub),
                           s = getConstantIntValue(step);
    if (l && u && s && *s > 0)
      return constant(std::max<int64_t>((*u - *l + *s - 1) / *s, 0));
    Value span = l == 0 ? ub : arith::SubIOp::create(builder, loc, ub, lb);
    if (s == 1)
      return arith::MaxSIOp::create(builder, loc, span, constant(0));
    Value trips = arith::CeilDivSIOp::create(builder, loc, span, step);
    return arith::MaxSIOp::create(builder, loc, trips, constant(0));
  }

  /// The iteration count of an scf.parallel (the product of its dims'
  /// trip counts), or null when a bound is defined inside the region.
  Value ofBounds(scf::ParallelOp loop) {
    Value trips = constant(1);
    for (auto [lb, ub, step] :
         llvm::zip(loop.getLowerBound(), loop.getUpperBound(),
                   loop.getStep())) {
      Value n = tripCount(lb, ub, step);
      if (!n)
        return nullptr;
      trips = mul(trips, n);
    }
    return trips;
  }

  Value constant(int64_t v) {
    return arith::ConstantIndexOp::create(builder, loc, v);
  }

private:
  Value ofOp(Operation &op) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      Value trips =
          tripCount(loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
      Value body = trips ? ofBlock(*loop.getBody()) : nullptr;
      return body ? mul(trips, body) : nullptr;
    }
    if (auto loop = dyn_cast<scf::ParallelOp>(op)) {
      Value trips = ofBounds(loop);
      Value body = trips ? ofBlock(*loop.getBody()) : nullptr;
      return body ? mul(trips, body) : nullptr;
    }
    if (auto nest = dyn_cast<omp::LoopNestOp>(op)) {
      Value trips = constant(1);
      for (auto [lb, ub, step] :
           llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                     nest.getLoopSteps())) {
        // omp.loop_nest bounds are inclusive only with `inclusive`.
        Value n = tripCount(lb, ub, step);
        if (!n || nest.getLoopInclusive())
          return nullptr;
        trips = mul(trips, n);
      }
      Value body = ofBlock(nest.getRegion().front());
      return body ? mul(trips, body) : nullptr;
    }
    // Other loops (scf.while, ...) have no trip count to read: no estimate.
    if (isa<LoopLikeOpInterface>(op))
      return nullptr;
    // Any other region (scf.if, alloca scopes, omp.wsloop around the nest):
    // the sum of its blocks, an upper bound for branches.
    Value total = constant(0);
    for (Region &r : op.getRegions())
      for (Block &b : r) {
        Value work = ofBlock(b);
        if (!work)
          return nullptr;
        total = add(total, work);
      }
    return total;
  }

  bool isOutside(Value v) const {
    return !region.isAncestor(v.getParentRegion());
  }
  // Constant operands fold here, so the estimate of a static nest is a
  // constant and a symbolic one is a short product.
  Value add(Value a, Value b) {
    std::optional<int64_t> ca = getConstantIntValue(a),
                           cb = getConstantIntValue(b);
    if (ca && cb)
      return constant(*ca + *cb);
    if (ca == 0)
      return b;
    if (cb == 0)
      return a;
    return arith::AddIOp::create(builder, loc, a, b);
  }
  Value mul(Value a, Value b) {
    std::optional<int64_t> ca = getConstantIntValue(a),
                           cb = getConstantIntValue(b);
    if (ca && cb)
      return constant(*ca * *cb);
    if (ca == 1)
      return b;
    if (cb == 1)
      return a;
    return arith::MulIOp::create(builder, loc, a, b);
  }

  Region &region;
  OpBuilder builder;
  Location loc;
};

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_PARALLELLOOPS_WORKESTIMATOR_H
