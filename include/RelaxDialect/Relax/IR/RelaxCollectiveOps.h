//===- RelaxCollectiveOps.h - relax.ccl collectives -------------*- C++ -*-===//
//
// The collective ops of tensor-parallel programs (RelaxCollectiveOps.td),
// in the relax dialect but generated apart from RelaxOps.h: include this
// where they are used.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_IR_RELAXCOLLECTIVEOPS_H
#define RELAXDIALECT_RELAX_IR_RELAXCOLLECTIVEOPS_H

#include "RelaxDialect/Relax/IR/RelaxOps.h"

#define GET_OP_CLASSES
#include "RelaxDialect/Relax/IR/RelaxCollectiveOps.h.inc"

#endif // RELAXDIALECT_RELAX_IR_RELAXCOLLECTIVEOPS_H
