//===- Pipelines.cpp - End-to-end compilation pipelines -------------------===//

#include "RelaxDialect/Pipelines/Pipelines.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// convert-scf-to-openmp wraps loop bodies in memref.alloca_scope; once
/// hoist-omp-loop-allocas has moved their scratch allocas out (one per
/// thread), canonicalize inlines the scopes before convert-scf-to-cf splits
/// those bodies into several blocks.
/// The lowering after the project's own passes, from scf/memref/arith/math
/// to the LLVM dialect. Written as a textual pipeline: it is the same string a
/// user would pass to relax-opt to reproduce any stage.
/// convert-math-to-funcs expands integer power (math.ipowi, from relax.power
/// on integers), which no *-to-llvm pass lowers.
static constexpr const char *kCPULoweringTail =
    "convert-math-to-funcs,canonicalize,cse,"
    "convert-scf-to-openmp,hoist-omp-loop-allocas,canonicalize,"
    "convert-scf-to-cf,"
    "convert-openmp-to-llvm,"
    "expand-strided-metadata,lower-affine,"
    "finalize-memref-to-llvm,"
    "convert-math-to-llvm,convert-math-to-libm,"
    "convert-arith-to-llvm,convert-index-to-llvm,"
    "convert-func-to-llvm,convert-cf-to-llvm,convert-ub-to-llvm,"
    "reconcile-unrealized-casts";

static constexpr const char *kRelaxToHost =
    "relax-legalize-ops,tir-cpu-default-schedule,convert-tir-to-scf,"
    "relax-lower-shapes";

void relax::buildRelaxToHostPipeline(OpPassManager &pm) {
  if (failed(parsePassPipeline(kRelaxToHost, pm, llvm::errs())))
    llvm::report_fatal_error("invalid built-in relax-to-host pipeline");
}

void relax::buildLowerToCPUPipeline(OpPassManager &pm) {
  if (failed(parsePassPipeline(kCPULoweringTail, pm, llvm::errs())))
    llvm::report_fatal_error("invalid built-in CPU lowering pipeline");
}

void relax::buildFuseOpsPipeline(OpPassManager &pm,
                                 const FuseOpsPipelineOptions &options) {
  pm.addPass(createRelaxLegalizeOps());
  pm.addPass(createRelaxAnnotateOpPattern());
  pm.addPass(createRelaxGroupOps({options.maxGroupSize}));
  pm.addPass(createRelaxFuseTIR());
}

void relax::registerRelaxPipelines() {
  PassPipelineRegistration<FuseOpsPipelineOptions>(
      "relax-fuse-ops",
      "Fuse a relax module's calls across levels: legalize the high-level "
      "ops, derive each program's kind from its loops, group the calls "
      "along the post-dominator tree and merge each group's programs",
      buildFuseOpsPipeline);
  PassPipelineRegistration<>(
      "lower-to-cpu",
      "Lower a relax module (or func/memref code) to the LLVM dialect for the "
      "host CPU: legalize, lower shapes, loops, OpenMP threads, LLVM",
      [](OpPassManager &pm) {
        buildRelaxToHostPipeline(pm);
        buildLowerToCPUPipeline(pm);
      });
}
