//===- LoopScratch.h - Scratch of a parallel loop's iterations --*- C++ -*-===//
//
// Shared by --hoist-omp-loop-allocas and --convert-parallel-loops-to-runtime,
// which both allocate a parallel loop body's scratch once per thread or
// range instead of once per iteration.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_PARALLELLOOPS_LOOPSCRATCH_H
#define RELAXDIALECT_CONVERSION_PARALLELLOOPS_LOOPSCRATCH_H

#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir {
namespace relax {

/// The dealloc of `alloc` when it has exactly one and that one is in
/// `body`: heap scratch of one iteration (what --convert-tir-to-scf makes of
/// scratch too large for the stack), which may then live for several
/// iterations instead. Null otherwise.
inline memref::DeallocOp soleDeallocIn(memref::AllocOp alloc, Block *body) {
  memref::DeallocOp found;
  for (Operation *user : alloc->getUsers())
    if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      if (found)
        return nullptr;
      found = dealloc;
    }
  return found && found->getBlock() == body ? found : nullptr;
}

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_PARALLELLOOPS_LOOPSCRATCH_H
