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

/// Reports a run-time condition under which an emitted operation has no
/// value: `failed` is an i1 that holds on failure, `what` a printf fragment
/// with two `%lld` conversions for `lhs` and `rhs` (i64 operands of the
/// failing operation), such as "%lld * %lld overflows int64".
using SymFailureFn =
    function_ref<void(Value failed, StringRef what, Value lhs, Value rhs)>;

/// Like emitSymExpr, but for host code where a wrong size is a memory-safety
/// bug: additions and products are overflow-checked in int64, and floordiv /
/// mod check their divisor for zero (and floordiv for INT64_MIN / -1).
/// Each such condition is handed to `onFailure`; the division itself always
/// executes with a safe divisor so that the generated code never traps
/// before the caller branches to its error exit.
Value emitCheckedSymExpr(OpBuilder &builder, Location loc,
                         const sym::Expr &expr,
                         function_ref<Value(StringRef)> lookupVar,
                         SymFailureFn onFailure);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_SUPPORT_SYMEXPRCODEGEN_H
