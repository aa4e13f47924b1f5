//===- relax-compile.cpp - Compile a relax module into a library ----------===//
//
// Runs the CPU pipeline of relax-run on a relax module (MLIR text) or an
// ONNX model, then writes a shared library holding the code and a parameter
// file holding its large constants, to be opened with the C API of
// RelaxDialect/Runtime/RelaxModule.h or run with `relax-run model.so`. The
// work is CompiledModule::exportLibrary (lib/Execution); see
// docs/compile.md.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Execution/CompileCLOptions.h"
#include "RelaxDialect/Execution/CompiledModule.h"
#include "RelaxDialect/InitAll.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace mlir::relax::exec;
namespace cl = llvm::cl;

static cl::OptionCategory compileCategory("relax-compile options");
static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<model.mlir | model.onnx>"),
                                          cl::Required,
                                          cl::cat(compileCategory));
static cl::opt<std::string> outputFilename("o",
                                           cl::desc("The library to write "
                                                    "(model.so)"),
                                           cl::value_desc("path"), cl::Required,
                                           cl::cat(compileCategory));
static cl::opt<std::string>
    paramsFilename("params",
                   cl::desc("The parameter file to write (default: the "
                            "library's path with the extension .params)"),
                   cl::value_desc("path"), cl::cat(compileCategory));
static cl::list<std::string>
    entryNames("entry",
               cl::desc("A function to export (repeatable; default: every "
                        "public function)"),
               cl::cat(compileCategory));
static cl::opt<std::string>
    linkerName("linker",
               cl::desc("C compiler driver that links the library "
                        "(default: cc, gcc or clang on PATH)"),
               cl::cat(compileCategory));
static cl::opt<std::string> objectFilename("object",
                                           cl::desc("Also keep the object "
                                                    "file here"),
                                           cl::value_desc("path"),
                                           cl::cat(compileCategory));

static cl::opt<std::string>
    targetCPU("mcpu",
              cl::desc("CPU to compile for, with its features only (x86-64, "
                       "x86-64-v3, ...; default: the host CPU)"),
              cl::cat(compileCategory));
static cl::opt<unsigned> optLevel("O",
                                  cl::desc("LLVM optimisation level, 0-3 "
                                           "(default 2)"),
                                  cl::Prefix, cl::init(2),
                                  cl::cat(compileCategory));
static cl::opt<bool> printTimings("time",
                                  cl::desc("Print the wall time of each "
                                           "step"),
                                  cl::cat(compileCategory));

static int fail(llvm::Error err) {
  bool diagnosed = false;
  std::string message;
  llvm::handleAllErrors(
      std::move(err), [&](const DiagnosedError &) { diagnosed = true; },
      [&](const llvm::ErrorInfoBase &e) { message = e.message(); });
  if (!diagnosed)
    llvm::errs() << "relax-compile: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  mlir::relax::registerVersionPrinter();
  initializeExecution();
  registerCompileCLOptions(compileCategory);
  cl::HideUnrelatedOptions(compileCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "relax-compile: compile a relax module or ONNX model into a shared "
      "library and a parameter file\n");

  CompileOptions options;
  if (llvm::Error err = applyCompileCLOptions(options))
    return fail(std::move(err));
  options.entries = entryNames;
  auto start = std::chrono::steady_clock::now();
  auto module = CompiledModule::load(inputFilename, options);
  if (!module)
    return fail(module.takeError());
  std::vector<std::pair<std::string, double>> timings;
  timings.emplace_back(
      "parse or import, relax pipeline",
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count());
  LibraryOptions library;
  library.outputPath = outputFilename;
  library.paramsPath = paramsFilename;
  library.linker = linkerName;
  library.objectPath = objectFilename;
  library.timings = &timings;
  library.optLevel = optLevel;
  library.cpu = targetCPU;
  if (llvm::Error err = (*module)->exportLibrary(library))
    return fail(std::move(err));
  if (printTimings) {
    double total = 0;
    for (auto &[step, seconds] : timings) {
      llvm::outs() << llvm::format("%8.3f s  ", seconds) << step << "\n";
      total += seconds;
    }
    llvm::outs() << llvm::format("%8.3f s  ", total) << "total\n";
  }
  return 0;
}
