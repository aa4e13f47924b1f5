//===- CheckStackAllocs.cpp - --relax-check-stack-allocs ------------------===//
//
// The verifier of the stack rule: a stack allocation is only safe when its
// size is bounded by a constant below the per-thread budget, whatever the
// symbolic dims are at run time. Sizes are bounded with upstream's
// ValueBoundsOpInterface over the index values that remain after lowering.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Conversion/StackAllocs/CheckStackAllocs.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace relax {
#define GEN_PASS_DEF_RELAXCHECKSTACKALLOCS
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace relax
} // namespace mlir

using namespace mlir;

/// Bytes of one element; index and other non-integer types count as 8.
static int64_t getElementBytes(Type type) {
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  return 8;
}

/// Checks one alloca against `budget`; emits an error and fails when its
/// size is unbounded or over the budget.
static LogicalResult checkAlloca(memref::AllocaOp alloca, int64_t budget) {
  MemRefType type = alloca.getType();
  int64_t bytes = getElementBytes(type.getElementType());
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    int64_t bound = size;
    if (ShapedType::isDynamic(size)) {
      FailureOr<int64_t> upper =
          ValueBoundsConstraintSet::computeConstantBound(
              presburger::BoundType::UB,
              ValueBoundsConstraintSet::Variable(alloca.getResult(), d),
              /*stopCondition=*/nullptr, /*closedUB=*/true);
      if (failed(upper))
        return alloca.emitError("stack allocation of unbounded size "
                                "(dynamic dim ")
               << d << " has no constant upper bound); scratch of a "
                       "symbolic size belongs on the heap";
      bound = std::max<int64_t>(*upper, 0);
    }
    if (llvm::MulOverflow(bytes, bound, bytes))
      return alloca.emitError("stack allocation too large to count");
  }
  if (bytes > budget)
    return alloca.emitError("stack allocation of up to ")
           << bytes << " bytes exceeds the stack budget of " << budget
           << " bytes (max-stack-bytes)";
  return success();
}

namespace {
struct RelaxCheckStackAllocsPass
    : public relax::impl::RelaxCheckStackAllocsBase<
          RelaxCheckStackAllocsPass> {
  using RelaxCheckStackAllocsBase::RelaxCheckStackAllocsBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    // The bounds come from the ops that compute the sizes.
    affine::registerValueBoundsOpInterfaceExternalModels(registry);
    arith::registerValueBoundsOpInterfaceExternalModels(registry);
    memref::registerValueBoundsOpInterfaceExternalModels(registry);
    scf::registerValueBoundsOpInterfaceExternalModels(registry);
  }

  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](memref::AllocaOp alloca) {
      // Private memory of GPU threads is not a host stack.
      if (alloca->getParentOfType<gpu::LaunchOp>() ||
          alloca->getParentOfType<gpu::GPUModuleOp>())
        return;
      failed |= mlir::failed(checkAlloca(alloca, maxStackBytes));
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
