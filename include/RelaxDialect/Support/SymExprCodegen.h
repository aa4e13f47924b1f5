//===- SymExprCodegen.h - Emit symbolic expressions as index math -*- C++ -*-===//
//
// After shape lowering, a symbolic dim is an `index` value computed from the
// runtime values of its variables. Both the host side (relax functions) and
// the loop side (tir programs) emit that arithmetic through this one helper,
// so floor semantics of floordiv/mod are implemented once.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_SUPPORT_SYMEXPRCODEGEN_H
#define RELAXDIALECT_SUPPORT_SYMEXPRCODEGEN_H

#include "RelaxDialect/Symbolic/SymbolicExpr.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir {
namespace relax {

/// Emits `expr` as `index` arithmetic (arith dialect). `lookupVar` returns the
/// `index` value of a variable, or a null Value when it is not available, in
/// which case emission fails (returns a null Value).
Value emitSymExpr(OpBuilder &builder, Location loc, const sym::Expr &expr,
                  function_ref<Value(StringRef)> lookupVar);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_SUPPORT_SYMEXPRCODEGEN_H
