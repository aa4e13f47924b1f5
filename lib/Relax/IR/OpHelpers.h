//===- OpHelpers.h - Helpers shared by the relax op definitions -*- C++ -*-===//
//
// Internal to MLIRRelaxIR: the small pieces the per-category op files
// (CreationOps.cpp, ElementwiseOps.cpp, ...) all need for their diagnostics
// and folders, defined once in OpHelpers.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_LIB_RELAX_IR_OPHELPERS_H
#define RELAX_LIB_RELAX_IR_OPHELPERS_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"

#include <string>

namespace mlir {
namespace relax {

/// The textual form of a type, for error messages built as Twines.
std::string typeText(Type type);

/// Shortest readable form of an attribute value (`0.5`, `6`).
std::string formatDouble(double value);

/// Fails with "unsupported <what> '<dtype>'" unless `dtype` is a relax
/// dtype; `what` names the attribute ("dtype", "out_dtype", ...).
LogicalResult checkValidDtype(std::optional<Location> loc, StringRef opName,
                              Type dtype, StringRef what);

/// The folder of an op that is the identity whenever its result type equals
/// its input's (astype to the same dtype, flatten of a 1-D tensor).
OpFoldResult foldSameTypeToInput(Value input, Type resultType);

} // namespace relax
} // namespace mlir

#endif // RELAX_LIB_RELAX_IR_OPHELPERS_H
