//===- CompiledModule.cpp - Compile a relax module once, call it often ----===//
//
// The module keeps its MLIRContext, source manager (for located
// diagnostics) and, once compiled, its ExecutionEngine. Signatures are read
// from the func.func entries before the LLVM lowering erases their memref
// types, and cached.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/CompiledModule.h"

#include "RelaxDialect/InitAll.h"
#include "RelaxDialect/Pipelines/Pipelines.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"
#ifdef RELAX_RUNTIME_HAS_CUDA
#include "RelaxDialect/Runtime/RelaxCUDA.h"
#endif

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <array>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <malloc.h>
#include <mutex>

using namespace mlir;
using namespace mlir::relax::exec;

char DiagnosedError::ID = 0;

void DiagnosedError::log(llvm::raw_ostream &os) const { os << message; }

std::error_code DiagnosedError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
}

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Where the relax runtime's error slot holds a message, that message.
static llvm::Error runtimeError(const llvm::Twine &prefix) {
  return error(prefix + relax_rt_last_error());
}

void mlir::relax::exec::initializeExecution() {
  static std::once_flag once;
  std::call_once(once, [] {
    // The built-in pipelines are parsed from text: every pass must be known.
    relax::registerAllPasses();
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
}

void mlir::relax::exec::retainFreedMemory() {
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

llvm::Error mlir::relax::exec::initDevice(Device device) {
  if (device == Device::CPU)
    return llvm::Error::success();
#ifdef RELAX_RUNTIME_HAS_CUDA
  if (!relax_rt_cuda_init(0))
    return runtimeError("");
  return llvm::Error::success();
#else
  return error("this build has no CUDA runtime (configure with the CUDA "
               "toolkit installed)");
#endif
}

std::string mlir::relax::exec::defaultRuntimeLibraryPath() {
  std::string exe = llvm::sys::fs::getMainExecutable(
      "relax-run", reinterpret_cast<void *>(&defaultRuntimeLibraryPath));
  llvm::SmallString<256> path(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
  llvm::sys::path::append(path, "lib", "libRelaxRuntime.so");
  return std::string(path);
}

//===----------------------------------------------------------------------===//
// Signatures
//===----------------------------------------------------------------------===//

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

llvm::Error
mlir::relax::exec::checkInputs(const EntrySignature &signature,
                               llvm::MutableArrayRef<HostTensor> inputs) {
  const std::string &entry = signature.name;
  if (inputs.size() != signature.params.size())
    return error("'" + entry + "' takes " +
                 llvm::Twine(signature.params.size()) + " inputs, got " +
                 llvm::Twine(inputs.size()));
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inputs, signature.params))) {
    auto &[t, info] = pair;
    adoptDType(t, info.dtype);
    if (t.dtype != info.dtype)
      return error("input #" + llvm::Twine(i) + " has dtype " +
                   dtypeName(t.dtype) + " but '" + entry + "' expects " +
                   dtypeName(info.dtype));
    if (info.ranked && t.shape.size() != info.staticSizes.size())
      return error("input #" + llvm::Twine(i) + " has rank " +
                   llvm::Twine(t.shape.size()) + " but '" + entry +
                   "' expects rank " + llvm::Twine(info.staticSizes.size()));
    for (auto [d, size] : llvm::enumerate(info.staticSizes))
      if (size != ShapedType::kDynamic && size != t.shape[d])
        return error("input #" + llvm::Twine(i) + " dim " + llvm::Twine(d) +
                     " is " + llvm::Twine(t.shape[d]) + " but '" + entry +
                     "' expects " + llvm::Twine(size));
    // The descriptors and the copies below size buffers from the shape.
    if (!checkedElementCount(t.shape) ||
        t.data.size() !=
            static_cast<size_t>(t.numElements()) * dtypeSize(t.dtype))
      return error("input #" + llvm::Twine(i) + " of shape " + t.shapeStr() +
                   " holds " + llvm::Twine(t.data.size()) +
                   " bytes, not the size of its shape");
  }
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Memory of one call
//===----------------------------------------------------------------------===//

namespace {
/// A memref descriptor as the C interface lays it out: allocated and aligned
/// pointers, offset, sizes, strides (all 8 bytes wide).
struct Descriptor {
  std::vector<int64_t> words;
  explicit Descriptor(int64_t rank) : words(3 + 2 * rank, 0) {}
  static size_t wordsFor(int64_t rank) { return 3 + 2 * rank; }
};

/// Copies a (possibly strided) memref described by `words` into a tensor.
HostTensor readResult(const TensorInfo &info, const int64_t *words,
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

/// Where tensors live during a call: host memory (CPU) or device buffers
/// (CUDA: inputs are copied in, results copied back, and every buffer is
/// freed with the CUDA runtime).
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
    mgpuMemcpy(host.data(), reinterpret_cast<void *>(words[1]), bytes, nullptr);
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

//===----------------------------------------------------------------------===//
// CompiledModule
//===----------------------------------------------------------------------===//

struct CompiledModule::Impl {
  CompileOptions options;
  std::string bufferName;
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
  relax::LowerToGPUOptions gpuOptions;
  /// The relax shapes of each relax entry's parameters, read before the
  /// relax pipeline erases them.
  llvm::StringMap<SmallVector<std::optional<SymShape>>> relaxParams;
  /// Signatures read so far; after jit() every entry's, or why it has none.
  llvm::StringMap<EntrySignature> signatures;
  llvm::StringMap<std::string> signatureErrors;
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  std::function<llvm::Error(llvm::Module *)> transformer;
  std::unique_ptr<ExecutionEngine> engine;

  llvm::Error load(std::unique_ptr<llvm::MemoryBuffer> buffer);
  bool isEntry(llvm::StringRef name) const {
    return options.entries.empty() ||
           llvm::is_contained(options.entries, name.str());
  }
  llvm::Error readSignature(func::FuncOp func);
};

llvm::Error
CompiledModule::Impl::load(std::unique_ptr<llvm::MemoryBuffer> buffer) {
  bool onGPU = options.device == Device::CUDA;
#ifdef RELAX_RUNTIME_HAS_CUDA
  // PTX for the GPU present, compiled by the driver at module load.
  if (onGPU) {
    gpuOptions.chip = relax_rt_cuda_chip();
    // Blackwell (sm_100 and later) needs PTX 8.6; older chips take 8.0.
    unsigned major = 0;
    if (!StringRef(gpuOptions.chip)
             .drop_front(3)
             .drop_back(1)
             .getAsInteger(10, major) &&
        major >= 10)
      gpuOptions.features = "+ptx86";
  }
#endif

  relax::registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  registerBuiltinDialectTranslation(*context);
  registerLLVMDialectTranslation(*context);

  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  diagnostics =
      std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, context.get());
  module = parseSourceFile<ModuleOp>(sourceMgr, context.get());
  if (!module)
    return llvm::make_error<DiagnosedError>("cannot parse " + bufferName);

  // The relax signatures name the symbolic dims of the parameters.
  bool hasRelaxEntry = false;
  for (auto relaxFunc : module->getOps<relax::FuncOp>()) {
    if (!isEntry(relaxFunc.getSymName()))
      continue;
    hasRelaxEntry = true;
    auto &shapes = relaxParams[relaxFunc.getSymName()];
    for (Type t : relaxFunc.getArgumentTypes()) {
      if (auto tensor = dyn_cast<relax::RelaxTensorType>(t))
        shapes.push_back(tensor.getShape());
      else
        shapes.push_back(std::nullopt);
    }
  }
  if (hasRelaxEntry) {
    PassManager pm(context.get());
    bool dispatch = options.dispatchLibrary && !onGPU;
    if (options.fuse) {
      relax::FuseOpsPipelineOptions fuseOptions;
      if (dispatch)
        fuseOptions.dispatchLibrary = "cpu";
      relax::buildFuseOpsPipeline(pm, fuseOptions);
    }
    if (onGPU) {
      relax::buildRelaxToGPUPipeline(pm, gpuOptions);
    } else {
      relax::LowerToCPUOptions hostOptions;
      // After fusion the offload has been done (or refused) already.
      hostOptions.dispatchLibrary = dispatch && !options.fuse;
      relax::buildRelaxToHostPipeline(pm, hostOptions);
    }
    if (failed(pm.run(*module)))
      return error("lowering the relax module failed");
  } else if (onGPU) {
    return error("--device cuda needs a relax module (its tensors must be "
                 "placed in GPU memory by the GPU pipeline)");
  }
  return llvm::Error::success();
}

llvm::Error CompiledModule::Impl::readSignature(func::FuncOp func) {
  StringRef name = func.getSymName();
  if (signatures.count(name))
    return llvm::Error::success();
  if (auto it = signatureErrors.find(name); it != signatureErrors.end())
    return error(it->second);
  auto fail = [&](const llvm::Twine &message) {
    signatureErrors[name] = message.str();
    return error(message);
  };
  EntrySignature signature;
  signature.name = name.str();
  auto relaxIt = relaxParams.find(name);
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    FailureOr<TensorInfo> info = infoFromMemRef(t);
    if (failed(info))
      return fail("parameter #" + llvm::Twine(i) + " of '" + name +
                  "' is not a tensor relax-run can pass");
    if (relaxIt != relaxParams.end() && i < relaxIt->second.size())
      info->symShape = relaxIt->second[i];
    signature.params.push_back(*info);
  }
  for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
    FailureOr<TensorInfo> info = infoFromMemRef(t);
    if (failed(info) || !info->ranked)
      return fail("result #" + llvm::Twine(i) + " of '" + name +
                  "' is not a tensor relax-run can read (unknown rank "
                  "results need a match_cast first)");
    signature.results.push_back(*info);
  }
  signatures[name] = std::move(signature);
  return llvm::Error::success();
}

CompiledModule::CompiledModule(std::unique_ptr<Impl> impl)
    : impl(std::move(impl)) {}
CompiledModule::~CompiledModule() = default;

llvm::Expected<std::unique_ptr<CompiledModule>>
CompiledModule::load(llvm::StringRef path, const CompileOptions &options) {
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &message);
  if (!file)
    return error(message);
  initializeExecution();
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->bufferName = path.str();
  if (llvm::Error err = impl->load(std::move(file)))
    return std::move(err);
  return std::unique_ptr<CompiledModule>(new CompiledModule(std::move(impl)));
}

