//===- InitProject.cpp - Register the project's own dialects and passes ---===//
//
// Kept apart from InitAll.cpp so that embedders (a downstream opt tool, the
// mlir-opt plugin, the C API) can register the project without pulling in
// the ONNX importer and its protobuf dependency, or registering upstream
// passes a second time.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"

#include "RelaxDialect/Conversion/Passes.h"
#include "RelaxDialect/Extern/IR/ExternDialect.h"
#include "RelaxDialect/Pipelines/Pipelines.h"
#include "RelaxDialect/Relax/IR/RelaxDialect.h"
#include "RelaxDialect/Relax/Transforms/Passes.h"
#include "RelaxDialect/TIR/IR/TIRDialect.h"
#include "RelaxDialect/TIR/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

#include <mutex>

using namespace mlir;

void relax::registerRelaxProjectDialects(DialectRegistry &registry) {
  registry.insert<relax::RelaxDialect, tir::TIRDialect, ext::ExternDialect>();
}

void relax::registerRelaxProjectPasses() {
  // Once per process: the pass registry rejects a pipeline registered twice,
  // and an embedder may reach this through several doors (the plugin loaded
  // as dialect and pass plugin, the C API called again).
  static std::once_flag once;
  std::call_once(once, [] {
    relax::registerRelaxPasses();
    relax::registerRelaxConversionPasses();
    relax::registerRelaxPipelines();
    tir::registerTIRPasses();
  });
}
