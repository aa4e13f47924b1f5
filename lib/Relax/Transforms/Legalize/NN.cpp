//===- NN.cpp - Legalization of the NN ops --------------------------===//

#include "RelaxDialect/Relax/Transforms/Legalize.h"

using namespace mlir;
using namespace mlir::relax;

void relax::addNNLegalizers(LegalizerTable &table) {}
