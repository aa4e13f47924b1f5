//===- CompiledModuleImpl.h - The state behind a CompiledModule -*- C++ -*-===//
//
// CompiledModule's private state, shared by the files that implement it:
// CompiledModule.cpp (parsing and importing, the relax pipeline, the JIT),
// Call.cpp (one call: inputs bound, device memory, outputs read) and
// Library.cpp (libraries compiled ahead of time: export, link, open).
//
//===----------------------------------------------------------------------===//
#ifndef LIB_EXECUTION_COMPILEDMODULEIMPL_H
#define LIB_EXECUTION_COMPILEDMODULEIMPL_H

#include "RelaxDialect/Execution/CompiledModule.h"
#include "RelaxDialect/Pipelines/Pipelines.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/Relax/Transforms/ShapeFunctions.h"
#include "RelaxDialect/Runtime/ModuleLoader.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"
#ifdef RELAX_RUNTIME_HAS_CUDA
#include "RelaxDialect/Runtime/RelaxCUDA.h"
#endif

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"

#include <functional>
#include <memory>

namespace mlir {
namespace relax {
namespace exec {
namespace detail {

inline llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Where the relax runtime's error slot holds a message, that message.
inline llvm::Error runtimeError(const llvm::Twine &prefix) {
  return error(prefix + relax_rt_last_error());
}

} // namespace detail

struct CompiledModule::Impl {
  CompileOptions options;
  std::string bufferName;
  DialectRegistry registry;
  std::unique_ptr<MLIRContext> context;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  OwningOpRef<ModuleOp> module;
  relax::LowerToGPUOptions gpuOptions;
  /// The names (`relax.name`) of each relax entry's parameter leaves and
  /// the layout of its shape function (--relax-emit-shape-functions), read
  /// before the relax pipeline erases the relax types.
  llvm::StringMap<SmallVector<std::string>> relaxParamNames;
  llvm::StringMap<relax::ShapeFunctionLayout> shapeLayouts;
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
  /// The metadata's description of an entry whose relax function had
  /// `layout` (null: not a relax function).
  static rt::FunctionSpec
  describeEntry(const EntrySignature &signature,
                const relax::ShapeFunctionLayout *layout);
  ~Impl() {
    // Packed GEMM weights are keyed by the addresses of this module's
    // constants, which the next module may reuse.
    if (engine)
      relax_rt_blas_release_constants();
#ifdef RELAX_RUNTIME_HAS_CUDA
    // Device copies of this module's constants are keyed by their host
    // addresses, which the next module may reuse.
    // Device arenas are keyed by this module's globals likewise.
    if (options.device == Device::CUDA && engine) {
      relax_rt_cuda_release_constants();
      relax_rt_cuda_release_workspaces();
      // CUDA graphs launch this module's kernels.
      relax_rt_cuda_graphs_release();
    }
#endif
  }
};


} // namespace exec
} // namespace relax
} // namespace mlir

#endif // LIB_EXECUTION_COMPILEDMODULEIMPL_H
