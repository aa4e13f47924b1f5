//===- relax-run.cpp - Run a function of a relax module -------------------===//
//
// Command-line runner: compiles a relax module for the CPU (or takes an
// already lowered one), binds inputs from .npy files or seeded random data,
// runs the entry function and writes/compares the outputs.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("relax-run options");
static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<module.mlir>"),
                                          cl::Required, cl::cat(runCategory));
static cl::opt<std::string> entry("entry", cl::desc("Function to run"),
                                  cl::init("main"), cl::cat(runCategory));
static cl::list<std::string>
    inputs("input", cl::desc("Input .npy file, in parameter order"),
           cl::cat(runCategory));
static cl::opt<bool> randomInputs("random-inputs",
                                  cl::desc("Fill inputs with seeded random "
                                           "data"),
                                  cl::cat(runCategory));
static cl::opt<unsigned> seed("seed", cl::desc("Seed for --random-inputs"),
                              cl::init(0), cl::cat(runCategory));
static cl::list<std::string>
    dims("dim", cl::desc("Value of a symbolic variable for random inputs, "
                         "e.g. --dim n=7"),
         cl::cat(runCategory));
static cl::opt<std::string> outputDir("output-dir",
                                      cl::desc("Write outputs as .npy here"),
                                      cl::cat(runCategory));
static cl::list<std::string>
    expects("expect", cl::desc("Expected output .npy, in result order"),
            cl::cat(runCategory));
static cl::opt<double> relTol("rtol", cl::desc("Relative tolerance"),
                            cl::init(1e-5), cl::cat(runCategory));
static cl::opt<double> absTol("atol", cl::desc("Absolute tolerance"),
                            cl::init(1e-6), cl::cat(runCategory));
static cl::opt<unsigned> benchmark("benchmark",
                                   cl::desc("Time N runs after warm-up"),
                                   cl::init(0), cl::cat(runCategory));
static cl::opt<std::string> device("device",
                                   cl::desc("cpu (default) or cuda"),
                                   cl::init("cpu"), cl::cat(runCategory));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  relax::registerVersionPrinter();
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(argc, argv,
                              "relax-run: run a function of a relax module\n");

  DialectRegistry registry;
  relax::registerAllDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  std::string error;
  auto file = openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << "relax-run: " << error << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  if (!SymbolTable::lookupSymbolIn(*module, entry)) {
    llvm::errs() << "relax-run: no function '" << entry << "' in "
                 << inputFilename << "\n";
    return 1;
  }
  llvm::errs() << "relax-run: parsed and verified '" << entry
               << "'; execution is not available yet (the CPU code "
                  "generation path is still being built)\n";
  return 2;
}
