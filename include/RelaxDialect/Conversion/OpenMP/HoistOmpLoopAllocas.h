//===- HoistOmpLoopAllocas.h - Per-thread scratch in OpenMP loops -*- C++ -*-===//
#ifndef RELAXDIALECT_CONVERSION_OPENMP_HOISTOMPLOOPALLOCAS_H
#define RELAXDIALECT_CONVERSION_OPENMP_HOISTOMPLOOPALLOCAS_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_HOISTOMPLOOPALLOCAS
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_OPENMP_HOISTOMPLOOPALLOCAS_H
