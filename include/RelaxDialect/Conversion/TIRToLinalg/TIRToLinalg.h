//===- TIRToLinalg.h - Affine tir block nests -> linalg ---------*- C++ -*-===//
//
// The linalg route: tir block nests whose buffer accesses are affine in
// their loops become linalg ops on memrefs, so upstream linalg passes (and
// other MLIR compilers) can take them over; the rest stays tir for
// convert-tir-to-scf. On the GPU, relax-map-parallel-loops-to-gpu shapes the
// loops upstream makes of those ops for --convert-parallel-loops-to-gpu.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_TIRTOLINALG_TIRTOLINALG_H
#define RELAXDIALECT_CONVERSION_TIRTOLINALG_TIRTOLINALG_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_CONVERTTIRTOLINALG
#define GEN_PASS_DECL_RELAXMAPPARALLELLOOPSTOGPU
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_TIRTOLINALG_TIRTOLINALG_H
