//===- HoistOmpLoopAllocas.cpp - --hoist-omp-loop-allocas -----------------===//
//
// tir `local` buffers live per iteration of a parallel loop. After upstream's
// scf-to-openmp they sit in a memref.alloca_scope inside omp.loop_nest; this
// pass gives each thread one copy instead, at the start of omp.parallel:
// stack slots (memref.alloca) and heap scratch (memref.alloc freed at the
// end of the iteration, which then is freed when the thread is done).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/OpenMP/HoistOmpLoopAllocas.h"
#include "RelaxDialect/Conversion/ParallelLoops/LoopScratch.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_HOISTOMPLOOPALLOCAS
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;

/// Moves the allocations of `scope` to the start of the omp.parallel region
/// around it when their sizes are available there: allocas, and allocs
/// whose only other uses in the scope are memory accesses and one dealloc
/// in the scope's block, which moves to the end of the region. Inlines the
/// scope when it is left without allocas.
static void hoistFromScope(memref::AllocaScopeOp scope) {
  auto parallel = scope->getParentOfType<omp::ParallelOp>();
  if (!parallel)
    return;
  Region &region = parallel.getRegion();
  Block &entry = region.front();
  Block &scopeBody = scope.getBodyRegion().front();
  auto available = [&](Operation *op) {
    return llvm::all_of(op->getOperands(), [&](Value v) {
      return !region.isAncestor(v.getParentRegion());
    });
  };
  // Only allocations directly in the scope: nested ones belong to nested
  // scopes.
  for (Operation &op : llvm::make_early_inc_range(scopeBody)) {
    if (isa<memref::AllocaOp>(op) && available(&op)) {
      op.moveBefore(&entry, entry.begin());
      continue;
    }
    auto alloc = dyn_cast<memref::AllocOp>(op);
    if (!alloc || !available(alloc))
      continue;
    memref::DeallocOp dealloc = relax::soleDeallocIn(alloc, &scopeBody);
    if (!dealloc)
      continue;
    alloc->moveBefore(&entry, entry.begin());
    dealloc->moveBefore(region.back().getTerminator());
  }
  bool hasAllocas = false;
  scope.getBodyRegion().walk([&](memref::AllocaOp) { hasAllocas = true; });
  if (hasAllocas || scope.getNumResults() != 0)
    return;
  // Inline the scope's single block in place of the scope.
  Operation *terminator = scopeBody.getTerminator();
  terminator->erase();
  scope->getBlock()->getOperations().splice(Block::iterator(scope),
                                            scopeBody.getOperations());
  scope->erase();
}

namespace {
struct HoistOmpLoopAllocasPass
    : public relax::impl::HoistOmpLoopAllocasBase<HoistOmpLoopAllocasPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation().walk([&](memref::AllocaScopeOp scope) {
      if (scope->getParentOfType<omp::LoopNestOp>())
        scopes.push_back(scope);
    });
    for (memref::AllocaScopeOp scope : scopes)
      hoistFromScope(scope);
  }
};
} // namespace
