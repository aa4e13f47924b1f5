//===- Passes.h - relax-mlir dialect conversions ----------------*- C++ -*-===//
//
// One header that declares every conversion pass and registers them all, so
// tools only call registerRelaxConversionPasses().
//
// The headers of the individual conversions declare only the passes'
// create functions: the dialects a pass loads are named in Passes.td and
// included by its .cpp, so no header forward-declares them.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_PASSES_H
#define RELAXDIALECT_CONVERSION_PASSES_H

#include "RelaxDialect/Conversion/BoolLoads/LoadBoolsAsBytes.h"
#include "RelaxDialect/Conversion/HostMemoryToGPU/HostMemoryToGPU.h"
#include "RelaxDialect/Conversion/MathApprox/ApproximateMath.h"
#include "RelaxDialect/Conversion/OpenMP/HoistOmpLoopAllocas.h"
#include "RelaxDialect/Conversion/OpenMP/SerializeSmallOmpParallel.h"
#include "RelaxDialect/Conversion/ParallelLoops/ConvertParallelLoopsToRuntime.h"
#include "RelaxDialect/Conversion/RelaxToFunc/RelaxToFunc.h"
#include "RelaxDialect/Conversion/StackAllocs/CheckStackAllocs.h"
#include "RelaxDialect/Conversion/TIRToGPU/AlignTmaSharedMemory.h"
#include "RelaxDialect/Conversion/TIRToGPU/TIRToGPU.h"
#include "RelaxDialect/Conversion/TIRToLinalg/TIRToLinalg.h"
#include "RelaxDialect/Conversion/TIRToSCF/TIRToSCF.h"
#include "RelaxDialect/Conversion/TOSAToRelax/TOSAToRelax.h"

namespace mlir {
namespace relax {

namespace detail {
#define GEN_PASS_REGISTRATION
#include "RelaxDialect/Conversion/Passes.h.inc"
} // namespace detail

/// Registers every conversion pass and the deprecated flag aliases.
inline void registerRelaxConversionPasses() {
  detail::registerRelaxConversionPasses();
  registerConvertBoundLoopsToGPUAlias();
}

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_PASSES_H
