//===- LinearAlgebraOps.cpp - shape inference of the LinearAlgebra ops -----------------===//

#include "RelaxDialect/Relax/IR/RelaxOps.h"

using namespace mlir;
using namespace mlir::relax;
