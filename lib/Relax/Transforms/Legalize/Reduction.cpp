//===- Reduction.cpp - Legalization of the Reduction ops --------------------------===//

#include "RelaxDialect/Relax/Transforms/Legalize.h"

using namespace mlir;
using namespace mlir::relax;

void relax::addReductionLegalizers(LegalizerTable &table) {}
