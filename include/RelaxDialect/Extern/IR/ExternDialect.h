//===- ExternDialect.h - extern dialect -------------------------*- C++ -*-===//
//
// Declarations of library functions (extern.func) and calls to them on
// memrefs (extern.call). The catalogue of built-in declarations is in
// Builtins.h.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_EXTERN_IR_EXTERNDIALECT_H
#define RELAXDIALECT_EXTERN_IR_EXTERNDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "RelaxDialect/Extern/IR/ExternOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "RelaxDialect/Extern/IR/ExternOps.h.inc"

#endif // RELAXDIALECT_EXTERN_IR_EXTERNDIALECT_H
