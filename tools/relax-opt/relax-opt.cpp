//===- relax-opt.cpp - The relax-mlir optimizer driver --------------------===//
//
// mlir-opt with the relax, tir and extern dialects and the project's passes
// and pipelines (e.g. `relax-opt --relax-fuse-ops --lower-to-gpu`).
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::relax::registerAllPasses();
  mlir::relax::registerVersionPrinter();
  mlir::DialectRegistry registry;
  mlir::relax::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "relax-mlir optimizer driver\n", registry));
}
