//===- TIRDialect.cpp - tir dialect, types and attributes -----------------===//

#include "RelaxDialect/TIR/IR/TIRDialect.h"
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h"
#include "RelaxDialect/TIR/IR/TIRVectorOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tir;

#include "RelaxDialect/TIR/IR/TIREnums.cpp.inc"
#include "RelaxDialect/TIR/IR/TIROpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "RelaxDialect/TIR/IR/TIROpsTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "RelaxDialect/TIR/IR/TIRAttrs.cpp.inc"

void TIRDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "RelaxDialect/TIR/IR/TIROps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "RelaxDialect/TIR/IR/TIRVectorOps.cpp.inc"
      >();
}

void TIRDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "RelaxDialect/TIR/IR/TIRAttrs.cpp.inc"
      >();
}

void TIRDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "RelaxDialect/TIR/IR/TIROpsTypes.cpp.inc"
      >();
}

/// `<[n, 4], f32>` or `<[n, 4], f32, shared>`.
Type BufferType::parse(AsmParser &parser) {
  relax::SymShape shape;
  Type dtype;
  MemoryScope scope = MemoryScope::global;
  if (parser.parseLess() || relax::parseSymShape(parser, shape) ||
      parser.parseComma() || parser.parseType(dtype))
    return {};
  if (succeeded(parser.parseOptionalComma())) {
    StringRef keyword;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return {};
    std::optional<MemoryScope> parsed = symbolizeMemoryScope(keyword);
    if (!parsed) {
      parser.emitError(loc, "unknown memory scope '")
          << keyword << "' (expected global, shared or local)";
      return {};
    }
    scope = *parsed;
  }
  if (parser.parseGreater())
    return {};
  return parser.getChecked<BufferType>(parser.getContext(), shape, dtype,
                                       scope);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << "<";
  relax::printSymShape(printer, getShape());
  printer << ", " << getDtype();
  if (getScope() != MemoryScope::global)
    printer << ", " << stringifyMemoryScope(getScope());
  printer << ">";
}

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 relax::SymShape shape, Type dtype,
                                 MemoryScope) {
  if (!shape.hasRank())
    return emitError() << "buffer shape must have a known rank";
  if (!dtype.isIntOrIndexOrFloat())
    return emitError() << "buffer dtype must be an integer or float type, got "
                       << dtype;
  return success();
}