llvm::Expected<std::unique_ptr<CompiledModule>>
CompiledModule::loadSource(llvm::StringRef source, llvm::StringRef bufferName,
                           const CompileOptions &options) {
  initializeExecution();
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  impl->bufferName = bufferName.str();
  if (llvm::Error err =
          impl->load(llvm::MemoryBuffer::getMemBufferCopy(source, bufferName)))
    return std::move(err);
  return std::unique_ptr<CompiledModule>(new CompiledModule(std::move(impl)));
}

llvm::Expected<std::unique_ptr<CompiledModule>>
CompiledModule::compileFile(llvm::StringRef path,
                            const CompileOptions &options) {
  auto module = load(path, options);
  if (module)
    if (llvm::Error err = (*module)->jit())
      return std::move(err);
  return module;
}

llvm::Expected<std::unique_ptr<CompiledModule>>
CompiledModule::compileSource(llvm::StringRef source,
                              llvm::StringRef bufferName,
                              const CompileOptions &options) {
  auto module = loadSource(source, bufferName, options);
  if (module)
    if (llvm::Error err = (*module)->jit())
      return std::move(err);
  return module;
}

bool CompiledModule::isCompiled() const { return impl->engine != nullptr; }
Device CompiledModule::getDevice() const { return impl->options.device; }

