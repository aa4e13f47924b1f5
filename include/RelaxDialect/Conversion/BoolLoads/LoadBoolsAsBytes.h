//===- LoadBoolsAsBytes.h - Bool loads that test the whole byte -*- C++ -*-===//
//
// Every llvm.load of i1 (or a vector of i1) becomes a load of the byte(s)
// and a comparison with zero, so that a bool tensor byte other than 0/1
// (from a user's buffer or a .npy file) reads as true, as numpy and ONNX
// take it.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_CONVERSION_BOOLLOADS_LOADBOOLSASBYTES_H
#define RELAXDIALECT_CONVERSION_BOOLLOADS_LOADBOOLSASBYTES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace relax {

#define GEN_PASS_DECL_LOADBOOLSASBYTES
#include "RelaxDialect/Conversion/Passes.h.inc"

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_CONVERSION_BOOLLOADS_LOADBOOLSASBYTES_H
