//===- ExternDialect.cpp - extern dialect ---------------------------------===//

#include "RelaxDialect/Extern/IR/ExternDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::ext;

#include "RelaxDialect/Extern/IR/ExternOpsDialect.cpp.inc"

#define GET_OP_CLASSES
#include "RelaxDialect/Extern/IR/ExternOps.cpp.inc"

void ExternDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "RelaxDialect/Extern/IR/ExternOps.cpp.inc"
      >();
}

ParseResult FuncOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildFuncType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void FuncOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult FuncOp::verify() {
  if (!getBody().empty())
    return emitOpError("is a declaration and must not have a body");
  if (!getResultTypes().empty())
    return emitOpError("returns nothing: outputs are destination arguments");
  int64_t numOutputs = getNumOutputs();
  if (numOutputs < 0 ||
      numOutputs > static_cast<int64_t>(getArgumentTypes().size()))
    return emitOpError("num_outputs = ")
           << numOutputs << " but the function has "
           << getArgumentTypes().size() << " parameters";
  if (getLinkName().empty())
    return emitOpError("link_name must not be empty");
  return success();
}
