//===- Pipelines.cpp - End-to-end compilation pipelines -------------------===//
//
// The one place where the order of the project's pipelines is written. Each
// step is a typed pass constructor with a comment saying why it sits where it
// does; `relax-opt --relax-lower-to-cpu --dump-pass-pipeline` (or
// --relax-lower-to-gpu) prints the resulting order, and docs/passes.md points
// here instead of restating it.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Pipelines/Pipelines.h"
#include "RelaxDialect/Conversion/Passes.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/TIR/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir;

void relax::buildRelaxToHostPipeline(OpPassManager &pm,
                                     const LowerToCPUOptions &options) {
  // Imported softmax(q k^T * c + mask) v subgraphs become relax.attention,
  // whose streaming program never holds the [b, h, s, t] scores; before
  // legalization, which would lower the matmuls and the softmax apart.
  pm.addPass(createRelaxFuseAttention());
  // Inference batch norms into their convolutions' constant weights, so
  // that a conv + BN is one convolution with a bias.
  pm.addPass(createRelaxFoldBatchNorm());
  // Collectives of a tensor-parallel program to MPI calls (legalization and
  // fusion leave them alone).
  pm.addPass(createRelaxLowerCollectives());
  // Contractions to the CPU BLAS, before legalization would turn them into
  // loops: at the sizes of the bench/peers models OpenBLAS is 2-10x faster
  // than the compiled loops (docs/perf.md).
  if (options.dispatchLibrary)
    pm.addPass(createRelaxDispatchLibrary(
        {ext::BuiltinTarget::CPU, options.quantActivations}));
  // High-level ops become tir programs called through call_tir; a no-op on a
  // module that --relax-fuse-ops already legalized and fused.
  pm.addPass(createRelaxLegalizeOps());
  if (options.viaLinalg) {
    // The linalg route: the CPU schedule is not run, since merging nests
    // would hide them from the conversion. A fused program's intermediates
    // become extra outputs for the memory plan (as below), then affine
    // block nests become linalg ops, lowered to loops by upstream passes
    // (buildLowerToCPUPipeline).
    if (options.planMemory)
      pm.addPass(createRelaxLiftTIRAllocs());
    pm.addPass(createConvertTIRToLinalg());
  } else {
    // Consumers into their producers' row loops, local scratch, i,k,j
    // matmul order: done on tir, where loops and blocks are still explicit.
    pm.addPass(tir::createTIRCPUDefaultSchedule());
    // The scratch the schedule left at the top of a program becomes an
    // extra output, which the memory plan places in the caller's arena.
    if (options.planMemory)
      pm.addPass(createRelaxLiftTIRAllocs());
  }
  // tir programs become func.func over memrefs with scf loops; scratch goes
  // on the stack only when its size is bounded within the budget.
  pm.addPass(createConvertTIRToSCF({options.maxStackBytes}));
  // Last: relax functions become func.func over memrefs, with the run-time
  // shape checks and the index arithmetic of the symbolic dims. It needs the
  // callees' final memref signatures, hence after convert-tir-to-scf. The
  // memory plan goes right before it: its attributes are for it alone.
  if (options.planMemory) {
    RelaxPlanMemoryOptions plan;
    plan.inPlace = options.planInPlace;
    pm.addPass(createRelaxPlanMemory(plan));
  }
  RelaxLowerShapesOptions lowerShapes;
  lowerShapes.freeAfterLastUse = options.planMemory;
  lowerShapes.recordMemory = options.recordMemory;
  pm.addPass(createRelaxLowerShapes(lowerShapes));
}

