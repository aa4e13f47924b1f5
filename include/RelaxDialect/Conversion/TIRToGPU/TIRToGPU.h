//===- TIRToGPU.h - Scheduled tir loops and host buffers -> gpu -*- C++ -*-===//
//
// The two conversions between convert-tir-to-scf and upstream kernel
// outlining in --lower-to-gpu: thread-bound loops become gpu.launch, host
// buffers become device buffers.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_TIRTOGPU_TIRTOGPU_H
#define RELAXDIALECT_CONVERSION_TIRTOGPU_TIRTOGPU_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
} // namespace arith
namespace gpu {
class GPUDialect;
} // namespace gpu
namespace memref {
class MemRefDialect;
} // namespace memref
namespace scf {
class SCFDialect;
} // namespace scf

namespace relax {

#define GEN_PASS_DECL_CONVERTBOUNDLOOPSTOGPU
#define GEN_PASS_DECL_CONVERTHOSTMEMORYTOGPU
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_TIRTOGPU_TIRTOGPU_H
