//===- TIRBuilder.h - C++ construction helpers for tir ----------*- C++ -*-===//
//
// Legalization (relax op -> tir.prim_func) and default schedules build tir
// programs from C++. These helpers keep that code to the computation itself:
// the entry block and terminator, symbolic dims as index math, and loop
// nests with zero lower bounds and unit steps.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_TIR_IR_TIRBUILDER_H
#define RELAXDIALECT_TIR_IR_TIRBUILDER_H

#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace tir {

/// Builds `tir.prim_func @name(params...)` at the builder's insertion point,
/// adds its entry block, calls `body` with the insertion point inside it and
/// the block arguments, and ends it with `tir.return`. Index parameters that
/// carry a variable need `setArgAttr(i, "tir.var", name)` on the result.
PrimFuncOp
buildPrimFunc(OpBuilder &builder, Location loc, StringRef name,
              ArrayRef<Type> bufferAndIndexParamTypes,
              function_ref<void(OpBuilder &, Location, ValueRange args)> body);

/// Emits `expr` as arith index math at the insertion point, reading each
/// variable with `tir.sym_var` (so it must be bound by the enclosing
/// prim_func). Returns a null Value for a null (unknown) expression.
Value materializeDim(OpBuilder &builder, Location loc,
                     const relax::sym::Expr &expr);

/// Builds nested `tir.for %ivN = 0 to extentN step 1` loops, outermost first,
/// and calls `body` in the innermost one with all induction variables.
/// `kinds` gives each loop's kind; empty means all serial. An empty nest
/// calls `body` in place with no induction variables.
void buildLoopNest(
    OpBuilder &builder, Location loc, ArrayRef<relax::sym::Expr> extents,
    ArrayRef<LoopKind> kinds,
    function_ref<void(OpBuilder &, Location, ValueRange ivs)> body);
/// Same, with the extents given as index values.
void buildLoopNest(
    OpBuilder &builder, Location loc, ValueRange upperBounds,
    ArrayRef<LoopKind> kinds,
    function_ref<void(OpBuilder &, Location, ValueRange ivs)> body);

} // namespace tir
} // namespace mlir

#endif // RELAXDIALECT_TIR_IR_TIRBUILDER_H
