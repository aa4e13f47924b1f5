//===- FunctionLike.h - Shared syntax of the function-like ops --*- C++ -*-===//
//
// relax.func, tir.prim_func and extern.func all print like func.func; one
// template keeps their syntax identical.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_SUPPORT_FUNCTIONLIKE_H
#define RELAXDIALECT_SUPPORT_FUNCTIONLIKE_H

#include "mlir/Interfaces/FunctionImplementation.h"

namespace mlir {
namespace relax {

/// Parses `@name(%arg: type, ...) -> results attributes {...} {body}` (or a
/// declaration without a body) into `result` for op class `OpT`.
template <typename OpT>
ParseResult parseFunctionLikeOp(OpAsmParser &parser, OperationState &result) {
  auto buildFuncType = [](Builder &builder, ArrayRef<Type> argTypes,
                          ArrayRef<Type> results,
                          function_interface_impl::VariadicFlag,
                          std::string &) {
    return builder.getFunctionType(argTypes, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      OpT::getFunctionTypeAttrName(result.name), buildFuncType,
      OpT::getArgAttrsAttrName(result.name),
      OpT::getResAttrsAttrName(result.name));
}

template <typename OpT>
void printFunctionLikeOp(OpAsmPrinter &p, OpT op) {
  function_interface_impl::printFunctionOp(
      p, op, /*isVariadic=*/false, op.getFunctionTypeAttrName(),
      op.getArgAttrsAttrName(), op.getResAttrsAttrName());
}

} // namespace relax
} // namespace mlir

#endif // RELAXDIALECT_SUPPORT_FUNCTIONLIKE_H
