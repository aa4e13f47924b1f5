//===- ReductionOps.cpp - shape inference of the Reduction ops -----------------===//

#include "RelaxDialect/Relax/IR/RelaxOps.h"

using namespace mlir;
using namespace mlir::relax;
