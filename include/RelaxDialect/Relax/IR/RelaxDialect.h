//===- RelaxDialect.h - relax dialect, types and attributes -----*- C++ -*-===//
//
// Declares the relax dialect and its symbolic-shape types and attributes.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_IR_RELAXDIALECT_H
#define RELAXDIALECT_RELAX_IR_RELAXDIALECT_H

#include "RelaxDialect/Support/SymShape.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "RelaxDialect/Relax/IR/RelaxOpsDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "RelaxDialect/Relax/IR/RelaxOpsTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "RelaxDialect/Relax/IR/RelaxAttrs.h.inc"

namespace mlir {
namespace relax {
/// True for the dtypes relax tensors may hold: f16, bf16, f32, f64, i1, the
/// signless integers i8, i16, i32, i64 and the unsigned ui8, ui16, ui32, ui64.
bool isValidDtype(Type type);
} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_RELAX_IR_RELAXDIALECT_H
