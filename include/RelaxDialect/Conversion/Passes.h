//===- Passes.h - relax-mlir dialect conversions ----------------*- C++ -*-===//
//
// One header that declares every conversion pass and registers them all, so
// tools only call registerRelaxConversionPasses().
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_PASSES_H
#define RELAXDIALECT_CONVERSION_PASSES_H

#include "RelaxDialect/Conversion/OpenMP/HoistOmpLoopAllocas.h"
#include "RelaxDialect/Conversion/TIRToGPU/TIRToGPU.h"
#include "RelaxDialect/Conversion/TIRToSCF/TIRToSCF.h"

namespace mlir {
namespace relax {

#define GEN_PASS_REGISTRATION
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_PASSES_H
