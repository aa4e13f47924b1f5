//===- Passes.cpp - C API of the relax-mlir passes and pipelines ----------===//
//
// A C program runs the project's pipelines by name through MLIR's own pass
// manager C API once they are in the global registry.
//
//===----------------------------------------------------------------------===//

#include "RelaxDialect-c/Passes.h"

#include "RelaxDialect/InitAll.h"

void mlirRelaxRegisterPasses(void) {
  mlir::relax::registerRelaxProjectPasses();
}
