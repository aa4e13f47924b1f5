//===- CompiledModule.cpp - Compile a relax module once, call it often ----===//
//
// The module keeps its MLIRContext, source manager (for located
// diagnostics) and, once compiled, its ExecutionEngine. Signatures are read
// from the func.func entries before the LLVM lowering erases their memref
// types, and cached.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/CompiledModule.h"
#include "RelaxDialect/Conversion/Passes.h"

#include "RelaxDialect/InitAll.h"
#include "RelaxDialect/Pipelines/Pipelines.h"
#include "RelaxDialect/Relax/IR/RelaxOps.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/Runtime/ModuleLoader.h"
#include "RelaxDialect/Runtime/ParamFileWriter.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"
#ifdef RELAX_HAVE_ONNX
#include "RelaxDialect/Target/ONNX/ONNXImporter.h"
#endif
#ifdef RELAX_RUNTIME_HAS_CUDA
#include "RelaxDialect/Runtime/RelaxCUDA.h"
#endif

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <malloc.h>
#include <mutex>

using namespace mlir;
using namespace mlir::relax::exec;
namespace rt = mlir::relax::rt;

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
  static size_t wordsFor(int64_t rank) { return 3 + 2 * rank; }
};

/// Copies a (possibly strided) memref described by `words` into a tensor.
HostTensor readResult(const TensorInfo &info, const int64_t *words,
                      int64_t rank) {
  HostTensor t;
  t.dtype = info.dtype;
  t.shape.assign(words + 3, words + 3 + rank);
  t.data.resize(t.numElements() * dtypeSize(t.dtype));
  rt::copyToDense(words, rank, dtypeSize(t.dtype), t.data.data());
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
  /// The relax shapes and names (`relax.name`) of each relax entry's
  /// parameters, read before the relax pipeline erases them.
  struct RelaxParam {
    std::optional<SymShape> shape;
    std::string name;
  };
  llvm::StringMap<SmallVector<RelaxParam>> relaxParams;
  /// Signatures read so far; after jit() every entry's, or why it has none.
  llvm::StringMap<EntrySignature> signatures;
  llvm::StringMap<std::string> signatureErrors;
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  std::function<llvm::Error(llvm::Module *)> transformer;
  /// Once compiled: the JIT's engine or an opened library.
  std::unique_ptr<ExecutionEngine> engine;
  std::unique_ptr<rt::Library> library;
  /// Constants moved out of the code (paramMinBytes).
  SmallVector<relax::ExternalizedParam> params;
  /// exportLibrary lowered the module away.
  bool exported = false;

  void initContext();
  llvm::Error load(std::unique_ptr<llvm::MemoryBuffer> buffer);
  /// Reads every entry's signature and gives it a C interface: what the JIT
  /// and exportLibrary both do before lowering to LLVM.
  void prepareEntries();
  llvm::Error lowerToLLVM();
  rt::PackedFn lookupPacked(StringRef entry) const;
  bool isEntry(llvm::StringRef name) const {
    return options.entries.empty() ||
           llvm::is_contained(options.entries, name.str());
  }
  llvm::Error readSignature(func::FuncOp func);
  ~Impl() {
    // Packed GEMM weights are keyed by the addresses of this module's
    // constants, which the next module may reuse.
    if (engine)
      relax_rt_blas_release_constants();
#ifdef RELAX_RUNTIME_HAS_CUDA
    // Device copies of this module's constants are keyed by their host
    // addresses, which the next module may reuse.
    if (options.device == Device::CUDA && engine)
      relax_rt_cuda_release_constants();
#endif
  }
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

  initContext();
  StringRef bytes = buffer->getBuffer();
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  diagnostics =
      std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, context.get());
  if (StringRef(bufferName).ends_with(".onnx")) {
#ifdef RELAX_HAVE_ONNX
    module = relax::importONNXModel(bytes, bufferName, context.get());
    if (!module)
      return llvm::make_error<DiagnosedError>("cannot import " + bufferName);
#else
    return error("cannot read " + bufferName +
                 ": this build has no ONNX importer (libonnx-dev)");
#endif
  } else {
    module = parseSourceFile<ModuleOp>(sourceMgr, context.get());
    if (!module)
      return llvm::make_error<DiagnosedError>("cannot parse " + bufferName);
  }

  // TOSA functions (as torch-mlir or TensorFlow emit them) become relax
  // functions first; their `?` dims are named argI_dJ (--dim sets them).
  if (module->walk([](Operation *op) {
              return isa<tosa::TosaDialect>(op->getDialect())
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            })
          .wasInterrupted()) {
    PassManager pm(context.get());
    pm.addPass(relax::createConvertTOSAToRelax());
    if (failed(pm.run(*module)))
      return error("converting the TOSA functions to relax failed");
  }

  // The relax signatures name the symbolic dims of the parameters.
  bool hasRelaxEntry = false;
  for (auto relaxFunc : module->getOps<relax::FuncOp>()) {
    if (!isEntry(relaxFunc.getSymName()))
      continue;
    hasRelaxEntry = true;
    auto &params = relaxParams[relaxFunc.getSymName()];
    // A tuple parameter is passed as its leaves, depth first, as
    // relax-lower-shapes flattens it; a leaf is named by the parameter's
    // name and its field path (`cache.0.1`).
    std::function<void(Type, std::string)> addLeaves = [&](Type t,
                                                            std::string name) {
      if (auto tuple = dyn_cast<TupleType>(t)) {
        for (auto [k, field] : llvm::enumerate(tuple.getTypes()))
          addLeaves(field, name.empty() ? "" : name + "." + std::to_string(k));
        return;
      }
      Impl::RelaxParam param;
      if (auto tensor = dyn_cast<relax::RelaxTensorType>(t))
        param.shape = tensor.getShape();
      param.name = std::move(name);
      params.push_back(std::move(param));
    };
    for (auto [i, t] : llvm::enumerate(relaxFunc.getArgumentTypes())) {
      auto name = relaxFunc.getArgAttrOfType<StringAttr>(i, "relax.name");
      addLeaves(t, name ? name.str() : std::string());
    }
  }
  if (hasRelaxEntry) {
    PassManager pm(context.get());
    bool dispatch = options.dispatchLibrary && !onGPU;
    if (options.fuse) {
      relax::FuseOpsPipelineOptions fuseOptions;
      if (dispatch)
        fuseOptions.dispatchLibrary = relax::FuseDispatch::CPU;
      relax::buildFuseOpsPipeline(pm, fuseOptions);
    }
    if (onGPU) {
      gpuOptions.planMemory = options.planMemory;
      gpuOptions.recordMemory = options.recordMemory;
      gpuOptions.viaLinalg = options.viaLinalg;
      relax::buildRelaxToGPUPipeline(pm, gpuOptions);
    } else {
      relax::LowerToCPUOptions hostOptions;
      hostOptions.viaLinalg = options.viaLinalg;
      // After fusion the offload has been done (or refused) already.
      hostOptions.dispatchLibrary = dispatch && !options.fuse;
      hostOptions.planMemory = options.planMemory;
      hostOptions.recordMemory = options.recordMemory;
      relax::buildRelaxToHostPipeline(pm, hostOptions);
    }
    if (failed(pm.run(*module)))
      return error("lowering the relax module failed");
  } else if (onGPU) {
    return error("--device cuda needs a relax module (its tensors must be "
                 "placed in GPU memory by the GPU pipeline)");
  }
  // Weights out of the code (the GPU pipeline copies constants to the
  // device itself).
  if (!onGPU && options.paramMinBytes > 0) {
    auto moved = relax::externalizeParams(*module, options.paramMinBytes);
    if (failed(moved))
      return error("moving the constants out of the module failed");
    params = std::move(*moved);
  }
  return llvm::Error::success();
}

