//===- CompiledModule.cpp - Compile a relax module once, call it often ----===//
//
// The module keeps its MLIRContext, source manager (for located
// diagnostics) and, once compiled, its ExecutionEngine. Signatures are read
// from the func.func entries before the LLVM lowering erases their memref
// types, and cached.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/CompiledModule.h"
#include "CompiledModuleImpl.h"

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
using mlir::relax::SymShape;
using mlir::relax::exec::detail::error;
using mlir::relax::exec::detail::runtimeError;
namespace rt = mlir::relax::rt;

char DiagnosedError::ID = 0;

void DiagnosedError::log(llvm::raw_ostream &os) const { os << message; }

std::error_code DiagnosedError::convertToErrorCode() const {
  return llvm::inconvertibleErrorCode();
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
// CompiledModule
//===----------------------------------------------------------------------===//

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
    // A compute capability 9.0 device (H100 / H200) gets sm_90a's PTX:
    // Hopper's warpgroup MMA (the f16 / bf16 matmuls' wgmma) exists only in
    // that arch-specific target, which every 9.0 device runs.
    if (gpuOptions.chip == "sm_90")
      gpuOptions.chip = "sm_90a";
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
    shapeLayouts[relaxFunc.getSymName()] =
        relax::getShapeFunctionLayout(relaxFunc);
    auto &params = relaxParamNames[relaxFunc.getSymName()];
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
      params.push_back(std::move(name));
    };
    for (auto [i, t] : llvm::enumerate(relaxFunc.getArgumentTypes())) {
      auto name = relaxFunc.getArgAttrOfType<StringAttr>(i, "relax.name");
      addLeaves(t, name ? name.str() : std::string());
    }
  }
  if (hasRelaxEntry) {
    PassManager pm(context.get());
    // From the relax signatures, before the pipeline lowers them away.
    relax::RelaxEmitShapeFunctionsOptions shapeOptions;
    shapeOptions.entries.assign(options.entries.begin(),
                                options.entries.end());
    pm.addPass(relax::createRelaxEmitShapeFunctions(shapeOptions));
    bool dispatch = options.dispatchLibrary && !onGPU;
    ext::QuantActivations quantActivations =
        options.int8Activations ? ext::QuantActivations::Int8
                                : ext::QuantActivations::F32;
    if (options.fuse) {
      relax::FuseOpsPipelineOptions fuseOptions;
      if (dispatch)
        fuseOptions.dispatchLibrary = relax::FuseDispatch::CPU;
      fuseOptions.quantActivations = quantActivations;
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
      hostOptions.quantActivations = quantActivations;
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
        (options.entries.empty() && !func.isPublic()) ||
        func->hasAttr(relax::kShapeFunctionOfAttr))
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

/// Whether `layout`'s leaves are the lowered function's tensors, with the
/// same ranks: then its shape function's dims are the signature's.
static bool layoutMatches(const relax::ShapeFunctionLayout &layout,
                          const EntrySignature &signature) {
  auto matches = [](ArrayRef<SymShape> shapes, ArrayRef<TensorInfo> infos) {
    if (shapes.size() != infos.size())
      return false;
    for (auto [shape, info] : llvm::zip(shapes, infos))
      if (shape.hasRank() != info.ranked ||
          (info.ranked &&
           static_cast<size_t>(shape.getRank()) != info.staticSizes.size()))
        return false;
    return true;
  };
  return matches(layout.params, signature.params) &&
         matches(layout.results, signature.results);
}

/// The metadata's description of one parameter or result: `shape` is its
/// relax shape when the entry has a shape function.
static rt::TensorSpec describeTensor(const TensorInfo &info,
                                     const SymShape *shape,
                                     const relax::ShapeFunctionLayout *layout) {
  rt::TensorSpec spec;
  spec.dtype = dtypeName(info.dtype);
  spec.ranked = info.ranked;
  spec.name = info.name;
  for (auto [d, size] : llvm::enumerate(info.staticSizes)) {
    spec.staticSizes.push_back(size == ShapedType::kDynamic ? -1 : size);
    std::string text;
    llvm::raw_string_ostream os(text);
    std::optional<SmallVector<int64_t>> symbols;
    if (shape) {
      relax::printSymDim(os, shape->getDim(d));
      symbols = layout->dimSymbols(shape->getDim(d));
    } else if (size == ShapedType::kDynamic) {
      os << "?";
    } else {
      os << size;
      symbols.emplace();
    }
    spec.dims.push_back(text);
    if (symbols)
      spec.dimSymbols.emplace_back(std::in_place, symbols->begin(),
                                   symbols->end());
    else
      spec.dimSymbols.emplace_back();
  }
  return spec;
}

rt::FunctionSpec
CompiledModule::Impl::describeEntry(const EntrySignature &signature,
                                    const relax::ShapeFunctionLayout *layout) {
  if (layout && !layoutMatches(*layout, signature))
    layout = nullptr;
  rt::FunctionSpec spec;
  spec.name = signature.name;
  for (auto [infos, shapes, out] :
       {std::make_tuple(&signature.params,
                        layout ? ArrayRef<SymShape>(layout->params)
                               : ArrayRef<SymShape>(),
                        &spec.params),
        std::make_tuple(&signature.results,
                        layout ? ArrayRef<SymShape>(layout->results)
                               : ArrayRef<SymShape>(),
                        &spec.results)})
    for (auto [i, info] : llvm::enumerate(*infos))
      out->push_back(describeTensor(info, layout ? &shapes[i] : nullptr,
                                    layout));
  if (layout) {
    for (auto [i, param] : llvm::enumerate(spec.params))
      if (layout->params[i].hasRank())
        param.relaxType = "!relax.tensor<" + layout->params[i].str() + ", " +
                          param.dtype + ">";
    for (auto [name, binding] :
         llvm::zip(layout->symbols, layout->bindings))
      spec.symbols.push_back({name, binding.first, binding.second});
    spec.shapeFunction = layout->function;
  }
  return spec;
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
  auto namesIt = relaxParamNames.find(name);
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    FailureOr<TensorInfo> info = infoFromMemRef(t);
    if (failed(info))
      return fail("parameter #" + llvm::Twine(i) + " of '" + name +
                  "' is not a tensor relax-run can pass");
    if (namesIt != relaxParamNames.end() && i < namesIt->second.size())
      info->name = namesIt->second[i];
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
  auto layoutIt = shapeLayouts.find(name);
  signature.spec = describeEntry(
      signature, layoutIt == shapeLayouts.end() ? nullptr : &layoutIt->second);
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

llvm::Expected<rt::ShapeFn>
CompiledModule::getShapeFunction(llvm::StringRef entry) {
  auto signature = getSignature(entry);
  if (!signature)
    return signature.takeError();
  const std::string &symbol = signature->spec.shapeFunction;
  if (symbol.empty())
    return nullptr;
  if (llvm::Error err = jit())
    return std::move(err);
  void *address = nullptr;
  if (impl->library) {
    address = impl->library->lookupSymbol(symbol);
  } else {
    auto found = impl->engine->lookup(symbol);
    if (!found)
      return error("no shape function '" + symbol +
                   "': " + llvm::toString(found.takeError()));
    address = *found;
  }
  if (!address)
    return error("no shape function '" + symbol + "'");
  return reinterpret_cast<rt::ShapeFn>(address);
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

