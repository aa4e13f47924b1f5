//===- Manipulation.cpp - Legalization of the Manipulation ops --------------------------===//

#include "RelaxDialect/Relax/Transforms/Legalize.h"

using namespace mlir;
using namespace mlir::relax;

void relax::addManipulationLegalizers(LegalizerTable &table) {}
