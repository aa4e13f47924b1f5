//===- HostMemoryToGPU.h - Host buffers -> device buffers -------*- C++ -*-===//
//
// Runs once every element access is in a kernel (after convert-tir-to-gpu):
// host allocations and constants move to device memory.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_HOSTMEMORYTOGPU_HOSTMEMORYTOGPU_H
#define RELAXDIALECT_CONVERSION_HOSTMEMORYTOGPU_HOSTMEMORYTOGPU_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_CONVERTHOSTMEMORYTOGPU
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_HOSTMEMORYTOGPU_HOSTMEMORYTOGPU_H
