//===- InitAll.cpp - Register everything relax-mlir tools use -------------===//
//
// Kept out of line so that the heavy upstream registration headers are
// compiled once, not once per tool.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"

#ifdef RELAX_HAVE_ONNX
#include "RelaxDialect/Target/ONNX/ONNXImporter.h"
#endif
#include "RelaxDialect/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

void relax::registerAllDialects(DialectRegistry &registry) {
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // GPU serialisation needs the LLVM IR translation interfaces of every
  // dialect that may appear inside a gpu.module.
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  registerRelaxProjectDialects(registry);
}

void relax::registerAllPasses() {
  mlir::registerAllPasses();
  registerRelaxProjectPasses();
}

void relax::registerAllTranslations() {
  mlir::registerAllTranslations();
#ifdef RELAX_HAVE_ONNX
  relax::registerONNXImportTranslation();
#endif
}

void relax::registerVersionPrinter() {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "relax-mlir version " RELAX_MLIR_VERSION_STRING
          " (MLIR " RELAX_MLIR_LLVM_VERSION_STRING ")\n";
  });
}
