//===- TOSAToRelax.h - TOSA functions to relax functions --------*- C++ -*-===//
#ifndef RELAXDIALECT_CONVERSION_TOSATORELAX_TOSATORELAX_H
#define RELAXDIALECT_CONVERSION_TOSATORELAX_TOSATORELAX_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_CONVERTTOSATORELAX
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_TOSATORELAX_TOSATORELAX_H
