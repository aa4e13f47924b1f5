//===- Pipelines.h - End-to-end compilation pipelines -----------*- C++ -*-===//
//
// The pipelines users type as one flag (`relax-opt --lower-to-cpu`) and that
// relax-run applies before JIT compilation. Pass order, from high-level relax
// to the LLVM dialect:
//
//   relax-legalize-ops      high-level ops -> tir.prim_func + relax.call_tir
//   tir-cpu-default-schedule  consumers inside producer loops, local scratch
//   convert-tir-to-scf      tir programs -> func.func with scf/memref loops
//   relax-lower-shapes      relax functions -> func.func over memrefs, with
//                           runtime shape checks and index arithmetic
//   canonicalize, cse
//   convert-scf-to-openmp   outer parallel loops -> OpenMP threads
//   hoist-omp-loop-allocas  loop-body scratch allocated once per thread
//   ... -> LLVM dialect     (inner loops are vectorised by LLVM's O3
//                            pipeline for the host CPU at JIT time)
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_PIPELINES_PIPELINES_H
#define RELAXDIALECT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace relax {

/// High-level relax to host functions over memrefs plus loop programs:
/// legalize, lower shapes, tir to scf. Callers that need the host signature
/// (relax-run) run this part first.
void buildRelaxToHostPipeline(OpPassManager &pm);

/// func/scf/memref code (the output of buildRelaxToHostPipeline) to the LLVM
/// dialect for the host CPU.
void buildLowerToCPUPipeline(OpPassManager &pm);

/// Options of `--relax-fuse-ops`.
struct FuseOpsPipelineOptions
    : public PassPipelineOptions<FuseOpsPipelineOptions> {
  Option<unsigned> maxGroupSize{*this, "max-group-size",
                                llvm::cl::desc("Largest number of calls in "
                                               "one fused group"),
                                llvm::cl::init(256)};
};

/// `--relax-fuse-ops`: relax-legalize-ops (a no-op on calls that are already
/// call_tir), relax-annotate-op-pattern, relax-group-ops, relax-fuse-tir.
/// Each step leaves well-formed IR, and each is a pass of its own.
void buildFuseOpsPipeline(OpPassManager &pm,
                          const FuseOpsPipelineOptions &options);

/// Registers `--relax-fuse-ops`, `--lower-to-cpu` (and later pipelines) with
/// the pass registry.
void registerRelaxPipelines();

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_PIPELINES_PIPELINES_H
