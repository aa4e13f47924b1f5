//===- relax-opt.cpp - The relax-mlir optimizer driver --------------------===//
//
// mlir-opt with the relax, tir and extern dialects and the project's passes
// and pipelines (e.g. `relax-opt --relax-fuse-ops --lower-to-gpu`), plus the
// test-only passes of test/lib when built with RELAX_INCLUDE_TESTS.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#ifdef RELAX_INCLUDE_TESTS
#include "TIR/TestPasses.h"
#endif

int main(int argc, char **argv) {
  mlir::relax::registerAllPasses();
#ifdef RELAX_INCLUDE_TESTS
  mlir::relax::test::registerTestTIRPasses();
#endif
  mlir::relax::registerVersionPrinter();
  mlir::DialectRegistry registry;
  mlir::relax::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "relax-mlir optimizer driver\n", registry));
}