llvm::Expected<const EntrySignature &>
CompiledModule::getSignature(llvm::StringRef entry) {
  if (auto it = impl->signatures.find(entry); it != impl->signatures.end())
    return it->second;
  if (auto it = impl->signatureErrors.find(entry);
      it != impl->signatureErrors.end())
    return error(it->second);
  func::FuncOp func;
  if (!isCompiled())
    func = impl->module->lookupSymbol<func::FuncOp>(entry);
  if (!func || !impl->isEntry(entry))
    return error("no function '" + entry + "' in " + impl->bufferName);
  if (llvm::Error err = impl->readSignature(func))
    return std::move(err);
  return impl->signatures.find(entry)->second;
}

llvm::Error CompiledModule::jit() {
  if (isCompiled())
    return llvm::Error::success();
  bool onGPU = impl->options.device == Device::CUDA;
  MLIRContext &context = *impl->context;
  // Every entry is called through its C interface; its signature must be
  // read before the memref types are lowered away.
  for (auto func : impl->module->getOps<func::FuncOp>()) {
    if (func.isDeclaration() || !impl->isEntry(func.getSymName()) ||
        (impl->options.entries.empty() && !func.isPublic()))
      continue;
    llvm::consumeError(impl->readSignature(func));
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(&context));
  }
  {
    PassManager pm(&context);
    if (onGPU) {
      relax::buildLowerGPUToLLVMPipeline(pm, impl->gpuOptions);
    } else {
      relax::LowerToCPUOptions cpuOptions;
      cpuOptions.minParallelWork = impl->options.minParallelWork;
      relax::buildLowerToCPUPipeline(pm, cpuOptions);
    }
    if (failed(pm.run(*impl->module)))
      return error("lowering to the LLVM dialect failed");
  }
  if (impl->options.printLowered)
    impl->module->print(*impl->options.printLowered);

  std::string runtimePath = impl->options.runtimeLibraryPath.empty()
                                ? defaultRuntimeLibraryPath()
                                : impl->options.runtimeLibraryPath;
  SmallVector<StringRef> libs = {runtimePath, RELAX_OMP_LIBRARY};
  // Optimise for the host CPU (AVX-512 where present): the loop vectoriser
  // needs the target's features to pick vector widths.
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return error("cannot detect the host CPU: " +
                 llvm::toString(tmBuilder.takeError()));
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto targetMachine = tmBuilder->createTargetMachine();
  if (!targetMachine)
    return error("cannot create a target machine: " +
                 llvm::toString(targetMachine.takeError()));
  // ExecutionEngineOptions::transformer is a non-owning reference, and the
  // transformer holds the target machine: both live as long as the module.
  impl->targetMachine = std::move(*targetMachine);
  impl->transformer =
      makeOptimizingTransformer(3, 0, impl->targetMachine.get());
  ExecutionEngineOptions options;
  options.transformer = impl->transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  options.sharedLibPaths = libs;
  auto engineOr = ExecutionEngine::create(*impl->module, options);
  if (!engineOr)
    return error("JIT compilation failed: " +
                 llvm::toString(engineOr.takeError()));
  std::unique_ptr<ExecutionEngine> engine = std::move(*engineOr);
  relax_rt_clear_error();
  engine->initialize();
  // Global constructors load the GPU kernels.
  if (relax_rt_has_error())
    return runtimeError("loading the module failed: ");
  impl->engine = std::move(engine);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Call