void CompiledModule::Impl::initContext() {
  relax::registerAllDialects(registry);
  registerAllToLLVMIRTranslations(registry);
  context = std::make_unique<MLIRContext>(registry);
  context->loadAllAvailableDialects();
  registerBuiltinDialectTranslation(*context);
  registerLLVMDialectTranslation(*context);
}

void CompiledModule::Impl::prepareEntries() {
  for (auto func : module->getOps<func::FuncOp>()) {
    if (func.isDeclaration() || !isEntry(func.getSymName()) ||
        (options.entries.empty() && !func.isPublic()))
      continue;
    llvm::consumeError(readSignature(func));
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(context.get()));
  }
}

llvm::Error CompiledModule::Impl::lowerToLLVM() {
  PassManager pm(context.get());
  if (options.device == Device::CUDA)
    relax::buildLowerGPUToLLVMPipeline(pm, gpuOptions);
  else {
    relax::LowerToCPUOptions cpuOptions;
    cpuOptions.minParallelWork = options.minParallelWork;
    cpuOptions.approximateMath = options.approximateMath;
    cpuOptions.openmp = options.openmp;
    cpuOptions.viaLinalg = options.viaLinalg;
    relax::buildLowerToCPUPipeline(pm, cpuOptions);
  }
  if (failed(pm.run(*module)))
    return error("lowering to the LLVM dialect failed");
  if (options.printLowered)
    module->print(*options.printLowered);
  return llvm::Error::success();
}

