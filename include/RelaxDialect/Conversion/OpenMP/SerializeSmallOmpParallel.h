//===- SerializeSmallOmpParallel.h - Serial small regions -------*- C++ -*-===//
//
// Gives each omp.parallel region an if clause comparing its estimated work
// with a threshold, so that small kernels skip the fork and join.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_OPENMP_SERIALIZESMALLOMPPARALLEL_H
#define RELAXDIALECT_CONVERSION_OPENMP_SERIALIZESMALLOMPPARALLEL_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_SERIALIZESMALLOMPPARALLEL
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_OPENMP_SERIALIZESMALLOMPPARALLEL_H
