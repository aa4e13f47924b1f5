//===- Pipelines.h - End-to-end compilation pipelines -----------*- C++ -*-===//
//
// The pipelines users type as one flag (`relax-opt --relax-lower-to-cpu`,
// `--relax-lower-to-gpu`, `--relax-fuse-ops`) and that relax-run applies
// before JIT compilation. Their pass order is written once, with the reason
// for each step, in lib/Pipelines/Pipelines.cpp; `--dump-pass-pipeline`
// prints it.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_PIPELINES_PIPELINES_H
#define RELAXDIALECT_PIPELINES_PIPELINES_H

#include "RelaxDialect/Extern/IR/Builtins.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
namespace relax {

/// The `quant-activations` option of the CPU and fusion pipelines, which
/// both hand it to relax-dispatch-library.
inline constexpr const char *kQuantActivationsHelp =
    "Products with quantized weights (relax-dispatch-library's "
    "quant-activations): X as f32, or 1 to 4 rows quantized to int8 for "
    "integer dot products";

/// Options of `--relax-lower-to-cpu`.
struct LowerToCPUOptions : public PassPipelineOptions<LowerToCPUOptions> {
  PassOptions::Option<int64_t> maxStackBytes{
      *this, "max-stack-bytes",
      llvm::cl::desc("Stack budget of one function's scratch, per thread: "
                     "larger or unbounded scratch goes to the heap, and a "
                     "stack allocation above it is an error"),
      llvm::cl::init(65536)};
  PassOptions::Option<bool> dispatchLibrary{
      *this, "dispatch-library",
      llvm::cl::desc("Offload matmul and linear to the CPU BLAS "
                     "(relax-dispatch-library) before legalization; a no-op "
                     "on a module already fused"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> minParallelWork{
      *this, "min-parallel-work",
      llvm::cl::desc("Estimated operations below which a parallel loop runs "
                     "on the calling thread "
                     "(convert-parallel-loops-to-runtime); 0 starts the "
                     "thread pool for every parallel loop"),
      llvm::cl::init(32768)};
  PassOptions::Option<bool> openmp{
      *this, "openmp",
      llvm::cl::desc("Parallel loops as OpenMP regions (convert-scf-to-openmp, "
                     "libomp's team) instead of calls of the runtime's "
                     "thread pool (convert-parallel-loops-to-runtime)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> planMemory{
      *this, "plan-memory",
      llvm::cl::desc("Plan intermediate buffers into one arena per function "
                     "(relax-plan-memory) and free the others after their "
                     "last use; false allocates every output and frees it "
                     "at return"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> planInPlace{
      *this, "plan-in-place",
      llvm::cl::desc("With plan-memory: write a fused convolution's output "
                     "over a residual that dies at its call "
                     "(relax-plan-memory's in-place; false for side-by-side "
                     "measurements)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> recordMemory{
      *this, "record-memory",
      llvm::cl::desc("Count intermediate bytes in the runtime "
                     "(relax_rt_memory_report)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> viaLinalg{
      *this, "via-linalg",
      llvm::cl::desc("The linalg route: tir block nests with affine index "
                     "maps become linalg ops (convert-tir-to-linalg) that "
                     "upstream passes lower to parallel loops; the other "
                     "nests take the direct route, without the CPU default "
                     "schedule"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> approximateMath{
      *this, "approximate-math",
      llvm::cl::desc("f32 exp, expm1, erf and tanh become polynomial "
                     "approximations that vectorize "
                     "(relax-approximate-math); false calls libm per "
                     "element"),
      llvm::cl::init(true)};
  PassOptions::Option<ext::QuantActivations> quantActivations{
      *this, "quant-activations", llvm::cl::desc(kQuantActivationsHelp),
      llvm::cl::init(ext::QuantActivations::F32), ext::quantActivationsValues()};
};

/// High-level relax to host functions over memrefs plus loop programs:
/// library offload, legalize, lower shapes, tir to scf. Callers that need
/// the host signature (relax-run) run this part first.
void buildRelaxToHostPipeline(OpPassManager &pm,
                              const LowerToCPUOptions &options = {});

/// func/scf/memref code (the output of buildRelaxToHostPipeline) to the LLVM
/// dialect for the host CPU.
void buildLowerToCPUPipeline(OpPassManager &pm,
                             const LowerToCPUOptions &options = {});

/// The library `--relax-fuse-ops` offloads to before fusing, if any.
enum class FuseDispatch { None, CPU, CUDA };

/// Options of `--relax-fuse-ops`.
struct FuseOpsPipelineOptions
    : public PassPipelineOptions<FuseOpsPipelineOptions> {
  Option<unsigned> maxGroupSize{*this, "max-group-size",
                                llvm::cl::desc("Largest number of calls in "
                                               "one fused group"),
                                llvm::cl::init(256)};
  Option<FuseDispatch> dispatchLibrary{
      *this, "dispatch-library",
      llvm::cl::desc("Offload matmul and linear to a library before fusing "
                     "(relax-dispatch-library). The library calls are "
                     "opaque to fusion; their epilogues fuse among "
                     "themselves"),
      llvm::cl::init(FuseDispatch::None),
      llvm::cl::values(
          clEnumValN(FuseDispatch::None, "none", "no offload"),
          clEnumValN(FuseDispatch::CPU, "cpu",
                     "the runtime's CPU BLAS and oneDNN built-ins"),
          clEnumValN(FuseDispatch::CUDA, "cuda", "cuBLAS"))};
  Option<ext::QuantActivations> quantActivations{
      *this, "quant-activations", llvm::cl::desc(kQuantActivationsHelp),
      llvm::cl::init(ext::QuantActivations::F32), ext::quantActivationsValues()};
};

/// `--relax-fuse-ops`: relax-dispatch-library (with a dispatch-library
/// target), relax-legalize-ops (a no-op on calls that are already call_tir),
/// relax-annotate-op-pattern, relax-group-ops, relax-fuse-tir.
/// Each step leaves well-formed IR, and each is a pass of its own.
void buildFuseOpsPipeline(OpPassManager &pm,
                          const FuseOpsPipelineOptions &options);


/// The CUDA toolkit root found when the project was configured, or "".
std::string getDefaultCUDAPath();

/// Options of `--relax-lower-to-gpu`.
struct LowerToGPUOptions : public PassPipelineOptions<LowerToGPUOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("NVIDIA target (sm_80, sm_90a, ...)"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("NVPTX features; PTX 8.0 covers sm_80 and sm_90a"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<gpu::CompilationTarget> format{
      *this, "format", llvm::cl::desc("Kernel binary format"),
      llvm::cl::init(gpu::CompilationTarget::Assembly),
      llvm::cl::values(
          clEnumValN(gpu::CompilationTarget::Assembly, "isa", "PTX text"),
          clEnumValN(gpu::CompilationTarget::Binary, "bin",
                     "cubin (runs ptxas from the CUDA toolkit)"),
          clEnumValN(gpu::CompilationTarget::Fatbin, "fatbin",
                     "fatbin (PTX and cubin)"))};
  PassOptions::Option<int64_t> maxThreads{
      *this, "max-threads",
      llvm::cl::desc("Threads per block of the default schedule"),
      llvm::cl::init(256)};
  PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path",
      llvm::cl::desc("CUDA toolkit root: libdevice for math functions, ptxas "
                     "for format=bin (default: the toolkit found at build "
                     "time)"),
      llvm::cl::init(getDefaultCUDAPath())};
  PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimisation level of the kernels"),
      llvm::cl::init(3)};
  PassOptions::Option<bool> planMemory{
      *this, "plan-memory",
      llvm::cl::desc("Plan intermediate device buffers into one arena per "
                     "function (relax-plan-memory)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> recordMemory{
      *this, "record-memory",
      llvm::cl::desc("Count intermediate device bytes in the runtime "
                     "(relax_rt_memory_report)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> viaLinalg{
      *this, "via-linalg",
      llvm::cl::desc("The linalg route: tir block nests with affine index "
                     "maps become linalg ops (convert-tir-to-linalg), lowered "
                     "to parallel loops and gpu.launch by upstream passes; "
                     "the GPU default schedule binds the other nests"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> linalgBlockSize{
      *this, "linalg-block-size",
      llvm::cl::desc("via-linalg: threads per block of the linalg ops' "
                     "kernels (relax-map-parallel-loops-to-gpu)"),
      llvm::cl::init(256)};
};

/// Relax (or tir) to host functions that launch kernels, up to
/// gpu-kernel-outlining: the part relax-run needs before the final lowering.
void buildRelaxToGPUPipeline(OpPassManager &pm,
                             const LowerToGPUOptions &options);

/// Outlined kernels to a gpu.binary, host code to the LLVM dialect.
void buildLowerGPUToLLVMPipeline(OpPassManager &pm,
                                 const LowerToGPUOptions &options);

/// `--relax-lower-to-gpu`: buildRelaxToGPUPipeline then
/// buildLowerGPUToLLVMPipeline.
void buildLowerToGPUPipeline(OpPassManager &pm,
                             const LowerToGPUOptions &options);

/// `--relax-lower-to-cpu`: buildRelaxToHostPipeline then
/// buildLowerToCPUPipeline.
void buildLowerToCPUFromRelaxPipeline(OpPassManager &pm,
                                      const LowerToCPUOptions &options);

/// Registers `--relax-fuse-ops`, `--relax-lower-to-cpu` and
/// `--relax-lower-to-gpu` (and the unprefixed `--lower-to-cpu`,
/// `--lower-to-gpu` as aliases) with the pass registry.
void registerRelaxPipelines();

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_PIPELINES_PIPELINES_H
