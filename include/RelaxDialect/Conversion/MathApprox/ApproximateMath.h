//===- ApproximateMath.h - Vectorizable f32 math functions ------*- C++ -*-===//
//
// Replaces f32 transcendental math ops by polynomial approximations, so
// that the loops around them vectorize on the CPU.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_MATHAPPROX_APPROXIMATEMATH_H
#define RELAXDIALECT_CONVERSION_MATHAPPROX_APPROXIMATEMATH_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_RELAXAPPROXIMATEMATH
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_MATHAPPROX_APPROXIMATEMATH_H
