//===- CreationOps.cpp - shape inference of the Creation ops -----------------===//

#include "RelaxDialect/Relax/IR/RelaxOps.h"

using namespace mlir;
using namespace mlir::relax;
