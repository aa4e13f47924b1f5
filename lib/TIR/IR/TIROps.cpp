//===- TIROps.cpp - tir dialect operations --------------------------------===//

#include "RelaxDialect/TIR/IR/TIRDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace mlir::tir;

#define GET_OP_CLASSES
#include "RelaxDialect/TIR/IR/TIROps.cpp.inc"

void PrimFuncOp::build(OpBuilder &builder, OperationState &state,
                       StringRef name, FunctionType type) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name),
                     TypeAttr::get(type));
  state.addRegion();
}

Block *PrimFuncOp::addEntryBlock() {
  Block *block = new Block();
  getBody().push_back(block);
  for (Type type : getArgumentTypes())
    block->addArgument(type, getLoc());
  return block;
}

ParseResult PrimFuncOp::parse(OpAsmParser &parser, OperationState &result) {
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

void PrimFuncOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult PrimFuncOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError("returns nothing: outputs are destination buffers");
  for (auto [i, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<BufferType, IndexType>(type))
      return emitOpError("parameter #")
             << i << " must be a !tir.buffer or index, got " << type;
  return success();
}
