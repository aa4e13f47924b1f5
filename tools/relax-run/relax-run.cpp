//===- relax-run.cpp - Run a function of a relax module -------------------===//
//
// Compiles a relax module for the CPU with the default pipeline (or takes an
// already lowered func/memref module), JIT-compiles it with the MLIR
// ExecutionEngine, binds inputs from .npy files or seeded random data, runs
// the entry function and prints, writes and checks the outputs.
//
// The entry is called through its C interface (`_mlir_ciface_<entry>`):
// every argument and the result struct are memref descriptors built here, so
// any rank and any number of results work without generated glue.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include "RelaxDialect/InitAll.h"
#include "RelaxDialect/Pipelines/Pipelines.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"
#ifdef RELAX_RUNTIME_HAS_CUDA
#include "RelaxDialect/Runtime/RelaxCUDA.h"
#endif

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <malloc.h>
#include <random>

using namespace mlir;
using namespace relax_run;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("relax-run options");
static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<module.mlir>"),
                                          cl::Required, cl::cat(runCategory));
static cl::opt<std::string> entryName("entry", cl::desc("Function to run"),
                                      cl::init("main"), cl::cat(runCategory));
static cl::list<std::string>
    inputFiles("input", cl::desc("Input .npy file, in parameter order"),
               cl::cat(runCategory));
static cl::opt<bool> randomInputs("random-inputs",
                                  cl::desc("Fill inputs with seeded random "
                                           "data in [-1, 1)"),
                                  cl::cat(runCategory));
static cl::opt<unsigned> seed("seed", cl::desc("Seed for --random-inputs"),
                              cl::init(0), cl::cat(runCategory));
static cl::list<std::string>
    dimBindings("dim",
                cl::desc("Value of a symbolic variable for --random-inputs, "
                         "e.g. --dim n=7"),
                cl::cat(runCategory));
static cl::opt<std::string> outputDir("output-dir",
                                      cl::desc("Write outputs here as "
                                               "output_<i>.npy"),
                                      cl::cat(runCategory));
static cl::list<std::string>
    expectFiles("expect", cl::desc("Expected output .npy, in result order"),
                cl::cat(runCategory));
static cl::opt<double> relTol("rtol", cl::desc("Relative tolerance"),
                              cl::init(1e-5), cl::cat(runCategory));
static cl::opt<double> absTol("atol", cl::desc("Absolute tolerance"),
                              cl::init(1e-6), cl::cat(runCategory));
static cl::opt<unsigned> benchmarkRuns("benchmark",
                                       cl::desc("Time N runs after warm-up "
                                                "and report min and median"),
                                       cl::init(0), cl::cat(runCategory));
static cl::opt<std::string> deviceName("device",
                                       cl::desc("cpu (default) or cuda"),
                                       cl::init("cpu"), cl::cat(runCategory));
static cl::opt<bool> fuseOps("fuse",
                             cl::desc("Run --relax-fuse-ops before lowering "
                                      "(the default max-group-size)"),
                             cl::cat(runCategory));
static cl::opt<bool> printLowered("print-lowered",
                                  cl::desc("Print the LLVM-dialect module "
                                           "before JIT compilation"),
                                  cl::cat(runCategory));

namespace {
/// What relax-run needs to know about one parameter or result.
struct TensorInfo {
  DType dtype = DType::F32;
  SmallVector<int64_t> staticSizes; // ShapedType::kDynamic where unknown
  bool ranked = true;                // false: memref<*xT>, any rank
  std::optional<relax::SymShape> symShape; // from the relax signature
};

/// A memref descriptor as the C interface lays it out: allocated and aligned
/// pointers, offset, sizes, strides (all 8 bytes wide).
struct Descriptor {
  std::vector<int64_t> words;
  explicit Descriptor(int64_t rank) : words(3 + 2 * rank, 0) {}
  static size_t wordsFor(int64_t rank) { return 3 + 2 * rank; }
};
} // namespace

static int fail(const Twine &message) {
  llvm::errs() << "relax-run: error: " << message << "\n";
  return 1;
}

