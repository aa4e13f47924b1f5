//===- ManipulationOps.cpp - shape inference of the Manipulation ops -----------------===//

#include "RelaxDialect/Relax/IR/RelaxOps.h"

using namespace mlir;
using namespace mlir::relax;
