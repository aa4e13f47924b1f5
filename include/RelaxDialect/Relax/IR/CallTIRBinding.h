//===- CallTIRBinding.h - Caller view of a call_tir's variables -*- C++ -*-===//
//
// A tir.prim_func names its own symbolic variables; a relax.call_tir binds
// them to expressions over the caller's variables. The verifier checks a call
// with this binding, and passes that rewrite calls (fusion) use it to
// restate a callee's body in the caller's variables.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_IR_CALLTIRBINDING_H
#define RELAXDIALECT_RELAX_IR_CALLTIRBINDING_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/TIR/IR/TIRDialect.h"

namespace mlir {
namespace relax {

/// Binds each variable of `callee` to the caller's expression for it: a
/// buffer dim that is a bare variable binds it to the caller's dim (first
/// occurrence), an `index` parameter with a `tir.var` attribute to its
/// `tir_vars` expression. Every other dim must not be provably different
/// from the caller's after substitution. A variable bound to an unknown
/// caller dim (`?`) maps to a null expression. On a mismatch, fails, with an
/// error on `call` when `emitErrors` is set.
LogicalResult bindCallTIRVars(CallTIROp call, tir::PrimFuncOp callee,
                              llvm::StringMap<sym::Expr> &binding,
                              bool emitErrors = true);
/// The same for a relax.call_tir_inplace, whose callee's buffers are the
/// inputs then the fresh outputs.
LogicalResult bindCallTIRVars(CallTIRInplaceOp call, tir::PrimFuncOp callee,
                              llvm::StringMap<sym::Expr> &binding,
                              bool emitErrors = true);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_IR_CALLTIRBINDING_H
