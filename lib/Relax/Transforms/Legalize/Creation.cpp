//===- Creation.cpp - Legalization of the Creation ops --------------------------===//

#include "RelaxDialect/Relax/Transforms/Legalize.h"

using namespace mlir;
using namespace mlir::relax;

void relax::addCreationLegalizers(LegalizerTable &table) {}
