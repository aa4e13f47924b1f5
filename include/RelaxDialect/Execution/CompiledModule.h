//===- CompiledModule.h - Compile once, call often -------------*- C++ -*-===//
//
// A relax module (or an already lowered func/memref one) parsed, lowered
// and JIT-compiled once, whose entries are then called any number of times
// with host tensors:
//
//   CompileOptions options;
//   auto module = CompiledModule::compileFile("model.mlir", options);
//   auto outputs = (*module)->invoke("main", {x, y});
//
// Compilation runs in two steps so a caller can read an entry's signature
// (dtypes, static sizes, symbolic dims) before paying for the JIT:
// `load` parses and runs the relax pipeline, `jit` lowers to the LLVM
// dialect and builds the machine code. Entries are called through their C
// interface (`_mlir_ciface_<entry>`) with memref descriptors built here, so
// any rank and any number of results work without generated glue. On
// `Device::CUDA` inputs are copied to device buffers and results back.
//
// The same class compiles ahead of time (exportLibrary: a shared library
// plus a parameter file, what relax-compile writes) and opens such a
// library again (openLibrary); calls then go through the same packed
// calling convention (RelaxDialect/Runtime/ModuleLoader.h) as JIT calls.
//
// Every failure is an llvm::Error whose message is one line for the user.
// Parse and pass failures are first reported as located diagnostics on
// stderr; a parse failure, which they describe entirely, is a DiagnosedError.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXECUTION_COMPILEDMODULE_H
#define RELAXDIALECT_EXECUTION_COMPILEDMODULE_H

#include "RelaxDialect/Execution/HostTensor.h"
#include "RelaxDialect/Runtime/ShapeFunction.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::relax::exec {

enum class Device { CPU, CUDA };

/// Registers what compiling needs once per process: every pass (the built-in
/// pipelines are parsed from text) and the native target. Idempotent; `load`
/// calls it, tools may call it before parsing their options.
void initializeExecution();

/// Keeps freed blocks in the malloc heap instead of returning large ones to
/// the OS, so repeated calls of a compiled entry (which allocates outputs and
/// intermediates with malloc) reuse pages without faulting them in again.
/// Process-wide; an application that calls entries in a loop wants it.
void retainFreedMemory();

/// Prepares `device`: for CUDA, starts the driver and fails with the reason
/// (no driver, no GPU, a build without the CUDA runtime) before anything is
/// compiled. Nothing to do for the CPU.
llvm::Error initDevice(Device device);

/// The runtime library next to the running executable
/// (<prefix>/bin/tool -> <prefix>/lib/libRelaxRuntime.so).
std::string defaultRuntimeLibraryPath();

struct CompileOptions {
  Device device = Device::CPU;
  /// Run the fusion pipeline (--relax-fuse-ops, default group size) first.
  bool fuse = false;
  /// Offload matmul and linear to the CPU BLAS (relax-dispatch-library)
  /// before legalization and fusion. CPU only: the GPU pipeline keeps its
  /// compiled matmuls.
  bool dispatchLibrary = true;
  /// The linalg route (--relax-lower-to-cpu / -gpu via-linalg=true):
  /// affine tir nests through linalg and upstream loop lowering.
  bool viaLinalg = false;
  /// Estimated operations below which a parallel loop runs on the calling
  /// thread (--relax-lower-to-cpu's min-parallel-work); 0 always forks.
  int64_t minParallelWork = 32768;
  /// CPU: f32 exp, expm1, erf and tanh as vectorizable polynomial
  /// approximations (the CPU pipeline's approximate-math option).
  bool approximateMath = true;
  /// CPU: products with 4-bit weights quantize 1 to 4 rows of X to int8
  /// (relax-dispatch-library's quant-activations=int8).
  bool int8Activations = false;
  /// CPU: parallel loops as OpenMP regions (the CPU pipeline's openmp
  /// option) instead of calls of the runtime's thread pool.
  bool openmp = false;
  /// Plan intermediates into one arena per function (relax-plan-memory) and
  /// free the others after their last use; false: every output is its own
  /// allocation, freed at return.
  bool planMemory = true;
  /// CPU, with planMemory: a fused convolution's output written over a
  /// residual that dies at its call (relax-plan-memory's in-place).
  bool planInPlace = true;
  /// Count intermediate bytes in the runtime (relax_rt_memory_report).
  bool recordMemory = false;
  /// The functions to call (each gets a C interface wrapper); empty means
  /// every public function. The relax pipeline runs when one of them (any
  /// function when empty) is a relax function.
  std::vector<std::string> entries;
  /// Prints the LLVM-dialect module here before JIT compilation.
  llvm::raw_ostream *printLowered = nullptr;
  /// The relax runtime the compiled code calls; empty:
  /// defaultRuntimeLibraryPath().
  std::string runtimeLibraryPath;
  /// On the CPU, constants of at least this many bytes become parameters
  /// (relax::externalizeParams): the JIT copies them into their globals
  /// after compiling, exportLibrary writes them to the parameter file.
  /// Compile time then no longer grows with the weights. 0 keeps every
  /// constant in the code.
  uint64_t paramMinBytes = 1024;
};

