//===- CompileCLOptions.cpp - Options of CompileOptions -------------------===//
//
// The command-line options relax-run and relax-compile share
// (CompileCLOptions.h).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/CompileCLOptions.h"
#include "RelaxDialect/Extern/IR/Builtins.h"

#include <memory>

using namespace mlir::relax::exec;
namespace cl = llvm::cl;

namespace {
struct CompileCLOptions {
  explicit CompileCLOptions(cl::OptionCategory &category)
      : fuse("fuse",
             cl::desc("Run --relax-fuse-ops before lowering (the default "
                      "max-group-size)"),
             cl::cat(category)),
        paramMinBytes(
            "param-min-bytes",
            cl::desc("Constants of at least this many bytes become "
                     "parameters: copied into the code's globals after a "
                     "JIT compile, written to the parameter file by "
                     "relax-compile (0: every constant stays in the code)"),
            cl::init(1024), cl::cat(category)),
        dispatchLibrary(
            "dispatch-library",
            cl::desc("Offload matmul and linear to the CPU BLAS before "
                     "legalization and fusion (default on; "
                     "--dispatch-library=false compiles them to loops)"),
            cl::init(true), cl::cat(category)),
        viaLinalg(
            "via-linalg",
            cl::desc("Lower through linalg: tir nests with affine index maps "
                     "become linalg ops lowered by upstream passes (the "
                     "pipelines' via-linalg option); the direct tir -> scf "
                     "route otherwise"),
            cl::cat(category)),
        minParallelWork(
            "min-parallel-work",
            cl::desc("Estimated operations below which a parallel loop runs "
                     "on the calling thread (0: every parallel loop forks)"),
            cl::init(32768), cl::cat(category)),
        approximateMath(
            "approximate-math",
            cl::desc("CPU: f32 exp, expm1, erf and tanh as polynomial "
                     "approximations that vectorize (default on; false calls "
                     "libm per element)"),
            cl::init(true), cl::cat(category)),
        quantActivations(
            "quant-activations",
            cl::desc("CPU: what products with quantized weights do with X "
                     "(default f32)"),
            cl::init(mlir::ext::QuantActivations::F32),
            mlir::ext::quantActivationsValues(),
            cl::cat(category)),
        planMemory(
            "plan-memory",
            cl::desc("Plan intermediate buffers into one arena per function "
                     "and free the others after their last use (default on; "
                     "false: every output is allocated, and freed at "
                     "return)"),
            cl::init(true), cl::cat(category)),
        planInPlace(
            "plan-in-place",
            cl::desc("CPU: write a fused convolution's output over a "
                     "residual that dies at its call (default on; false: "
                     "its own storage, for side-by-side measurements)"),
            cl::init(true), cl::cat(category)) {}

  cl::opt<bool> fuse;
  cl::opt<uint64_t> paramMinBytes;
  cl::opt<bool> dispatchLibrary;
  cl::opt<bool> viaLinalg;
  cl::opt<int64_t> minParallelWork;
  cl::opt<bool> approximateMath;
  cl::opt<mlir::ext::QuantActivations> quantActivations;
  cl::opt<bool> planMemory;
  cl::opt<bool> planInPlace;
};
} // namespace

static std::unique_ptr<CompileCLOptions> &registered() {
  static std::unique_ptr<CompileCLOptions> options;
  return options;
}

void mlir::relax::exec::registerCompileCLOptions(cl::OptionCategory &category) {
  if (!registered())
    registered() = std::make_unique<CompileCLOptions>(category);
}

llvm::Error mlir::relax::exec::applyCompileCLOptions(CompileOptions &options) {
  const CompileCLOptions &cl = *registered();
  if (cl.minParallelWork < 0)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "--min-parallel-work must be >= 0, not " +
            llvm::Twine(cl.minParallelWork.getValue()));
  options.fuse = cl.fuse;
  options.paramMinBytes = cl.paramMinBytes;
  options.dispatchLibrary = cl.dispatchLibrary;
  options.viaLinalg = cl.viaLinalg;
  options.minParallelWork = cl.minParallelWork;
  options.approximateMath = cl.approximateMath;
  options.int8Activations =
      cl.quantActivations == mlir::ext::QuantActivations::Int8;
  options.planMemory = cl.planMemory;
  options.planInPlace = cl.planInPlace;
  return llvm::Error::success();
}