void relax::buildLowerToCPUPipeline(OpPassManager &pm,
                                    const LowerToCPUOptions &options) {
  // The linalg route's ops become loops: their parallel dims one
  // scf.parallel, which the OpenMP step below spreads over threads like the
  // direct route's parallel loops.
  if (options.viaLinalg)
    pm.addPass(createConvertLinalgToParallelLoopsPass());
  // Integer power (math.ipowi, from relax.power on integers) has no *-to-llvm
  // lowering: expand it into a function first.
  pm.addPass(createConvertMathToFuncs());
  // exp, erf, tanh, ... as arithmetic LLVM vectorizes, not libm calls.
  if (options.approximateMath)
    pm.addPass(createRelaxApproximateMath());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.openmp) {
    // Outer scf.parallel loops become OpenMP threads. The pass wraps the
    // loop bodies in memref.alloca_scope ...
    pm.addPass(createConvertSCFToOpenMPPass());
    // ... out of which the scratch allocas move, to be allocated once per
    // thread rather than once per iteration; canonicalize then inlines the
    // emptied scopes before convert-scf-to-cf splits the bodies into blocks.
    pm.addPass(createHoistOmpLoopAllocas());
    // Regions with little work (decode-sized kernels) run on the calling
    // thread, decided at run time from the sizes: a fork and join costs
    // more than they do, and far more when another process holds a core.
    pm.addPass(createSerializeSmallOmpParallel({options.minParallelWork}));
  } else {
    // Outer scf.parallel loops become calls of the runtime's thread pool on
    // outlined functions, which never wait for a thread that has not
    // started (lib/Runtime/RelaxThreads.cpp); loops with little work run on
    // the calling thread, decided at run time from the sizes. Nested ones
    // run sequentially in the outlined bodies (convert-scf-to-cf).
    pm.addPass(createConvertParallelLoopsToRuntime({options.minParallelWork}));
  }
  pm.addPass(createCanonicalizerPass());
  // Every stack allocation is now where it stays: check that each has a
  // constant size bound within the budget, so that no input size can
  // overflow a thread's stack.
  pm.addPass(createRelaxCheckStackAllocs({options.maxStackBytes}));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertOpenMPToLLVMPass());
  // Subviews and reinterpret casts to plain descriptor arithmetic, and
  // affine.apply (from index maps) to arith, before memref goes to LLVM.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // tir's vector accesses (the GPU schedules' 128-bit loads and stores,
  // which --tir-test-gpu-as-serial runs here) become LLVM vector loads.
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // Math functions LLVM has intrinsics for first, the rest as libm calls.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createLoadBoolsAsBytes());
}

void relax::buildFuseOpsPipeline(OpPassManager &pm,
                                 const FuseOpsPipelineOptions &options) {
  // Imported softmax(q k^T * c + mask) v subgraphs become relax.attention,
  // whose streaming program never holds the [b, h, s, t] scores; before
  // legalization, which would lower the matmuls and the softmax apart.
  pm.addPass(createRelaxFuseAttention());
  // Inference batch norms into their convolutions' constant weights, so
  // that a conv + BN is one convolution with a bias.
  pm.addPass(createRelaxFoldBatchNorm());
  // Library offload first: a matmul inside a fused program can no longer
  // be handed to a library.
  if (options.dispatchLibrary != FuseDispatch::None)
    pm.addPass(createRelaxDispatchLibrary(
        {options.dispatchLibrary == FuseDispatch::CUDA
             ? ext::BuiltinTarget::CUDA
             : ext::BuiltinTarget::CPU,
         options.quantActivations}));
  // Fusion reads loop programs, so the high-level ops are legalized first.
  pm.addPass(createRelaxLegalizeOps());
  // Each program's kind (elementwise, reduction, ...) from its blocks.
  pm.addPass(createRelaxAnnotateOpPattern());
  // Group the calls along the post-dominator tree by those kinds.
  pm.addPass(createRelaxGroupOps({options.maxGroupSize}));
  // Merge each group's programs into one.
  pm.addPass(createRelaxFuseTIR());
}

/// Whether `chip` (sm_XY[a]) runs mma.sync.m16n8k16 with f16 / bf16
/// operands: compute capability 8.0 and later.
static bool hasMmaSync(StringRef chip) {
  unsigned capability = 0;
  return chip.consume_front("sm_") &&
         !chip.take_while(llvm::isDigit).getAsInteger(10, capability) &&
         capability >= 80;
}