//===----------------------------------------------------------------------===//

struct Call::Impl {
  Impl(ExecutionEngine &engine, const EntrySignature &signature, bool onGPU)
      : engine(engine), signature(signature), onGPU(onGPU), device(onGPU) {}

  ExecutionEngine &engine;
  EntrySignature signature;
  bool onGPU;
  std::vector<HostTensor> inputs;
  DeviceMemory device;
  std::vector<Descriptor> argDescs;
  /// An unranked memref is passed as {rank, pointer to a ranked descriptor}.
  std::vector<std::array<int64_t, 2>> unrankedDescs;
  std::vector<int64_t> resultStruct;
  std::vector<void *> pointers;
  std::vector<void *> packed;
  /// Whether resultStruct holds outputs not yet freed.
  bool outputsLive = false;
};

Call::Call(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Call::~Call() { releaseOutputs(); }

const EntrySignature &Call::getSignature() const { return impl->signature; }
Device Call::getDevice() const {
  return impl->onGPU ? Device::CUDA : Device::CPU;
}

llvm::Expected<std::unique_ptr<Call>>
CompiledModule::prepareCall(llvm::StringRef entry,
                            std::vector<HostTensor> inputs) {
  auto signature = getSignature(entry);
  if (!signature)
    return signature.takeError();
  if (llvm::Error err = checkInputs(*signature, inputs))
    return std::move(err);
  if (llvm::Error err = jit())
    return std::move(err);
  auto call = std::make_unique<Call::Impl>(
      *impl->engine, *signature, impl->options.device == Device::CUDA);
  call->inputs = std::move(inputs);
  const EntrySignature &sig = call->signature;

  // Argument descriptors point at the input data (row-major strides). An
  // error left by an earlier failed call must not be taken for a copy's.
  relax_rt_clear_error();
  for (HostTensor &t : call->inputs) {
    int64_t rank = t.shape.size();
    Descriptor desc(rank);
    void *data = call->device.upload(t);
    if (call->onGPU && relax_rt_has_error())
      return runtimeError("copying input to the GPU: ");
    desc.words[0] = desc.words[1] = reinterpret_cast<int64_t>(data);
    int64_t stride = 1;
    for (int64_t d = rank - 1; d >= 0; --d) {
      desc.words[3 + d] = t.shape[d];
      desc.words[3 + rank + d] = stride;
      stride *= t.shape[d];
    }
    call->argDescs.push_back(std::move(desc));
  }
  call->unrankedDescs.resize(call->argDescs.size());
  size_t resultWords = 0;
  for (const TensorInfo &info : sig.results)
    resultWords += Descriptor::wordsFor(info.staticSizes.size());
  call->resultStruct.assign(std::max<size_t>(resultWords, 1), 0);

  if (!sig.results.empty())
    call->pointers.push_back(call->resultStruct.data());
  for (auto [i, desc] : llvm::enumerate(call->argDescs)) {
    if (sig.params[i].ranked) {
      call->pointers.push_back(desc.words.data());
      continue;
    }
    call->unrankedDescs[i] = {
        static_cast<int64_t>(call->inputs[i].shape.size()),
        reinterpret_cast<int64_t>(desc.words.data())};
    call->pointers.push_back(call->unrankedDescs[i].data());
  }
  for (void *&p : call->pointers)
    call->packed.push_back(&p);
  return std::unique_ptr<Call>(new Call(std::move(call)));
}

llvm::Error Call::run() {
  releaseOutputs();
  std::fill(impl->resultStruct.begin(), impl->resultStruct.end(), 0);
  const std::string &entry = impl->signature.name;
  relax_rt_clear_error();
  if (llvm::Error err =
          impl->engine.invokePacked("_mlir_ciface_" + entry, impl->packed))
    return error("cannot call '" + entry +
                 "': " + llvm::toString(std::move(err)));
  // After a failure the result descriptors may be partly written: they are
  // left alone rather than freed.
  if (relax_rt_has_error())
    return runtimeError("");
  impl->outputsLive = true;
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>> Call::readOutputs() {
  if (!impl->outputsLive)
    return error("'" + impl->signature.name +
                 "' has no outputs to read: "
                 "it has not run successfully since they were freed");
  std::vector<HostTensor> outputs;
  size_t offset = 0;
  relax_rt_clear_error();
  for (const TensorInfo &info : impl->signature.results) {
    int64_t rank = info.staticSizes.size();
    outputs.push_back(
        impl->device.download(info, impl->resultStruct.data() + offset, rank));
    if (impl->onGPU && relax_rt_has_error())
      return runtimeError("copying a result from the GPU: ");
    offset += Descriptor::wordsFor(rank);
  }
  return outputs;
}

void Call::releaseOutputs() {
  if (!impl->outputsLive)
    return;
  impl->outputsLive = false;
  std::vector<int64_t> freed;
  size_t offset = 0;
  for (const TensorInfo &info : impl->signature.results) {
    int64_t allocated = impl->resultStruct[offset];
    offset += Descriptor::wordsFor(info.staticSizes.size());
    bool isInput = llvm::any_of(impl->argDescs, [&](const Descriptor &d) {
      return d.words[0] == allocated;
    });
    // memref.get_global descriptors carry this marker instead of a heap
    // pointer.
    if (!allocated || isInput || allocated == 0xdeadbeef ||
        llvm::is_contained(freed, allocated))
      continue;
    freed.push_back(allocated);
    impl->device.release(reinterpret_cast<void *>(allocated));
  }
}

llvm::Expected<std::vector<HostTensor>>
CompiledModule::invoke(llvm::StringRef entry, std::vector<HostTensor> inputs) {
  auto call = prepareCall(entry, std::move(inputs));
  if (!call)
    return call.takeError();
  if (llvm::Error err = (*call)->run())
    return std::move(err);
  return (*call)->readOutputs();
}