/// Where and how exportLibrary writes a compiled library.
struct LibraryOptions {
  /// The shared library to write (model.so).
  std::string outputPath;
  /// Its parameter file; empty: outputPath with the extension .params.
  std::string paramsPath;
  /// The C compiler driver that links the object (cc, gcc, clang); empty:
  /// the first of cc, gcc, clang on PATH.
  std::string linker;
  /// Also keep the object file here (empty: a temporary file).
  std::string objectPath;
  /// The CPU to generate code for (an LLVM CPU name: x86-64, x86-64-v3,
  /// skylake-avx512, ...) with exactly that CPU's features; empty: the host
  /// CPU and all its features, as the JIT.
  std::string cpu;
  /// LLVM optimisation level of the IR (0-3). O2 is the default: O3's
  /// extra unrolling made code generation 3-4x slower on the BERT encoder
  /// for no measured speed-up (docs/perf.md).
  unsigned optLevel = 2;
  /// When set, receives the wall time of each step, in order, as
  /// (step, seconds).
  std::vector<std::pair<std::string, double>> *timings = nullptr;
};

/// One parameter or result of an entry.
struct TensorInfo {
  DType dtype = DType::F32;
  /// Static sizes, ShapedType::kDynamic where unknown at compile time.
  llvm::SmallVector<int64_t> staticSizes;
  /// false: memref<*xT>, any rank (parameters only).
  bool ranked = true;
  /// The `relax.name` of a parameter of a relax function ("" when none):
  /// lets a caller bind inputs by name (weights from a safetensors file).
  std::string name;
};

struct EntrySignature {
  std::string name;
  llvm::SmallVector<TensorInfo> params, results;
  /// The same as the module metadata describes it (ModuleLoader.h): each
  /// dim's text and symbols, the entry's symbols and the symbol of its
  /// shape function (ShapeFunction.h; "" unless a relax function).
  rt::FunctionSpec spec;
};

/// Checks `inputs` against the parameters of `signature` (count, dtype,
/// rank, static dims), first taking ui16 tensors as bf16 where a bf16 is
/// expected (numpy has no bfloat16).
llvm::Error checkInputs(const EntrySignature &signature,
                        llvm::MutableArrayRef<HostTensor> inputs);

/// The error of a failure the located diagnostics already describe entirely
/// (a parse error): a tool need not print anything more.
class DiagnosedError : public llvm::ErrorInfo<DiagnosedError> {
public:
  static char ID;
  explicit DiagnosedError(std::string message) : message(std::move(message)) {}
  void log(llvm::raw_ostream &os) const override;
  std::error_code convertToErrorCode() const override;

private:
  std::string message;
};

class Call;