void relax::buildRelaxToGPUPipeline(OpPassManager &pm,
                                    const LowerToGPUOptions &options) {
  // Imported softmax(q k^T * c + mask) v subgraphs become relax.attention,
  // whose streaming program never holds the [b, h, s, t] scores; before
  // legalization, which would lower the matmuls and the softmax apart.
  pm.addPass(createRelaxFuseAttention());
  // Inference batch norms into their convolutions' constant weights, so
  // that a conv + BN is one convolution with a bias.
  pm.addPass(createRelaxFoldBatchNorm());
  // Collectives to NCCL calls (declared only: docs/llm.md).
  pm.addPass(createRelaxLowerCollectives({ext::BuiltinTarget::CUDA}));
  pm.addPass(createRelaxLegalizeOps());
  // The GPU schedule picks a kernel shape per program kind.
  pm.addPass(createRelaxAnnotateOpPattern());
  // The linalg route: affine nests with a parallel loop become linalg ops
  // (mapped to threads below); full reductions and non-affine nests stay
  // tir for the GPU schedule.
  if (options.viaLinalg)
    pm.addPass(createConvertTIRToLinalg({/*explain=*/false,
                                         /*needParallelLoop=*/true}));
  // Every loop nest bound to blockIdx/threadIdx, reductions across threads,
  // tiled matmuls.
  // Tensor cores (mma.sync m16n8k16) from sm_80 on; Hopper's warpgroup
  // MMA (wgmma) on sm_90a, the one target whose PTX has it (the `a`
  // features are not forward compatible: sm_100 keeps mma.sync).
  tir::TIRGPUDefaultScheduleOptions schedule;
  schedule.maxThreads = options.maxThreads;
  schedule.tensorCores = hasMmaSync(options.chip);
  schedule.wgmma = options.chip == "sm_90a";
  pm.addPass(tir::createTIRGPUDefaultSchedule(schedule));
  if (options.planMemory)
    pm.addPass(createRelaxLiftTIRAllocs());
  pm.addPass(createConvertTIRToSCF());
  // Bound loops become gpu.launch. Before any canonicalize, which would fold
  // away the extent-1 loops a single-thread kernel is bound with.
  pm.addPass(createConvertTIRToGPU());
  if (options.viaLinalg) {
    // The linalg ops become parallel loops (reductions serial inside), one
    // collapsed dim in tiles of the block size mapped to blocks and threads,
    // then gpu.launch: upstream's route from linalg to gpu.
    pm.addPass(createConvertLinalgToParallelLoopsPass());
    pm.addPass(createRelaxMapParallelLoopsToGPU({options.linalgBlockSize}));
    pm.addPass(createConvertParallelLoopToGpuPass());
  }
  // The device arena of a planned function comes from the runtime's cache
  // (convert-host-memory-to-gpu points the host cache's calls at the
  // device one): allocated once at the plan's bound, reused across calls.
  if (options.planMemory)
    pm.addPass(createRelaxPlanMemory());
  RelaxLowerShapesOptions lowerShapes;
  lowerShapes.reuseArena = true;
  lowerShapes.freeAfterLastUse = options.planMemory;
  lowerShapes.recordMemory = options.recordMemory;
  pm.addPass(createRelaxLowerShapes(lowerShapes));
  // Tensors live in device memory; constants are copied there.
  pm.addPass(createConvertHostMemoryToGPU());
  // Integer power (math.ipowi, which NVVM cannot lower) becomes a function
  // that outlining then copies into the kernels that call it.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Constants (and dims, selects, compares) the canonicalizer hoisted out
  // of the launches go back in, so that kernels see them as constants, not
  // parameters: the tensor-core kernel's accumulator indices must be
  // constants for its accumulators to be registers.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  // TMA destinations on 1024-byte boundaries (the swizzle works on address
  // bits); only outlined kernels carry attributes on their attributions.
  pm.addPass(createRelaxAlignTmaSharedMemory());
  // Launches and copies on one stream, waited on at the end.
  pm.addNestedPass<func::FuncOp>(createGpuAsyncRegionPass());
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
  pm.addPass(createConvertNVGPUToNVVMPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  // The NVVM target on every gpu.module: chip, PTX features, kernel
  // optimisation level and libdevice for math functions.
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  std::string libdevice = findLibdevice(options.cudaPath);
  if (!libdevice.empty())
    target.linkLibs.push_back(libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  // Kernel bodies to NVVM inside each gpu.module, before the host's arith
  // lowering: the NVVM conversion maps arith.remf (relax.fmod, floor_mod)
  // to libdevice's __nv_fmod*, but rejects the llvm.frem that
  // arith-to-llvm would have made of it.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createStripDebugInfoPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  OpPassManager &kernelCleanup = pm.nest<gpu::GPUModuleOp>();
  kernelCleanup.addPass(LLVM::createNVVMOptimizeForTargetPass());
  kernelCleanup.addPass(createCanonicalizerPass());
  kernelCleanup.addPass(createCSEPass());
  kernelCleanup.addPass(createReconcileUnrealizedCastsPass());
  // Host side: launches and memory to mgpu* runtime calls.
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createLoadBoolsAsBytes());
  // Kernels to PTX text (isa), a cubin (bin, runs ptxas) or a fatbin.
  GpuModuleToBinaryPassOptions binary;
  switch (options.format) {
  case gpu::CompilationTarget::Binary:
    binary.compilationTarget = "bin";
    break;
  case gpu::CompilationTarget::Fatbin:
    binary.compilationTarget = "fatbin";
    break;
  default:
    binary.compilationTarget = "isa";
    break;
  }
  binary.toolkitPath = options.cudaPath;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void relax::buildLowerToGPUPipeline(OpPassManager &pm,
                                    const LowerToGPUOptions &options) {
  buildRelaxToGPUPipeline(pm, options);
  buildLowerGPUToLLVMPipeline(pm, options);
}

void relax::buildLowerToCPUFromRelaxPipeline(
    OpPassManager &pm, const LowerToCPUOptions &options) {
  buildRelaxToHostPipeline(pm, options);
  buildLowerToCPUPipeline(pm, options);
}

void relax::registerRelaxPipelines() {
  PassPipelineRegistration<FuseOpsPipelineOptions>(
      "relax-fuse-ops",
      "Fuse a relax module's calls across levels: legalize the high-level "
      "ops, derive each program's kind from its loops, group the calls "
      "along the post-dominator tree and merge each group's programs",
      buildFuseOpsPipeline);

  static constexpr const char *kGPUSummary =
      "Lower a relax module to host LLVM code that launches NVIDIA GPU "
      "kernels: legalize, default GPU schedules, gpu.launch, device memory, "
      "NVVM, PTX (or cubin) in gpu.binary";
  static constexpr const char *kCPUSummary =
      "Lower a relax module (or func/memref code) to the LLVM dialect for the "
      "host CPU: BLAS offload, legalize, lower shapes, loops, OpenMP "
      "threads, LLVM";
  PassPipelineRegistration<LowerToGPUOptions>(
      "relax-lower-to-gpu", kGPUSummary, buildLowerToGPUPipeline);
  PassPipelineRegistration<LowerToCPUOptions>(
      "relax-lower-to-cpu", kCPUSummary, buildLowerToCPUFromRelaxPipeline);
  // The names before the project prefix, kept so existing scripts work.
  PassPipelineRegistration<LowerToGPUOptions>(
      "lower-to-gpu", "Deprecated alias of --relax-lower-to-gpu",
      buildLowerToGPUPipeline);
  PassPipelineRegistration<LowerToCPUOptions>(
      "lower-to-cpu", "Deprecated alias of --relax-lower-to-cpu",
      buildLowerToCPUFromRelaxPipeline);
}
