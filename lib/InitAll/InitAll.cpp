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
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
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

bool relax::checkToolFiles(const char *tool, const std::string &input,
                           const std::string &output) {
  auto fail = [&](const char *what, const std::string &path,
                  std::error_code ec) {
    // The words of mlir::openInputFile and openOutputFile.
    llvm::errs() << tool << ": error: cannot open " << what << " file '" << path
                 << "': " << ec.message() << "\n";
    return false;
  };
  namespace fs = llvm::sys::fs;
  if (input != "-") {
    int fd;
    if (std::error_code ec = fs::openFileForRead(input, fd))
      return fail("input", input, ec);
    fs::file_t handle = fs::convertFDToNativeFile(fd);
    fs::closeFile(handle);
    if (fs::is_directory(input))
      return fail("input", input,
                  std::make_error_code(std::errc::is_a_directory));
  }
  if (output != "-") {
    llvm::StringRef dir = llvm::sys::path::parent_path(output);
    std::string folder = dir.empty() ? "." : dir.str();
    if (fs::is_directory(output))
      return fail("output", output,
                  std::make_error_code(std::errc::is_a_directory));
    if (!fs::is_directory(folder))
      return fail("output", output,
                  std::make_error_code(std::errc::no_such_file_or_directory));
    if (std::error_code ec = fs::access(fs::exists(output) ? output : folder,
                                        fs::AccessMode::Write))
      return fail("output", output, ec);
  }
  return true;
}
