//===- TIRToSCF.h - Lower tir to func/scf/memref ----------------*- C++ -*-===//
#ifndef RELAXDIALECT_CONVERSION_TIRTOSCF_TIRTOSCF_H
#define RELAXDIALECT_CONVERSION_TIRTOSCF_TIRTOSCF_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace relax {

#define GEN_PASS_DECL_CONVERTTIRTOSCF
#include "RelaxDialect/Conversion/Passes.h.inc"

/// Patterns that lower the tir body ops (for, block, init, load, store,
/// return) once the function signature is converted. Buffer operands must
/// already be memrefs, possibly behind an `unrealized_conversion_cast`
/// to `!tir.buffer`.
void populateTIRToSCFPatterns(RewritePatternSet &patterns);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_TIRTOSCF_TIRTOSCF_H
