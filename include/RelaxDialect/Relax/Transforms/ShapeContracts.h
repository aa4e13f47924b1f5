//===- ShapeContracts.h - Run-time checks of op shape contracts -*- C++ -*-===//
//
// The conditions an op needs of its operand shapes that inference could not
// decide at compile time (symbolic dims) become relax.assert_dims /
// relax.assert_indices ops in front of the op, so every lowering of the op
// (call_tir or a library call) keeps them; --relax-lower-shapes turns them
// into run-time checks. The full list is in docs/relax.md, "Run-time checks".
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_SHAPECONTRACTS_H
#define RELAXDIALECT_RELAX_TRANSFORMS_SHAPECONTRACTS_H

#include "mlir/IR/Builders.h"

namespace mlir {
namespace relax {

/// Inserts before `op` the checks of its shape contract that the facts in
/// force at `op` (symContextAt) cannot prove. Ops without a contract, and
/// contracts proven at compile time, insert nothing.
void emitShapeContractChecks(OpBuilder &builder, Operation *op);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_SHAPECONTRACTS_H
