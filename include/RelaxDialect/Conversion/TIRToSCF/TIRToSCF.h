//===- TIRToSCF.h - Lower tir to func/scf/memref ----------------*- C++ -*-===//
#ifndef RELAXDIALECT_CONVERSION_TIRTOSCF_TIRTOSCF_H
#define RELAXDIALECT_CONVERSION_TIRTOSCF_TIRTOSCF_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace tir {
class BufferType;
} // namespace tir

namespace relax {

#define GEN_PASS_DECL_CONVERTTIRTOSCF
#include "RelaxDialect/Conversion/Passes.h.inc"

/// Patterns that lower the tir body ops (for, block, init, load, store,
/// return) once the function signature is converted. Buffer operands must
/// already be memrefs, possibly behind an `unrealized_conversion_cast`
/// to `!tir.buffer`.
void populateTIRToSCFPatterns(RewritePatternSet &patterns);

/// The patterns for the tensor-core ops (MmaSyncLowering.cpp): inside a
/// loop bound to GPU threads, `tir.mma_sync` becomes one `nvvm.mma.sync` of
/// the whole warp and `tir.copy_async` cp.async; elsewhere (the CPU
/// emulation of GPU schedules) their definitions as loops.
void populateTIRMmaSyncLoweringPatterns(RewritePatternSet &patterns);

/// Reports a tensor-core or TMA op in a GPU thread that the GPU lowering
/// cannot take (operands outside shared memory).
LogicalResult checkTIRMmaSyncForGPU(Operation *root);

/// The patterns for the TMA and mbarrier ops (TmaLowering.cpp): in a GPU
/// thread `cp.async.bulk.tensor` and `mbarrier.*`; elsewhere the box copy
/// as loops (zeros outside the source, the swizzle applied) and nothing for
/// the mbarriers.
void populateTIRTmaLoweringPatterns(RewritePatternSet &patterns);

/// Reports a TMA or mbarrier op `op` (in a GPU thread) whose shared-memory
/// operands are not shared buffers.
LogicalResult checkTIRTmaForGPU(Operation *op);

/// The memref behind a buffer operand during the conversion (through the
/// cast that keeps tir ops valid), or null.
Value getLoweredMemRef(Value buffer);

/// The memref a buffer of `type` becomes: `!tir.buffer<[n, 4], f32, shared>`
/// -> `memref<?x4xf32, #gpu.address_space<workgroup>>`. Code that hands
/// buffers to memref ops before this conversion (convert-tir-to-linalg)
/// casts them to this type; the conversion folds those casts.
MemRefType getBufferMemRefType(tir::BufferType type);

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_TIRTOSCF_TIRTOSCF_H
