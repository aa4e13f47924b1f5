//===- NNOps.cpp - shape inference of the NN ops -----------------===//

#include "RelaxDialect/Relax/IR/RelaxOps.h"

using namespace mlir;
using namespace mlir::relax;