rt::PackedFn CompiledModule::Impl::lookupPacked(StringRef entry) const {
  if (library)
    return library->lookupEntry(entry.str());
  if (!engine)
    return nullptr;
  auto fn = engine->lookupPacked(("_mlir_ciface_" + entry).str());
  if (!fn) {
    llvm::consumeError(fn.takeError());
    return nullptr;
  }
  return *fn;
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
    if (relaxIt != relaxParams.end() && i < relaxIt->second.size()) {
      info->symShape = relaxIt->second[i].shape;
      info->name = relaxIt->second[i].name;
    }
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

bool CompiledModule::isCompiled() const {
  return impl->engine != nullptr || impl->library != nullptr;
}
Device CompiledModule::getDevice() const { return impl->options.device; }

llvm::Expected<const EntrySignature &>
CompiledModule::getSignature(llvm::StringRef entry) {
  if (auto it = impl->signatures.find(entry); it != impl->signatures.end())
    return it->second;
  if (auto it = impl->signatureErrors.find(entry);
      it != impl->signatureErrors.end())
    return error(it->second);
  func::FuncOp func;
  if (!isCompiled() && !impl->exported)
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
  if (impl->exported)
    return error("the module was compiled into a library already");
  // Every entry is called through its C interface; its signature must be
  // read before the memref types are lowered away.
  impl->prepareEntries();
  if (llvm::Error err = impl->lowerToLLVM())
    return err;

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
  // The externalized constants, copied into their globals once.
  for (const relax::ExternalizedParam &p : impl->params) {
    auto address = engine->lookup(p.symbol);
    if (!address)
      return error("JIT: no global '" + p.symbol +
                   "': " + llvm::toString(address.takeError()));
    std::memcpy(*address, p.bytes().data(), p.bytes().size());
  }
  impl->engine = std::move(engine);
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Call
//===----------------------------------------------------------------------===//

/// The packed call's view of a signature: which parameters are ranked, the
/// rank of each result.
static std::vector<bool> rankedParams(const EntrySignature &signature) {
  std::vector<bool> ranked;
  for (const TensorInfo &info : signature.params)
    ranked.push_back(info.ranked);
  return ranked;
}

static std::vector<int64_t> resultRanks(const EntrySignature &signature) {
  std::vector<int64_t> ranks;
  for (const TensorInfo &info : signature.results)
    ranks.push_back(info.staticSizes.size());
  return ranks;
}

struct Call::Impl {
  Impl(rt::PackedFn fn, const EntrySignature &signature, bool onGPU)
      : signature(signature), onGPU(onGPU), device(onGPU),
        call(fn, signature.name, rankedParams(signature),
             resultRanks(signature)) {}

  EntrySignature signature;
  bool onGPU;
  std::vector<HostTensor> inputs;
  DeviceMemory device;
  /// The descriptors and the packed arguments (shared with the C API).
  rt::PackedCall call;
  /// Whether the result descriptors hold outputs not yet freed.
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
  rt::PackedFn fn = impl->lookupPacked(entry);
  if (!fn)
    return error("cannot call '" + entry + "': no entry point " +
                 rt::packedEntrySymbol(entry.str()));
  auto call = std::make_unique<Call::Impl>(
      fn, *signature, impl->options.device == Device::CUDA);
  call->inputs = std::move(inputs);

  // Argument descriptors point at the input data (row-major strides). An
  // error left by an earlier failed call must not be taken for a copy's.
  relax_rt_clear_error();
  for (auto [i, t] : llvm::enumerate(call->inputs)) {
    void *data = call->device.upload(t);
    if (call->onGPU && relax_rt_has_error())
      return runtimeError("copying input to the GPU: ");
    call->call.setInput(i, data, t.shape);
  }
  return std::unique_ptr<Call>(new Call(std::move(call)));
}

llvm::Error Call::run() {
  releaseOutputs();
  // After a failure the result descriptors may be partly written: they are
  // left alone rather than freed.
  if (rt::Status s = impl->call.run())
    return error(s.message());
  impl->outputsLive = true;
  return llvm::Error::success();
}

llvm::Expected<std::vector<HostTensor>> Call::readOutputs() {
  if (!impl->outputsLive)
    return error("'" + impl->signature.name +
                 "' has no outputs to read: "
                 "it has not run successfully since they were freed");
  std::vector<HostTensor> outputs;
  relax_rt_clear_error();
  for (auto [i, info] : llvm::enumerate(impl->signature.results)) {
    int64_t rank = info.staticSizes.size();
    outputs.push_back(impl->device.download(info, impl->call.result(i), rank));
    if (impl->onGPU && relax_rt_has_error())
      return runtimeError("copying a result from the GPU: ");
  }
  return outputs;
}

void Call::releaseOutputs() {
  if (!impl->outputsLive)
    return;
  impl->outputsLive = false;
  for (void *block : impl->call.ownedResultBlocks())
    impl->device.release(block);
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

//===----------------------------------------------------------------------===//
// Libraries compiled ahead of time
//===----------------------------------------------------------------------===//

/// The metadata entry of one parameter or result.
static rt::TensorSpec toSpec(const TensorInfo &info) {
  rt::TensorSpec spec;
  spec.dtype = dtypeName(info.dtype);
  spec.ranked = info.ranked;
  for (auto [d, size] : llvm::enumerate(info.staticSizes)) {
    spec.staticSizes.push_back(size == ShapedType::kDynamic ? -1 : size);
    std::string text;
    llvm::raw_string_ostream os(text);
    if (info.symShape && info.symShape->hasRank() &&
        d < static_cast<size_t>(info.symShape->getRank()))
      relax::printSymDim(os, info.symShape->getDim(d));
    else if (size == ShapedType::kDynamic)
      os << "?";
    else
      os << size;
    spec.dims.push_back(text);
  }
  if (info.symShape)
    spec.relaxType = "!relax.tensor<" + info.symShape->str() + ", " +
                     dtypeName(info.dtype) + ">";
  spec.name = info.name;
  return spec;
}

/// The inverse of toSpec; the relax type is parsed back for its symbolic
/// shape (random inputs are sized from it).
static llvm::Expected<TensorInfo> fromSpec(const rt::TensorSpec &spec,
                                           MLIRContext *context) {
  std::optional<DType> dtype = dtypeFromName(spec.dtype);
  if (!dtype)
    return error("unknown dtype '" + spec.dtype + "'");
  TensorInfo info;
  info.dtype = *dtype;
  info.ranked = spec.ranked;
  info.name = spec.name;
  for (int64_t size : spec.staticSizes)
    info.staticSizes.push_back(size < 0 ? ShapedType::kDynamic : size);
  if (!spec.relaxType.empty()) {
    auto type = dyn_cast_or_null<relax::RelaxTensorType>(
        parseType(spec.relaxType, context, /*numRead=*/nullptr,
                  /*isKnownNullTerminated=*/false));
    if (!type)
      return error("bad relax type '" + spec.relaxType + "'");
    info.symShape = type.getShape();
  }
  return info;
}

llvm::Expected<std::unique_ptr<CompiledModule>>
CompiledModule::openLibrary(llvm::StringRef path, llvm::StringRef paramsPath) {
  initializeExecution();
  auto impl = std::make_unique<Impl>();
  impl->bufferName = path.str();
  impl->initContext();
  auto library = rt::Library::open(path.str(), paramsPath.str());
  if (!library)
    return error(library.message());
  for (const rt::FunctionSpec &f : (*library)->getMetadata().functions) {
    EntrySignature signature;
    signature.name = f.name;
    for (auto [specs, infos] : {std::make_pair(&f.params, &signature.params),
                                std::make_pair(&f.results, &signature.results)})
      for (const rt::TensorSpec &spec : *specs) {
        auto info = fromSpec(spec, impl->context.get());
        if (!info)
          return error("bad metadata in " + path + ": '" + f.name +
                       "': " + llvm::toString(info.takeError()));
        infos->push_back(std::move(*info));
      }
    impl->signatures[f.name] = std::move(signature);
  }
  impl->library = std::move(*library);
  return std::unique_ptr<CompiledModule>(new CompiledModule(std::move(impl)));
}

/// Adds `_mlir_<f>(void **args)`, the packed form of the C interface
/// function `f`, as MLIR's ExecutionEngine does for the JIT: args[i]
/// points at argument i; a returned value is stored through args[n].
static void addPackedWrapper(llvm::Module &module, llvm::Function &f) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::IRBuilder<> b(ctx);
  llvm::Type *ptr = b.getPtrTy();
  auto *wrapper = llvm::Function::Create(
      llvm::FunctionType::get(b.getVoidTy(), {ptr}, false),
      llvm::GlobalValue::ExternalLinkage, "_mlir_" + f.getName(), module);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", wrapper));
  llvm::Value *args = wrapper->getArg(0);
  SmallVector<llvm::Value *> callArgs;
  for (llvm::Argument &a : f.args()) {
    llvm::Value *slot = b.CreateConstGEP1_64(ptr, args, a.getArgNo());
    callArgs.push_back(b.CreateLoad(a.getType(), b.CreateLoad(ptr, slot)));
  }
  llvm::Value *result = b.CreateCall(&f, callArgs);
  if (!f.getReturnType()->isVoidTy()) {
    llvm::Value *slot = b.CreateConstGEP1_64(ptr, args, f.arg_size());
    b.CreateStore(result, b.CreateLoad(ptr, slot));
  }
  b.CreateRetVoid();
}

/// The C compiler driver that links libraries: `requested`, or the first of
/// cc, gcc, clang on PATH.
static llvm::Expected<std::string> findLinker(StringRef requested) {
  SmallVector<StringRef> names;
  if (!requested.empty())
    names.push_back(requested);
  else
    names = {"cc", "gcc", "clang"};
  for (StringRef name : names)
    if (auto found = llvm::sys::findProgramByName(name))
      return *found;
  if (!requested.empty() && llvm::sys::fs::can_execute(requested))
    return requested.str();
  return error(requested.empty()
                   ? "no C compiler driver (cc, gcc, clang) on PATH to link "
                     "the library: pass --linker"
                   : "linker '" + requested + "' not found");
}

llvm::Error CompiledModule::exportLibrary(const LibraryOptions &options) {
  if (isCompiled() || impl->exported)
    return error("the module is compiled already");
  if (impl->options.device != Device::CPU)
    return error("libraries are compiled for the CPU only");
  if (options.outputPath.empty())
    return error("no output library given");
  if (options.optLevel > 3)
    return error("optimisation level " + llvm::Twine(options.optLevel) +
                 " is not 0-3");
  auto linker = findLinker(options.linker);
  if (!linker)
    return linker.takeError();
  std::string paramsPath = options.paramsPath;
  if (paramsPath.empty()) {
    SmallString<256> p(options.outputPath);
    llvm::sys::path::replace_extension(p, "params");
    paramsPath = std::string(p);
  }

  // Signatures first, in module order, before lowering erases the types.
  impl->prepareEntries();
  rt::ModuleMetadata metadata;
  for (auto func : impl->module->getOps<func::FuncOp>()) {
    auto it = impl->signatures.find(func.getSymName());
    if (it == impl->signatures.end())
      continue;
    rt::FunctionSpec spec;
    spec.name = it->second.name;
    for (const TensorInfo &info : it->second.params)
      spec.params.push_back(toSpec(info));
    for (const TensorInfo &info : it->second.results)
      spec.results.push_back(toSpec(info));
    metadata.functions.push_back(std::move(spec));
  }
  for (const std::string &entry : impl->options.entries)
    if (!metadata.lookup(entry)) {
      auto signature = getSignature(entry);
      return signature ? error("'" + entry + "' cannot be exported")
                       : signature.takeError();
    }
  if (metadata.functions.empty())
    return error("no function of " + impl->bufferName +
                 " can be called from a library");
  for (const relax::ExternalizedParam &p : impl->params)
    metadata.params.push_back(
        {p.symbol, p.dtype,
         std::vector<int64_t>(p.shape.begin(), p.shape.end())});
  metadata.paramsFile = llvm::sys::path::filename(paramsPath).str();

  auto last = std::chrono::steady_clock::now();
  auto lap = [&](const char *step) {
    auto now = std::chrono::steady_clock::now();
    if (options.timings)
      options.timings->emplace_back(
          step, std::chrono::duration<double>(now - last).count());
    last = now;
  };
  impl->exported = true;
  if (llvm::Error err = impl->lowerToLLVM())
    return err;
  lap("lower to the LLVM dialect");
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*impl->module, llvmContext, impl->bufferName);
  if (!llvmModule)
    return error("translating to LLVM IR failed");
  lap("translate to LLVM IR");

  // The host CPU (or options.cpu), as for the JIT, but position
  // independent.
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return error("cannot detect the host CPU: " +
                 llvm::toString(tmBuilder.takeError()));
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  tmBuilder->setRelocationModel(llvm::Reloc::PIC_);
  tmBuilder->setCodeModel(llvm::CodeModel::Small);
  auto targetMachine = tmBuilder->createTargetMachine();
  if (!targetMachine)
    return error("cannot create a target machine: " +
                 llvm::toString(targetMachine.takeError()));
  if (!options.cpu.empty()) {
    // Checked against the host target's CPU list first: LLVM would only
    // warn and fall back to a generic CPU.
    if (!(*targetMachine)->getMCSubtargetInfo()->isCPUStringValid(options.cpu))
      return error("'" + options.cpu + "' is not a CPU of " +
                   (*targetMachine)->getTargetTriple().str() +
                   " (llc -mcpu=help lists them)");
    tmBuilder->setCPU(options.cpu);
    tmBuilder->getFeatures() = llvm::SubtargetFeatures();
    targetMachine = tmBuilder->createTargetMachine();
    if (!targetMachine)
      return error("cannot create a target machine for '" + options.cpu +
                   "': " + llvm::toString(targetMachine.takeError()));
  }
  llvm::TargetMachine &tm = **targetMachine;
  llvmModule->setDataLayout(tm.createDataLayout());
  llvmModule->setTargetTriple(tm.getTargetTriple());

  for (const rt::FunctionSpec &f : metadata.functions) {
    llvm::Function *ciface = llvmModule->getFunction("_mlir_ciface_" + f.name);
    if (!ciface)
      return error("no C interface of '" + f.name + "' after lowering");
    addPackedWrapper(*llvmModule, *ciface);
  }
  std::string json = metadata.toJSON();
  auto *text = llvm::ConstantDataArray::getString(llvmContext, json);
  new llvm::GlobalVariable(*llvmModule, text->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, text,
                           rt::kMetadataSymbol);
  // Exported, but never interposed by another library's symbol of the same
  // name (two relax libraries both have a `main` and __relax_param_0).
  for (llvm::GlobalValue &g : llvmModule->global_values())
    if (!g.isDeclaration() && g.hasExternalLinkage())
      g.setVisibility(llvm::GlobalValue::ProtectedVisibility);

  if (llvm::Error err =
          makeOptimizingTransformer(options.optLevel, 0, &tm)(llvmModule.get()))
    return error("optimizing the LLVM IR failed: " +
                 llvm::toString(std::move(err)));
  lap("optimize LLVM IR");

  // The object: kept where asked, else in a temporary file.
  SmallString<256> objectPath(options.objectPath);
  std::optional<llvm::FileRemover> removeObject;
  if (objectPath.empty()) {
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "relax-compile", "o", objectPath))
      return error("cannot create a temporary object file: " + ec.message());
    removeObject.emplace(objectPath);
  }
  {
    std::error_code ec;
    llvm::ToolOutputFile object(objectPath, ec, llvm::sys::fs::OF_None);
    if (ec)
      return error("cannot write " + objectPath + ": " + ec.message());
    llvm::legacy::PassManager codegen;
    if (tm.addPassesToEmitFile(codegen, object.os(), nullptr,
                               llvm::CodeGenFileType::ObjectFile))
      return error("the target cannot emit object files");
    codegen.run(*llvmModule);
    object.keep();
  }
  lap("emit the object");

  std::vector<relax::rt::ParamToWrite> entries;
  for (const relax::ExternalizedParam &p : impl->params)
    entries.push_back({p.symbol, p.dtype,
                       std::vector<int64_t>(p.shape.begin(), p.shape.end()),
                       p.bytes()});
  llvm::StringMap<std::string> fileMetadata;
  fileMetadata["format"] = "relax-mlir parameters";
  fileMetadata["library"] = llvm::sys::path::filename(options.outputPath).str();
  if (llvm::Error err = rt::writeParamFile(paramsPath, entries, fileMetadata))
    return err;
  lap("write the parameter file");

  // Link against the runtime and OpenMP, found again at load time through
  // the run paths.
  std::string runtimePath = impl->options.runtimeLibraryPath.empty()
                                ? defaultRuntimeLibraryPath()
                                : impl->options.runtimeLibraryPath;
  std::string runtimeRPath =
      "-Wl,-rpath," + llvm::sys::path::parent_path(runtimePath).str();
  std::string ompRPath =
      "-Wl,-rpath," + llvm::sys::path::parent_path(RELAX_OMP_LIBRARY).str();
  SmallVector<StringRef> args = {*linker,
                                 "-shared",
                                 "-o",
                                 options.outputPath,
                                 objectPath,
                                 runtimePath,
                                 RELAX_OMP_LIBRARY,
                                 runtimeRPath,
                                 ompRPath,
                                 "-lm"};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(*linker, args, std::nullopt, {}, 0, 0,
                                     &message);
  if (rc != 0)
    return error("linking " + options.outputPath + " with " + *linker +
                 " failed" + (message.empty() ? "" : ": " + message) +
                 " (exit code " + llvm::Twine(rc) + ")");
  lap("link");
  return llvm::Error::success();
}
