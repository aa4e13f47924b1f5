//===- Library.cpp - Libraries compiled ahead of time ---------------------===//
//
// CompiledModule::exportLibrary (the shared library relax-compile writes:
// code, packed entry points, a JSON self-description, linked by the C
// compiler driver, and its parameter file) and CompiledModule::openLibrary
// (one such library run through the same interface as a JIT-compiled
// module).
//
//===----------------------------------------------------------------------===//

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
using mlir::relax::exec::detail::error;
using mlir::relax::exec::detail::runtimeError;
namespace rt = mlir::relax::rt;

//===----------------------------------------------------------------------===//
// Libraries compiled ahead of time
//===----------------------------------------------------------------------===//

/// A parameter or result as the metadata describes it; the description
/// itself stays in EntrySignature::spec.
static llvm::Expected<TensorInfo> fromSpec(const rt::TensorSpec &spec) {
  std::optional<DType> dtype = dtypeFromName(spec.dtype);
  if (!dtype)
    return error("unknown dtype '" + spec.dtype + "'");
  TensorInfo info;
  info.dtype = *dtype;
  info.ranked = spec.ranked;
  info.name = spec.name;
  for (int64_t size : spec.staticSizes)
    info.staticSizes.push_back(size < 0 ? ShapedType::kDynamic : size);
  return info;
}

llvm::Expected<std::unique_ptr<CompiledModule>>
CompiledModule::openLibrary(llvm::StringRef path, llvm::StringRef paramsPath) {
  initializeExecution();
  auto impl = std::make_unique<Impl>();
  impl->bufferName = path.str();
  auto library = rt::Library::open(path.str(), paramsPath.str());
  if (!library)
    return error(library.message());
  for (const rt::FunctionSpec &f : (*library)->getMetadata().functions) {
    EntrySignature signature;
    signature.name = f.name;
    signature.spec = f;
    for (auto [specs, infos] : {std::make_pair(&f.params, &signature.params),
                                std::make_pair(&f.results, &signature.results)})
      for (const rt::TensorSpec &spec : *specs) {
        auto info = fromSpec(spec);
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
    metadata.functions.push_back(it->second.spec);
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
