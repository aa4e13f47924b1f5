//===- TIRTensorCoreOps.h - tir ops of tensor-core kernels ------*- C++ -*-===//
//
// tir.mma_sync, tir.copy_async and tir.copy_async_wait
// (TIRTensorCoreOps.td), registered by the tir dialect.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_TIR_IR_TIRTENSORCOREOPS_H
#define RELAXDIALECT_TIR_IR_TIRTENSORCOREOPS_H

#include "RelaxDialect/TIR/IR/TIRDialect.h"

#define GET_OP_CLASSES
#include "RelaxDialect/TIR/IR/TIRTensorCoreOps.h.inc"

#endif // RELAXDIALECT_TIR_IR_TIRTENSORCOREOPS_H
