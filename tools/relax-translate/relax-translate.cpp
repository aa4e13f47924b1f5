//===- relax-translate.cpp - The relax-mlir translation driver ------------===//
//
// mlir-translate with the upstream translations (e.g. --mlir-to-llvmir) and
// the project's own (importers and exporters) registered in one place.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect/InitAll.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::relax::registerAllTranslations();
  mlir::relax::registerVersionPrinter();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "relax-mlir translation driver"));
}
