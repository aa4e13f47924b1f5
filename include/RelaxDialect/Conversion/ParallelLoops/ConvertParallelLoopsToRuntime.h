//===- ConvertParallelLoopsToRuntime.h - Loops on the pool -----*- C++ -*-===//
#ifndef RELAXDIALECT_CONVERSION_PARALLELLOOPS_CONVERTPARALLELLOOPSTORUNTIME_H
#define RELAXDIALECT_CONVERSION_PARALLELLOOPS_CONVERTPARALLELLOOPSTORUNTIME_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_CONVERTPARALLELLOOPSTORUNTIME
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_PARALLELLOOPS_CONVERTPARALLELLOOPSTORUNTIME_H