static FailureOr<DType> toDType(Type type) {
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF32())
    return DType::F32;
  if (type.isF64())
    return DType::F64;
  if (auto i = dyn_cast<IntegerType>(type)) {
    if (i.getWidth() == 1)
      return DType::Bool;
    if (std::optional<DType> d = integerDType(i.getWidth(), i.isUnsigned()))
      return *d;
  }
  return failure();
}

/// numpy has no bfloat16, so bf16 tensors travel as uint16 bit patterns and
/// read back as ui16: takes such a tensor as bf16 where `wanted` is bf16.
static void adoptDType(HostTensor &t, DType wanted) {
  if (t.dtype == DType::U16 && wanted == DType::BF16)
    t.dtype = DType::BF16;
}

static FailureOr<TensorInfo> infoFromMemRef(Type type) {
  if (auto unranked = dyn_cast<UnrankedMemRefType>(type)) {
    FailureOr<DType> dtype = toDType(unranked.getElementType());
    if (failed(dtype))
      return failure();
    TensorInfo info;
    info.dtype = *dtype;
    info.ranked = false;
    return info;
  }
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return failure();
  FailureOr<DType> dtype = toDType(memref.getElementType());
  if (failed(dtype))
    return failure();
  TensorInfo info;
  info.dtype = *dtype;
  info.staticSizes.assign(memref.getShape().begin(), memref.getShape().end());
  return info;
}

/// Parses `--dim n=7` bindings.
static FailureOr<llvm::StringMap<int64_t>> parseDims() {
  llvm::StringMap<int64_t> env;
  for (const std::string &binding : dimBindings) {
    auto [name, value] = StringRef(binding).split('=');
    int64_t v;
    if (name.empty() || value.getAsInteger(10, v) || v < 0) {
      fail("--dim expects name=non-negative-integer, got '" + binding + "'");
      return failure();
    }
    env[name] = v;
  }
  return env;
}

/// Seeded random data in [-1, 1) (integers: small values, booleans: 0/1).
static HostTensor makeRandom(const TensorInfo &info, ArrayRef<int64_t> shape,
                             std::mt19937_64 &rng) {
  HostTensor t;
  t.dtype = info.dtype;
  t.shape.assign(shape.begin(), shape.end());
  t.data.resize(t.numElements() * dtypeSize(t.dtype));
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 9);
  for (int64_t i = 0, e = t.numElements(); i < e; ++i) {
    switch (t.dtype) {
    case DType::Bool:
      t.set(i, small(rng) % 2);
      break;
    default:
      if (isIntegerDType(t.dtype))
        t.set(i, small(rng));
      else
        t.set(i, real(rng));
    }
  }
  return t;
}

/// Copies a (possibly strided) memref described by `words` into a tensor.
static HostTensor readResult(const TensorInfo &info, const int64_t *words,
                             int64_t rank) {
  HostTensor t;
  t.dtype = info.dtype;
  const int64_t *sizes = words + 3, *strides = words + 3 + rank;
  t.shape.assign(sizes, sizes + rank);
  size_t elem = dtypeSize(t.dtype);
  t.data.resize(t.numElements() * elem);
  const uint8_t *base =
      reinterpret_cast<const uint8_t *>(words[1]) + words[2] * elem;
  std::vector<int64_t> index(rank, 0);
  for (int64_t linear = 0, e = t.numElements(); linear < e; ++linear) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * strides[d];
    std::memcpy(t.data.data() + linear * elem, base + offset * elem, elem);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < sizes[d])
        break;
      index[d] = 0;
    }
  }
  return t;
}

static void printSummary(unsigned i, const HostTensor &t) {
  llvm::outs() << "output #" << i << ": " << dtypeName(t.dtype) << " "
               << t.shapeStr() << " = [";
  int64_t n = std::min<int64_t>(t.numElements(), 8);
  for (int64_t k = 0; k < n; ++k)
    llvm::outs() << (k ? ", " : "") << t.str(k, 6);
  if (t.numElements() > n)
    llvm::outs() << ", ...";
  llvm::outs() << "]\n";
}

