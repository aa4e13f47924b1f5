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

/// Unit attribute on a host `memref.alloc` (and its `memref.dealloc`) whose
/// buffer stays in host memory under --relax-lower-to-gpu: host code fills
/// it with a `memref.copy` from a tensor, which becomes a device-to-host
/// `gpu.memcpy`, and reads it (relax-lower-shapes stages index tensors this
/// way to check their values).
constexpr llvm::StringLiteral kHostStagingAttrName = "relax.host_staging";

/// Unit attribute on a host `memref.copy` between two tensor buffers (a
/// relax.if branch handing over a value it did not create): under
/// --relax-lower-to-gpu both live in device memory and the copy becomes a
/// device-to-device `gpu.memcpy`.
constexpr llvm::StringLiteral kBufferCopyAttrName = "relax.buffer_copy";

#define GEN_PASS_DECL_CONVERTHOSTMEMORYTOGPU
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_HOSTMEMORYTOGPU_HOSTMEMORYTOGPU_H
