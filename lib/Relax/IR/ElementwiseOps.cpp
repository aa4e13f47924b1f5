//===- ElementwiseOps.cpp - shape inference of the Elementwise ops -----------------===//

#include "RelaxDialect/Relax/IR/RelaxOps.h"

using namespace mlir;
using namespace mlir::relax;
