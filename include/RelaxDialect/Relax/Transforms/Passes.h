//===- Passes.h - relax dialect passes --------------------------*- C++ -*-===//
#ifndef RELAXDIALECT_RELAX_TRANSFORMS_PASSES_H
#define RELAXDIALECT_RELAX_TRANSFORMS_PASSES_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"

/// registerRelaxPasses() registers every pass declared in Passes.td.
#define GEN_PASS_REGISTRATION
#include "RelaxDialect/Relax/Transforms/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_TRANSFORMS_PASSES_H
