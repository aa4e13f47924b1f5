//===- HoistOmpLoopAllocas.cpp - --hoist-omp-loop-allocas -----------------===//
//
// tir `local` buffers live per iteration of a parallel loop. After upstream's
// scf-to-openmp they sit in a memref.alloca_scope inside omp.loop_nest; this
// pass gives each thread one copy instead, at the start of omp.parallel.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/OpenMP/HoistOmpLoopAllocas.h"

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

/// Moves the allocas of `scope` to the start of the omp.parallel region
/// around it when their sizes are available there; inlines the scope when
/// it is left without allocas.
static void hoistFromScope(memref::AllocaScopeOp scope) {
  auto parallel = scope->getParentOfType<omp::ParallelOp>();
  if (!parallel)
    return;
  Region &region = parallel.getRegion();
  Block &entry = region.front();
  bool allHoisted = true;
  // Only allocas directly in the scope: nested ones belong to nested scopes.
  for (auto alloca : llvm::make_early_inc_range(
           scope.getBodyRegion().front().getOps<memref::AllocaOp>())) {
    bool available = llvm::all_of(alloca->getOperands(), [&](Value v) {
      return !region.isAncestor(v.getParentRegion());
    });
    if (!available) {
      allHoisted = false;
      continue;
    }
    alloca->moveBefore(&entry, entry.begin());
  }
  if (!allHoisted)
    return;
  bool hasAllocas = false;
  scope.getBodyRegion().walk([&](memref::AllocaOp) { hasAllocas = true; });
  if (hasAllocas || scope.getNumResults() != 0)
    return;
  // Inline the scope's single block in place of the scope.
  Block &body = scope.getBodyRegion().front();
  Operation *terminator = body.getTerminator();
  terminator->erase();
  scope->getBlock()->getOperations().splice(Block::iterator(scope),
                                            body.getOperations());
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