/// True for the dtypes whose values compare exactly (integers, booleans).
static bool isExactDType(DType dtype) {
  return dtype == DType::Bool || isIntegerDType(dtype);
}

/// Whether one element of an output mismatches its expected value. Floats
/// follow numpy.allclose(equal_nan=True) with one difference numpy shares: an
/// infinity matches only the same infinity (|inf - x| <= atol + rtol * inf
/// would otherwise accept any finite x). Integers and booleans compare
/// exactly; tolerances never apply to them.
static bool elementMismatches(const HostTensor &actual,
                              const HostTensor &expected, int64_t k,
                              bool exact) {
  if (exact)
    return actual.getExact(k) != expected.getExact(k);
  double a = actual.get(k), x = expected.get(k);
  if (std::isnan(a) || std::isnan(x))
    return std::isnan(a) != std::isnan(x);
  if (std::isinf(a) || std::isinf(x))
    return a != x;
  return std::fabs(a - x) > absTol + relTol * std::fabs(x);
}

/// Compares with numpy.allclose semantics for floats and exactly for
/// integers and booleans; prints the worst mismatching element.
static bool compare(unsigned i, const HostTensor &actual,
                    const HostTensor &expected) {
  if (actual.shape != expected.shape) {
    llvm::errs() << "relax-run: output #" << i << " has shape "
                 << actual.shapeStr() << " but the expected file has "
                 << expected.shapeStr() << "\n";
    return false;
  }
  // An integer result against a float reference (or the reverse) is a bug in
  // the program or the test: say so instead of comparing rounded values.
  if (isExactDType(actual.dtype) != isExactDType(expected.dtype)) {
    llvm::errs() << "relax-run: output #" << i << " has dtype "
                 << dtypeName(actual.dtype) << " but the expected file has "
                 << dtypeName(expected.dtype) << "\n";
    return false;
  }
  bool exact = isExactDType(actual.dtype);
  double worst = -1;
  int64_t worstIndex = -1;
  bool ok = true;
  for (int64_t k = 0, e = actual.numElements(); k < e; ++k) {
    if (!elementMismatches(actual, expected, k, exact))
      continue;
    ok = false;
    // Report the worst mismatch; NaN against a number, or an infinity
    // against anything else, counts as infinitely far.
    double score;
    if (exact) {
      __int128 diff = actual.getExact(k) - expected.getExact(k);
      score = static_cast<double>(diff < 0 ? -diff : diff);
    } else {
      score = std::fabs(actual.get(k) - expected.get(k));
      if (std::isnan(score))
        score = INFINITY;
    }
    if (worstIndex < 0 || score > worst) {
      worst = score;
      worstIndex = k;
    }
  }
  if (!ok) {
    llvm::errs() << "relax-run: output #" << i << " does not match (rtol="
                 << llvm::format("%g", relTol.getValue())
                 << ", atol=" << llvm::format("%g", absTol.getValue())
                 << "): worst element " << worstIndex << ": got "
                 << actual.str(worstIndex, 9) << ", expected "
                 << expected.str(worstIndex, 9) << "\n";
  }
  return ok;
}

namespace {
/// Where tensors live during a call: host memory (CPU) or device buffers
/// (--device cuda: inputs are copied in, results copied back, and every
/// buffer is freed with the CUDA runtime).
class DeviceMemory {
public:
  explicit DeviceMemory(bool onGPU) : onGPU(onGPU) {}
  DeviceMemory(const DeviceMemory &) = delete;
  DeviceMemory &operator=(const DeviceMemory &) = delete;
  ~DeviceMemory() {
    for (void *p : uploads)
      release(p);
  }

  /// The address the compiled code reads `t` from.
  void *upload(HostTensor &t) {
    if (!onGPU)
      return t.data.data();
#ifdef RELAX_RUNTIME_HAS_CUDA
    void *p = mgpuMemAlloc(t.data.size(), nullptr, false);
    mgpuMemcpy(p, t.data.data(), t.data.size(), nullptr);
    uploads.push_back(p);
    return p;
#else
    return nullptr;
#endif
  }

