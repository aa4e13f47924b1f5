//===- LinearAlgebra.cpp - Legalization of the LinearAlgebra ops --------------------------===//

#include "RelaxDialect/Relax/Transforms/Legalize.h"

using namespace mlir;
using namespace mlir::relax;

void relax::addLinearAlgebraLegalizers(LegalizerTable &table) {}
