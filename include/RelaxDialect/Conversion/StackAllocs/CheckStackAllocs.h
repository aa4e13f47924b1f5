//===- CheckStackAllocs.h - Bounded stack allocations -----------*- C++ -*-===//
#ifndef RELAXDIALECT_CONVERSION_STACKALLOCS_CHECKSTACKALLOCS_H
#define RELAXDIALECT_CONVERSION_STACKALLOCS_CHECKSTACKALLOCS_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_RELAXCHECKSTACKALLOCS
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_STACKALLOCS_CHECKSTACKALLOCS_H
