//===- OpHelpers.cpp - Helpers shared by the relax op definitions ---------===//
//
// See OpHelpers.h.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::relax;

std::string relax::typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

std::string relax::formatDouble(double value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::format("%g", value);
  return text;
}

LogicalResult relax::checkValidDtype(std::optional<Location> loc,
                                     StringRef opName, Type dtype,
                                     StringRef what) {
  if (isValidDtype(dtype))
    return success();
  return inferFailure(loc, opName,
                      "unsupported " + what + " '" + typeText(dtype) + "'");
}

OpFoldResult relax::foldSameTypeToInput(Value input, Type resultType) {
  if (input.getType() == resultType)
    return input;
  return {};
}
