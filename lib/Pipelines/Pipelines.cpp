//===- Pipelines.cpp - End-to-end compilation pipelines -------------------===//

#include "RelaxDialect/Pipelines/Pipelines.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
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

void relax::buildRelaxToGPUPipeline(OpPassManager &pm,
                                    const LowerToGPUOptions &options) {
  // convert-bound-loops-to-gpu runs before canonicalize, which would fold
  // away the extent-1 loops a single-thread kernel is bound with.
  // convert-math-to-funcs turns integer power (math.ipowi, which NVVM cannot
  // lower) into a function that outlining then copies into the kernels.
  std::string text =
      "relax-legalize-ops,relax-annotate-op-pattern,"
      "tir-gpu-default-schedule{max-threads=" +
      std::to_string(options.maxThreads) +
      "},convert-tir-to-scf,convert-bound-loops-to-gpu,relax-lower-shapes,"
      "convert-host-memory-to-gpu,convert-math-to-funcs,canonicalize,cse,"
      "gpu-kernel-outlining,"
      "func.func(gpu-async-region)";
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    llvm::report_fatal_error("invalid built-in relax-to-gpu pipeline");
}

#ifndef RELAX_CUDA_TOOLKIT_DIR
#define RELAX_CUDA_TOOLKIT_DIR ""
#endif

std::string relax::getDefaultCUDAPath() { return RELAX_CUDA_TOOLKIT_DIR; }

/// The libdevice bitcode of a CUDA toolkit, which kernels calling math
/// functions (__nv_expf, __nv_powf) need linked; empty when absent.
static std::string findLibdevice(StringRef toolkit) {
  if (toolkit.empty())
    return "";
  SmallString<256> path(toolkit);
  llvm::sys::path::append(path, "nvvm", "libdevice", "libdevice.10.bc");
  return llvm::sys::fs::exists(path) ? std::string(path) : "";
}

void relax::buildLowerGPUToLLVMPipeline(OpPassManager &pm,
                                        const LowerToGPUOptions &options) {
  // The order of upstream's gpu-lower-to-nvvm-pipeline, plus what that
  // pipeline has no option for: libdevice and the toolkit path (so a cubin
  // and math functions work without CUDA_HOME in the environment).
  std::string toolkit = options.cudaPath;
  std::string libdevice = findLibdevice(toolkit);
  std::string target = "nvvm-attach-target{chip=" + options.chip +
                       " features=" + options.features +
                       " O=" + std::to_string(options.optLevel);
  if (!libdevice.empty())
    target += " l=" + libdevice;
  target += "}";
  std::string binary = "gpu-module-to-binary{format=" + options.format;
  if (!toolkit.empty())
    binary += " toolkit=" + toolkit;
  binary += "}";
  std::string text =
      "convert-nvgpu-to-nvvm,convert-vector-to-scf,convert-scf-to-cf,"
      "convert-nvvm-to-llvm,convert-func-to-llvm,expand-strided-metadata," +
      target +
      ",lower-affine,convert-arith-to-llvm,convert-index-to-llvm,"
      "canonicalize,cse,"
      "gpu.module(strip-debuginfo,convert-gpu-to-nvvm,"
      "llvm-optimize-for-nvvm-target,canonicalize,cse,"
      "reconcile-unrealized-casts),"
      "gpu-to-llvm," +
      binary +
      ",convert-math-to-llvm,canonicalize,cse,reconcile-unrealized-casts";
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    llvm::report_fatal_error("invalid built-in GPU lowering pipeline");
}

void relax::registerRelaxPipelines() {
  PassPipelineRegistration<FuseOpsPipelineOptions>(
      "relax-fuse-ops",
      "Fuse a relax module's calls across levels: legalize the high-level "
      "ops, derive each program's kind from its loops, group the calls "
      "along the post-dominator tree and merge each group's programs",
      buildFuseOpsPipeline);

  PassPipelineRegistration<LowerToGPUOptions>(
      "lower-to-gpu",
      "Lower a relax module to host LLVM code that launches NVIDIA GPU "
      "kernels: legalize, default GPU schedules, gpu.launch, device memory, "
      "NVVM, PTX (or cubin) in gpu.binary",
      [](OpPassManager &pm, const LowerToGPUOptions &options) {
        buildRelaxToGPUPipeline(pm, options);
        buildLowerGPUToLLVMPipeline(pm, options);
      });

  PassPipelineRegistration<>(
      "lower-to-cpu",
      "Lower a relax module (or func/memref code) to the LLVM dialect for the "
      "host CPU: legalize, lower shapes, loops, OpenMP threads, LLVM",
      [](OpPassManager &pm) {
        buildRelaxToHostPipeline(pm);
        buildLowerToCPUPipeline(pm);
      });
}
