//===- onnx-import-fuzzer.cpp - libFuzzer target for the ONNX importer ----===//
//
// Feeds arbitrary bytes (seeded with real models and mutated by libFuzzer) to
// importONNXModel. Any outcome but a crash, a sanitizer report or a hang is
// fine: a malformed model must end in a diagnostic, and an accepted one must
// verify. Built only with -DRELAX_BUILD_FUZZERS=ON and clang; run it with
// scripts/fuzz-onnx.sh.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Target/ONNX/ONNXImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // One context for the whole run: creating one per input would dominate
  // the time. Threading is off so every input runs the same code path.
  static mlir::MLIRContext *context = [] {
    auto *ctx = new mlir::MLIRContext(mlir::MLIRContext::Threading::DISABLED);
    ctx->loadDialect<mlir::relax::RelaxDialect>();
    // Diagnostics are expected for most inputs: drop them.
    ctx->getDiagEngine().registerHandler([](mlir::Diagnostic &) {});
    return ctx;
  }();
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::relax::importONNXModel(bytes, "fuzz.onnx", context);
  // The importer verifies what it returns; a module that does not verify
  // here is a bug.
  if (module && mlir::failed(mlir::verify(*module)))
    abort();
  return 0;
}
