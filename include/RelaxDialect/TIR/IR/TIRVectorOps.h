//===- TIRVectorOps.h - tir vector loads and stores -------------*- C++ -*-===//
//
// tir.vector_load and tir.vector_store (TIRVectorOps.td), registered by the
// tir dialect.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_TIR_IR_TIRVECTOROPS_H
#define RELAXDIALECT_TIR_IR_TIRVECTOROPS_H

#include "RelaxDialect/TIR/IR/TIRDialect.h"

#define GET_OP_CLASSES
#include "RelaxDialect/TIR/IR/TIRVectorOps.h.inc"

#endif // RELAXDIALECT_TIR_IR_TIRVECTOROPS_H
