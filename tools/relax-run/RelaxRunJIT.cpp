//===- RelaxRunJIT.cpp - relax-run's compiler side -------------------------===//
//
// The command line of the execution library (RelaxDialect/Execution): reads
// the options, then loads and compiles the module (or opens a library that
// relax-compile wrote), binds inputs from .npy
// files or seeded random data, calls the entry once and prints, writes and
// checks its outputs, and times further calls for --benchmark. Compiling,
// calling, the .npy format and the comparison live in the library.
//
// This is libRelaxRunJIT.so, which links LLVM and MLIR. The relax-run
// executable (relax-run.cpp) links neither: it runs a compiled library
// itself and loads this library, handing it the whole command line, only
// for everything else (a module to compile, --help, an option it does not
// take, a malformed command line), so that every option, message and exit
// status is the one cl::opt gives.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/Benchmark.h"
#include "RelaxDialect/Execution/Compare.h"
#include "RelaxDialect/Execution/CompileCLOptions.h"
#include "RelaxDialect/Execution/CompiledModule.h"
#include "RelaxDialect/Execution/Npy.h"
#include "RelaxDialect/Execution/RandomInputs.h"
#include "RelaxDialect/InitAll.h"
#include "RelaxDialect/Runtime/RelaxRuntime.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir::relax::exec;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("relax-run options");
static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<module.mlir | model.onnx "
                                                   "| model.so>"),
                                          cl::Required, cl::cat(runCategory));
static cl::opt<std::string>
    paramsFile("params",
               cl::desc("Parameter file of a library compiled by "
                        "relax-compile (default: the one next to it)"),
               cl::value_desc("path"), cl::cat(runCategory));
static cl::opt<std::string> entryName("entry", cl::desc("Function to run"),
                                      cl::init("main"), cl::cat(runCategory));
static cl::list<std::string>
    inputFiles("input", cl::desc("Input .npy file, in parameter order (a "
                                 "tuple parameter: one per leaf, depth "
                                 "first)"),
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
static cl::opt<unsigned> warmupRuns(
    "warmup",
    cl::desc("With --benchmark: untimed runs before the timed ones "
             "(default: up to 20 within one second; the runtime packs a "
             "constant weight once it has been multiplied by 1024 rows)"),
    cl::cat(runCategory));
static cl::opt<Device> deviceKind(
    "device", cl::desc("Where the function runs"), cl::init(Device::CPU),
    cl::values(clEnumValN(Device::CPU, "cpu", "the host CPU (default)"),
               clEnumValN(Device::CUDA, "cuda", "a CUDA GPU")),
    cl::cat(runCategory));
static cl::opt<bool> openmp(
    "openmp",
    cl::desc("CPU: parallel loops as OpenMP regions (libomp's team) instead "
             "of calls of the runtime's thread pool"),
    cl::cat(runCategory));
static cl::opt<bool> memoryReport(
    "memory-report",
    cl::desc("Count intermediate bytes while running and print the peak "
             "and each function's memory plan (arena formula and bytes)"),
    cl::cat(runCategory));
static cl::opt<bool> cudaGraphs(
    "cuda-graphs",
    cl::desc("With --device cuda: record each call's kernel launches and "
             "replay them as CUDA graphs when a call repeats the shapes and "
             "buffers of an earlier one (captured on first sight); prints "
             "what the runs became"),
    cl::cat(runCategory));
static cl::opt<bool> printLowered("print-lowered",
                                  cl::desc("Print the LLVM-dialect module "
                                           "before JIT compilation"),
                                  cl::cat(runCategory));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "relax-run: error: " << message << "\n";
  return 1;
}