  /// Reads a result descriptor, from the device when on the GPU.
  HostTensor download(const TensorInfo &info, const int64_t *words,
                      int64_t rank) {
    if (!onGPU)
      return readResult(info, words, rank);
    // Copy the span the descriptor covers, then read it like host memory.
    std::vector<int64_t> local(words, words + Descriptor::wordsFor(rank));
    int64_t span = 0;
    bool empty = false;
    for (int64_t d = 0; d < rank; ++d) {
      empty |= words[3 + d] == 0;
      span += (words[3 + d] - 1) * words[3 + rank + d];
    }
    size_t elem = dtypeSize(info.dtype);
    size_t bytes = empty ? 0 : (words[2] + span + 1) * elem;
    std::vector<uint8_t> host(std::max<size_t>(bytes, 1));
#ifdef RELAX_RUNTIME_HAS_CUDA
    mgpuMemcpy(host.data(), reinterpret_cast<void *>(words[1]), bytes,
               nullptr);
#endif
    local[0] = local[1] = reinterpret_cast<int64_t>(host.data());
    return readResult(info, local.data(), rank);
  }

  void release(void *p) {
    if (!onGPU) {
      std::free(p);
      return;
    }
#ifdef RELAX_RUNTIME_HAS_CUDA
    mgpuMemFree(p, nullptr);
#endif
  }

private:
  bool onGPU;
  std::vector<void *> uploads;
};
} // namespace

