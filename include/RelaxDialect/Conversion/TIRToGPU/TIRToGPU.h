//===- TIRToGPU.h - Thread-bound tir loops -> gpu.launch --------*- C++ -*-===//
//
// The conversion right after convert-tir-to-scf in --lower-to-gpu: the
// loops a GPU schedule bound to blockIdx / threadIdx become gpu.launch.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_TIRTOGPU_TIRTOGPU_H
#define RELAXDIALECT_CONVERSION_TIRTOGPU_TIRTOGPU_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_CONVERTTIRTOGPU
#include "RelaxDialect/Conversion/Passes.h.inc"

/// Registers `--convert-bound-loops-to-gpu`, the deprecated former flag of
/// `--convert-tir-to-gpu`, as a pipeline that runs it (textual pipelines
/// written with the old name keep parsing).
void registerConvertBoundLoopsToGPUAlias();

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_TIRTOGPU_TIRTOGPU_H