/// Prints `err` as relax-run's error line, except for parse errors the
/// located diagnostics above already describe.
static int fail(llvm::Error err) {
  bool diagnosed = false;
  std::string message;
  llvm::handleAllErrors(
      std::move(err), [&](const DiagnosedError &) { diagnosed = true; },
      [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
  return diagnosed ? 1 : fail(message);
}

/// Parses `--dim n=7` bindings.
static std::optional<llvm::StringMap<int64_t>> parseDims() {
  llvm::StringMap<int64_t> env;
  for (const std::string &binding : dimBindings) {
    auto [name, value] = llvm::StringRef(binding).split('=');
    int64_t v;
    if (name.empty() || value.getAsInteger(10, v) || v < 0) {
      fail("--dim expects name=non-negative-integer, got '" + binding + "'");
      return std::nullopt;
    }
    env[name] = v;
  }
  return env;
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

/// relax-run's entry point for what the executable does not do itself;
/// `argv` is the command line as relax-run received it.
extern "C" __attribute__((visibility("default"))) int
relax_run_jit_main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  retainFreedMemory();
  mlir::relax::registerVersionPrinter();
  initializeExecution();
  registerCompileCLOptions(runCategory);
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "relax-run: run a function of a relax module, a TOSA module "
      "(converted by --convert-tosa-to-relax), an ONNX model or a library "
      "from relax-compile\n");
  if (std::string bad = checkTolerances({relTol, absTol}); !bad.empty())
    return fail(bad);
  CompileOptions options;
  if (llvm::Error err = applyCompileCLOptions(options))
    return fail(llvm::toString(std::move(err)));
  Device device = deviceKind;
  bool onGPU = device == Device::CUDA;
  // Fail before compiling anything when there is no GPU to run on.
  if (llvm::Error err = initDevice(device))
    return fail("--device cuda: " + llvm::toString(std::move(err)));
  std::optional<llvm::StringMap<int64_t>> dims = parseDims();
  if (!dims)
    return 1;

  options.device = device;
  options.openmp = openmp;
  options.recordMemory = memoryReport;
  options.entries = {entryName};
  if (printLowered)
    options.printLowered = &llvm::outs();
  // A library from relax-compile runs as it is; anything else is compiled
  // here (JIT).
  bool isLibrary = llvm::StringRef(inputFilename).ends_with(".so");
  if (cudaGraphs && !onGPU)
    return fail("--cuda-graphs needs --device cuda");
  if (isLibrary && (onGPU || options.fuse || printLowered || memoryReport ||
                    !options.planMemory || options.viaLinalg))
    return fail("--device cuda, --fuse, --print-lowered, --memory-report, "
                "--plan-memory and --via-linalg apply to modules compiled "
                "here, not to the library " +
                inputFilename);
  if (!isLibrary && !paramsFile.empty())
    return fail("--params goes with a library compiled by relax-compile "
                "(model.so), not with " +
                inputFilename);
  auto moduleOr = isLibrary
                      ? CompiledModule::openLibrary(inputFilename, paramsFile)
                      : CompiledModule::load(inputFilename, options);
  if (!moduleOr)
    return fail(moduleOr.takeError());
  CompiledModule &module = **moduleOr;
  auto signature = module.getSignature(entryName);
  if (!signature)
    return fail(signature.takeError());
  size_t numParams = signature->params.size();
  // A misspelled --dim would otherwise be ignored (or meet a message about
  // the variable it was meant to bind).
  if (llvm::Error err = checkDimNames(*signature, *dims))
    return fail(std::move(err));

  // Inputs: files, or random data shaped by the relax types and --dim.
  std::vector<HostTensor> inputs;
  if (!inputFiles.empty()) {
    if (inputFiles.size() != numParams)
      return fail("'" + entryName + "' takes " + llvm::Twine(numParams) +
                  " inputs, got " + llvm::Twine(inputFiles.size()) +
                  " --input files");
    for (const std::string &path : inputFiles) {
      llvm::Expected<HostTensor> t = readNpy(path);
      if (!t)
        return fail(t.takeError());
      inputs.push_back(std::move(*t));
    }
  } else if (randomInputs) {
    // Sized by the entry's shape function: compiled first.
    auto random = makeRandomInputs(module, entryName, *dims, seed);
    if (!random)
      return fail(random.takeError());
    inputs = std::move(*random);
  } else if (numParams != 0) {
    return fail("'" + entryName + "' takes " + llvm::Twine(numParams) +
                " inputs: give --input files or --random-inputs");
  }
  // Checked before the (slow) JIT compilation where the inputs are files.
  if (llvm::Error err = checkInputs(*signature, inputs))
    return fail(std::move(err));

  if (llvm::Error err = module.jit())
    return fail(std::move(err));
  std::vector<std::vector<int64_t>> inputShapes;
  for (const HostTensor &t : inputs)
    inputShapes.push_back(t.shape);
  auto call = module.prepareCall(entryName, std::move(inputs));
  if (!call)
    return fail(call.takeError());
  (*call)->setCudaGraphs(cudaGraphs);
  relax_rt_memory_reset();
  if (llvm::Error err = (*call)->run())
    return fail(std::move(err));
  if (memoryReport)
    llvm::outs() << "memory: " << relax_rt_memory_report();
  auto outputs = (*call)->readOutputs();
  if (!outputs)
    return fail(outputs.takeError());
  (*call)->releaseOutputs();
  // What the entry's shape function computes from the inputs, the outputs
  // have.
  auto shapeFn = module.getShapeFunction(entryName);
  if (!shapeFn)
    return fail(shapeFn.takeError());
  std::vector<std::vector<int64_t>> outputShapes;
  for (const HostTensor &t : *outputs)
    outputShapes.push_back(t.shape);
  if (std::optional<std::string> error = mlir::relax::rt::checkResultShapes(
          signature->spec, *shapeFn, inputShapes, outputShapes))
    return fail(*error);

  for (auto [i, t] : llvm::enumerate(*outputs))
    printSummary(i, t);

  if (!outputDir.empty()) {
    llvm::sys::fs::create_directories(outputDir);
    for (auto [i, t] : llvm::enumerate(*outputs)) {
      llvm::SmallString<256> path(outputDir);
      llvm::sys::path::append(path, "output_" + std::to_string(i) + ".npy");
      if (llvm::Error err = writeNpy(path, t))
        return fail(std::move(err));
    }
  }

  bool ok = true;
  if (!expectFiles.empty()) {
    if (expectFiles.size() != outputs->size())
      return fail("'" + entryName + "' returns " +
                  llvm::Twine(outputs->size()) + " results, got " +
                  llvm::Twine(expectFiles.size()) + " --expect files");
    CompareOptions tolerances{relTol, absTol};
    for (auto [i, path] : llvm::enumerate(expectFiles)) {
      llvm::Expected<HostTensor> expected = readNpy(path);
      if (!expected)
        return fail(expected.takeError());
      adoptDType(*expected, (*outputs)[i].dtype);
      CompareResult result =
          compareTensors((*outputs)[i], *expected, tolerances);
      if (!result.matches()) {
        llvm::errs() << "relax-run: "
                     << result.message("output #" + std::to_string(i),
                                       "the expected file")
                     << "\n";
        ok = false;
      }
    }
    if (ok)
      llvm::outs() << "relax-run: all " << outputs->size()
                   << " outputs match (rtol="
                   << llvm::format("%g", relTol.getValue())
                   << ", atol=" << llvm::format("%g", absTol.getValue())
                   << ")\n";
  }

  if (benchmarkRuns > 0) {
    auto times = timeCalls(
        **call, benchmarkRuns,
        warmupRuns.getNumOccurrences() ? std::optional<unsigned>(warmupRuns)
                                       : std::nullopt);
    if (!times)
      return fail(times.takeError());
    llvm::outs() << "benchmark: " << benchmarkRuns << " runs, min "
                 << llvm::format("%.4f", times->min()) << " ms, median "
                 << llvm::format("%.4f", times->median()) << " ms\n";
    // Kernel time alone (the calls above include device allocation and a
    // synchronisation per launch): separate runs with every launch timed.
    if (device == Device::CUDA) {
      auto kernels = timeGPUKernels(**call, benchmarkRuns);
      if (!kernels)
        return fail(kernels.takeError());
      llvm::outs() << "gpu kernels: min "
                   << llvm::format("%.4f", kernels->min()) << " ms, median "
                   << llvm::format("%.4f", kernels->median())
                   << " ms per call (" << gpuDeviceName() << ")\n";
    }
  }
  if (cudaGraphs)
    llvm::outs() << cudaGraphSummary() << "\n";
  return ok ? 0 : 1;
}