class CompiledModule {
public:
  /// Parses `path` and runs the relax pipeline. Diagnostics go to stderr.
  static llvm::Expected<std::unique_ptr<CompiledModule>>
  load(llvm::StringRef path, const CompileOptions &options);
  /// The same from text; `bufferName` names it in diagnostics.
  static llvm::Expected<std::unique_ptr<CompiledModule>>
  loadSource(llvm::StringRef source, llvm::StringRef bufferName,
             const CompileOptions &options);
  /// load + jit.
  static llvm::Expected<std::unique_ptr<CompiledModule>>
  compileFile(llvm::StringRef path, const CompileOptions &options);
  static llvm::Expected<std::unique_ptr<CompiledModule>>
  compileSource(llvm::StringRef source, llvm::StringRef bufferName,
                const CompileOptions &options);
  /// Opens a library written by exportLibrary (relax-compile) with its
  /// parameter file (empty: the one written next to it). The result is
  /// already compiled: getSignature, prepareCall and invoke work as after
  /// jit(). CPU only.
  static llvm::Expected<std::unique_ptr<CompiledModule>>
  openLibrary(llvm::StringRef path, llvm::StringRef paramsPath);

  ~CompiledModule();
  CompiledModule(const CompiledModule &) = delete;
  CompiledModule &operator=(const CompiledModule &) = delete;

  /// The signature of `entry`; an error when there is no such function or a
  /// parameter or result cannot be passed as a tensor.
  llvm::Expected<const EntrySignature &> getSignature(llvm::StringRef entry);

  /// The shape function of `entry` (null when it has none: an entry that is
  /// not a relax function), JIT-compiling first if needed.
  llvm::Expected<rt::ShapeFn> getShapeFunction(llvm::StringRef entry);

  /// Lowers to the LLVM dialect and JIT-compiles; does nothing the second
  /// time.
  llvm::Error jit();
  bool isCompiled() const;
  Device getDevice() const;

  /// Compiles ahead of time, instead of jit(): lowers to LLVM IR, adds the
  /// packed entry points and the metadata of RelaxModule.h, emits an object
  /// for the host CPU, links it into a shared library against the relax
  /// runtime and writes the parameter file. The module is consumed: it can
  /// be neither JIT-compiled nor exported again. CPU only.
  llvm::Error exportLibrary(const LibraryOptions &options);

  /// Binds `inputs` to `entry` for one or more calls (JIT-compiles first if
  /// needed). The inputs are checked (checkInputs) and, on the GPU, copied
  /// to the device once.
  llvm::Expected<std::unique_ptr<Call>>
  prepareCall(llvm::StringRef entry, std::vector<HostTensor> inputs);

  /// One call: prepare, run, read the outputs, free them.
  llvm::Expected<std::vector<HostTensor>>
  invoke(llvm::StringRef entry, std::vector<HostTensor> inputs);

private:
  struct Impl;
  explicit CompiledModule(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
  friend class Call;
};

/// An entry bound to its inputs. Each run() calls the compiled code once;
/// the outputs of a run live until releaseOutputs(), the next run() or the
/// end of the Call.
class Call {
public:
  ~Call();
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;

  /// Calls the entry. A failure carries the runtime's message (a shape
  /// check naming the function, argument and dims, a CUDA error, ...).
  llvm::Error run();
  /// Copies the outputs of the last successful run to the host.
  llvm::Expected<std::vector<HostTensor>> readOutputs();
  /// Frees the outputs of the last run (not inputs, globals or duplicates).
  void releaseOutputs();
  /// Device::CUDA: run() records each call's kernel launches and replays
  /// them as CUDA graphs at repeated shapes and buffers
  /// (relax_rt_cuda_graphs_begin, RelaxCUDA.h; docs/gpu.md). Off by default;
  /// no effect on the CPU or without graph support in the driver.
  void setCudaGraphs(bool on);

  const EntrySignature &getSignature() const;
  Device getDevice() const;

private:
  struct Impl;
  explicit Call(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
  friend class CompiledModule;
};

} // namespace mlir::relax::exec

#endif // RELAXDIALECT_EXECUTION_COMPILEDMODULE_H