static std::string runtimeLibraryPath() {
  std::string exe = llvm::sys::fs::getMainExecutable(
      "relax-run", reinterpret_cast<void *>(&runtimeLibraryPath));
  SmallString<256> path(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(path, "lib", "libRelaxRuntime.so");
  return std::string(path);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // Compiled modules allocate their outputs and intermediates per call with
  // malloc. Keeping freed blocks in the heap (instead of glibc returning
  // large ones to the OS) lets repeated calls reuse pages without faulting
  // them in again; a pooling allocator in the runtime will replace this.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  relax::registerVersionPrinter();
  // The built-in pipelines are parsed from text: every pass must be known.
  relax::registerAllPasses();
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "relax-run: run a function of a relax module\n");
  bool onGPU = deviceName == "cuda";
  if (deviceName != "cpu" && !onGPU)
    return fail("unknown --device '" + deviceName + "' (cpu or cuda)");
#ifdef RELAX_RUNTIME_HAS_CUDA
  // Fail before compiling anything when there is no GPU to run on.
  if (onGPU && !relax_rt_cuda_init(0))
    return fail(Twine("--device cuda: ") + relax_rt_last_error());
#else
  if (onGPU)
    return fail("--device cuda: this build has no CUDA runtime (configure "
                "with the CUDA toolkit installed)");
#endif
  FailureOr<llvm::StringMap<int64_t>> dims = parseDims();
  if (failed(dims))
    return 1;

  relax::LowerToGPUOptions gpuOptions;
#ifdef RELAX_RUNTIME_HAS_CUDA
  // PTX for the GPU present, compiled by the driver at module load.
  if (onGPU) {
    gpuOptions.chip = relax_rt_cuda_chip();
    // Blackwell (sm_100 and later) needs PTX 8.6; older chips take 8.0.
    unsigned major = 0;
    if (!StringRef(gpuOptions.chip).drop_front(3).drop_back(1).getAsInteger(
            10, major) &&
        major >= 10)
      gpuOptions.features = "+ptx86";
  }
#endif

  DialectRegistry registry;
  relax::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  std::string error;
  auto file = openInputFile(inputFilename, &error);
  if (!file)
    return fail(error);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  // The relax signature (when the input is relax) names the symbolic dims
  // that --dim binds for random inputs.
  SmallVector<std::optional<relax::SymShape>> relaxParams;
  if (auto relaxFunc = module->lookupSymbol<relax::FuncOp>(entryName)) {
    for (Type t : relaxFunc.getArgumentTypes()) {
      if (auto tensor = dyn_cast<relax::RelaxTensorType>(t))
        relaxParams.push_back(tensor.getShape());
      else
        relaxParams.push_back(std::nullopt);
    }
    PassManager pm(&context);
    if (fuseOps)
      relax::buildFuseOpsPipeline(pm, relax::FuseOpsPipelineOptions());
    if (onGPU)
      relax::buildRelaxToGPUPipeline(pm, gpuOptions);
    else
      relax::buildRelaxToHostPipeline(pm);
    if (failed(pm.run(*module)))
      return fail("lowering the relax module failed");
  } else if (onGPU) {
    return fail("--device cuda needs a relax module (its tensors must be "
                "placed in GPU memory by the GPU pipeline)");
  }

  auto func = module->lookupSymbol<func::FuncOp>(entryName);
  if (!func)
    return fail("no function '" + entryName + "' in " + inputFilename);
  SmallVector<TensorInfo> params, results;
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    FailureOr<TensorInfo> info = infoFromMemRef(t);
    if (failed(info))
      return fail("parameter #" + Twine(i) + " of '" + entryName +
                  "' is not a tensor relax-run can pass");
    if (i < relaxParams.size())
      info->symShape = relaxParams[i];
    params.push_back(*info);
  }
  for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<TensorInfo> info = infoFromMemRef(t);
    if (failed(info) || !info->ranked)
      return fail("result #" + Twine(i) + " of '" + entryName +
                  "' is not a tensor relax-run can read (unknown rank "
                  "results need a match_cast first)");
    results.push_back(*info);
  }
  func->setAttr("llvm.emit_c_interface", UnitAttr::get(&context));

  // Inputs: files, or random data shaped by the relax types and --dim.
  std::vector<HostTensor> inputs;
  if (!inputFiles.empty()) {
    if (inputFiles.size() != params.size())
      return fail("'" + entryName + "' takes " + Twine(params.size()) +
                  " inputs, got " + Twine(inputFiles.size()) + " --input files");
    for (const std::string &path : inputFiles) {
      llvm::Expected<HostTensor> t = readNpy(path);
      if (!t)
        return fail(llvm::toString(t.takeError()));
      inputs.push_back(std::move(*t));
    }
  } else if (randomInputs) {
    std::mt19937_64 rng(seed);
    for (auto [i, info] : llvm::enumerate(params)) {
      if (!info.ranked)
        return fail("parameter #" + Twine(i) +
                    " has unknown rank: give --input files");
      SmallVector<int64_t> shape;
      for (auto [d, size] : llvm::enumerate(info.staticSizes)) {
        if (size != ShapedType::kDynamic) {
          shape.push_back(size);
          continue;
        }
        std::optional<int64_t> value;
        if (info.symShape && info.symShape->hasRank() &&
            info.symShape->getDim(d))
          value = info.symShape->getDim(d).evaluate(*dims);
        if (!value || *value < 0)
          return fail("parameter #" + Twine(i) + " dim " + Twine(d) +
                      " is symbolic: bind its variables with --dim");
        shape.push_back(*value);
      }
      inputs.push_back(makeRandom(info, shape, rng));
    }
  } else if (!params.empty()) {
    return fail("'" + entryName + "' takes " + Twine(params.size()) +
                " inputs: give --input files or --random-inputs");
  }
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, params))) {
    auto &[t, info] = pair;
    adoptDType(t, info.dtype);
    if (t.dtype != info.dtype)
      return fail("input #" + Twine(i) + " has dtype " + dtypeName(t.dtype) +
                  " but '" + entryName + "' expects " +
                  dtypeName(info.dtype));
    if (info.ranked && t.shape.size() != info.staticSizes.size())
      return fail("input #" + Twine(i) + " has rank " +
                  Twine(t.shape.size()) + " but '" + entryName +
                  "' expects rank " + Twine(info.staticSizes.size()));
    for (auto [d, size] : llvm::enumerate(info.staticSizes))
      if (size != ShapedType::kDynamic && size != t.shape[d])
        return fail("input #" + Twine(i) + " dim " + Twine(d) + " is " +
                    Twine(t.shape[d]) + " but '" + entryName +
                    "' expects " + Twine(size));
  }

  // Lower to LLVM and JIT.
  {
    PassManager pm(&context);
    if (onGPU)
      relax::buildLowerGPUToLLVMPipeline(pm, gpuOptions);
    else
      relax::buildLowerToCPUPipeline(pm);
    if (failed(pm.run(*module)))
      return fail("lowering to the LLVM dialect failed");
  }
  if (printLowered)
    module->print(llvm::outs());
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerBuiltinDialectTranslation(context);
  registerLLVMDialectTranslation(context);
  registerAllToLLVMIRTranslations(registry);
  context.appendDialectRegistry(registry);

  std::string runtimePath = runtimeLibraryPath();
  SmallVector<StringRef> libs = {runtimePath, RELAX_OMP_LIBRARY};
  // Optimise for the host CPU (AVX-512 where present): the loop vectoriser
  // needs the target's features to pick vector widths.
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return fail("cannot detect the host CPU: " +
                llvm::toString(tmBuilder.takeError()));
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto targetMachine = tmBuilder->createTargetMachine();
  if (!targetMachine)
    return fail("cannot create a target machine: " +
                llvm::toString(targetMachine.takeError()));
  auto transformer =
      makeOptimizingTransformer(3, 0, targetMachine->get());
  ExecutionEngineOptions options;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.sharedLibPaths = libs;
  auto engineOr = ExecutionEngine::create(*module, options);
  if (!engineOr)
    return fail("JIT compilation failed: " +
                llvm::toString(engineOr.takeError()));
  std::unique_ptr<ExecutionEngine> engine = std::move(*engineOr);
  relax_rt_clear_error();
  engine->initialize();
  // Global constructors load the GPU kernels.
  if (relax_rt_has_error())
    return fail(Twine("loading the module failed: ") + relax_rt_last_error());
  DeviceMemory device(onGPU);

  // Argument descriptors point at the input data (row-major strides).
  std::vector<Descriptor> argDescs;
  for (HostTensor &t : inputs) {
    int64_t rank = t.shape.size();
    Descriptor desc(rank);
    void *data = device.upload(t);
    if (relax_rt_has_error())
      return fail(Twine("copying input to the GPU: ") + relax_rt_last_error());
    desc.words[0] = desc.words[1] = reinterpret_cast<int64_t>(data);
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      desc.words[3 + d] = t.shape[d];
      desc.words[3 + rank + d] = stride;
      stride *= t.shape[d];
    }
    argDescs.push_back(std::move(desc));
  }
  // An unranked memref is passed as {rank, pointer to a ranked descriptor}.
  std::vector<std::array<int64_t, 2>> unrankedDescs(argDescs.size());
  size_t resultWords = 0;
  for (const TensorInfo &info : results)
    resultWords += Descriptor::wordsFor(info.staticSizes.size());
  std::vector<int64_t> resultStruct(std::max<size_t>(resultWords, 1), 0);

  std::vector<void *> pointers;
  std::vector<void *> packed;
  void *resultPtr = resultStruct.data();
  if (!results.empty())
    pointers.push_back(resultPtr);
  for (auto [i, desc] : llvm::enumerate(argDescs)) {
    if (params[i].ranked) {
      pointers.push_back(desc.words.data());
      continue;
    }
    unrankedDescs[i] = {static_cast<int64_t>(inputs[i].shape.size()),
                        reinterpret_cast<int64_t>(desc.words.data())};
    pointers.push_back(unrankedDescs[i].data());
  }
  for (void *&p : pointers)
    packed.push_back(&p);

  // Frees what one call returned, skipping inputs, globals and duplicates.
  auto releaseResults = [&]() {
    std::vector<int64_t> freed;
    size_t offset = 0;
    for (const TensorInfo &info : results) {
      int64_t allocated = resultStruct[offset];
      offset += Descriptor::wordsFor(info.staticSizes.size());
      bool isInput = llvm::any_of(argDescs, [&](const Descriptor &d) {
        return d.words[0] == allocated;
      });
      // memref.get_global descriptors carry this marker instead of a heap
      // pointer.
      if (!allocated || isInput || allocated == 0xdeadbeef ||
          llvm::is_contained(freed, allocated))
        continue;
      freed.push_back(allocated);
      device.release(reinterpret_cast<void *>(allocated));
    }
  };

  auto invoke = [&]() -> bool {
    relax_rt_clear_error();
    if (llvm::Error err =
            engine->invokePacked("_mlir_ciface_" + entryName, packed)) {
      fail("cannot call '" + entryName + "': " + llvm::toString(std::move(err)));
      return false;
    }
    if (relax_rt_has_error()) {
      fail(relax_rt_last_error());
      return false;
    }
    return true;
  };

  if (!invoke())
    return 1;
  std::vector<HostTensor> outputs;
  {
    size_t offset = 0;
    for (const TensorInfo &info : results) {
      int64_t rank = info.staticSizes.size();
      outputs.push_back(
          device.download(info, resultStruct.data() + offset, rank));
      if (relax_rt_has_error())
        return fail(Twine("copying a result from the GPU: ") +
                    relax_rt_last_error());
      offset += Descriptor::wordsFor(rank);
    }
  }
  releaseResults();

  for (auto [i, t] : llvm::enumerate(outputs))
    printSummary(i, t);

  if (!outputDir.empty()) {
    llvm::sys::fs::create_directories(outputDir);
    for (auto [i, t] : llvm::enumerate(outputs)) {
      SmallString<256> path(outputDir);
      llvm::sys::path::append(path, "output_" + std::to_string(i) + ".npy");
      if (llvm::Error err = writeNpy(path, t))
        return fail(llvm::toString(std::move(err)));
    }
  }

  bool ok = true;
  if (!expectFiles.empty()) {
    if (expectFiles.size() != outputs.size())
      return fail("'" + entryName + "' returns " + Twine(outputs.size()) +
                  " results, got " + Twine(expectFiles.size()) +
                  " --expect files");
    for (auto [i, path] : llvm::enumerate(expectFiles)) {
      llvm::Expected<HostTensor> expected = readNpy(path);
      if (!expected)
        return fail(llvm::toString(expected.takeError()));
      adoptDType(*expected, outputs[i].dtype);
      ok &= compare(i, outputs[i], *expected);
    }
    if (ok)
      llvm::outs() << "relax-run: all " << outputs.size()
                   << " outputs match (rtol="
                   << llvm::format("%g", relTol.getValue())
                   << ", atol=" << llvm::format("%g", absTol.getValue())
                   << ")\n";
  }

  if (benchmarkRuns > 0) {
    // One warm-up run (page faults, OpenMP thread start), then timed runs.
    if (!invoke())
      return 1;
    releaseResults();
    std::vector<double> times;
    for (unsigned r = 0; r < benchmarkRuns; ++r) {
      auto start = std::chrono::steady_clock::now();
      if (!invoke())
        return 1;
      auto stop = std::chrono::steady_clock::now();
      releaseResults();
      times.push_back(
          std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(times.begin(), times.end());
    llvm::outs() << "benchmark: " << benchmarkRuns << " runs, min "
                 << llvm::format("%.4f", times.front()) << " ms, median "
                 << llvm::format("%.4f", times[times.size() / 2]) << " ms\n";
#ifdef RELAX_RUNTIME_HAS_CUDA
    // Kernel time alone (the calls above include device allocation and a
    // synchronisation per launch): separate runs with every launch timed.
    if (onGPU) {
      relax_rt_cuda_set_profiling(1);
      std::vector<double> kernelTimes;
      for (unsigned r = 0; r < benchmarkRuns; ++r) {
        relax_rt_cuda_take_kernel_ms();
        if (!invoke())
          return 1;
        kernelTimes.push_back(relax_rt_cuda_take_kernel_ms());
        releaseResults();
      }
      relax_rt_cuda_set_profiling(0);
      std::sort(kernelTimes.begin(), kernelTimes.end());
      llvm::outs() << "gpu kernels: min "
                   << llvm::format("%.4f", kernelTimes.front())
                   << " ms, median "
                   << llvm::format("%.4f", kernelTimes[kernelTimes.size() / 2])
                   << " ms per call (" << relax_rt_cuda_device_name()
                   << ")\n";
    }
#endif
  }
  return ok ? 0 : 1;
}
