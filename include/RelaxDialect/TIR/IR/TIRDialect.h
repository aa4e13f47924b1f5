//===- TIRDialect.h - tir dialect, types and ops ----------------*- C++ -*-===//
#ifndef RELAXDIALECT_TIR_IR_TIRDIALECT_H
#define RELAXDIALECT_TIR_IR_TIRDIALECT_H

#include "RelaxDialect/Support/SymShape.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "RelaxDialect/TIR/IR/TIREnums.h.inc"
#include "RelaxDialect/TIR/IR/TIROpsDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "RelaxDialect/TIR/IR/TIRAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "RelaxDialect/TIR/IR/TIROpsTypes.h.inc"

#define GET_OP_CLASSES
#include "RelaxDialect/TIR/IR/TIROps.h.inc"

#endif // RELAXDIALECT_TIR_IR_TIRDIALECT_H
