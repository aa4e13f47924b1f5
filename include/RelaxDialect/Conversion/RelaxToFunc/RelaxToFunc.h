//===- RelaxToFunc.h - relax functions to host func.func --------*- C++ -*-===//
//
// `--relax-lower-shapes`: relax functions become func.func over memrefs whose
// symbolic dims are index values bound and checked at run time.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_RELAXTOFUNC_RELAXTOFUNC_H
#define RELAXDIALECT_CONVERSION_RELAXTOFUNC_RELAXTOFUNC_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_RELAXLOWERSHAPES
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_RELAXTOFUNC_RELAXTOFUNC_H
