//===- relax-opt.cpp - The relax-mlir optimizer driver --------------------===//
//
// mlir-opt with the relax, tir and extern dialects and the project's passes
// and pipelines (e.g. `relax-opt --relax-fuse-ops --lower-to-gpu`), plus the
// test-only passes of test/lib when built with RELAX_INCLUDE_TESTS. The
// input and output are checked here first, so that their errors carry the
// `relax-opt: error: ` prefix of every relax-mlir tool.
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
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "relax-mlir optimizer driver\n", registry);
  if (!mlir::relax::checkToolFiles("relax-opt", input, output))
    return 1;
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, input, output, registry));
}
