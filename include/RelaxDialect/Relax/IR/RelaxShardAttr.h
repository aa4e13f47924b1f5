//===- RelaxShardAttr.h - sharding annotations ------------------*- C++ -*-===//
//
// #relax.shard<split = a> / #relax.shard<replicated> (RelaxShardAttr.td),
// declared apart from RelaxDialect.h: include this where it is used.
//
//===----------------------------------------------------------------------===//
#ifndef RELAXDIALECT_RELAX_IR_RELAXSHARDATTR_H
#define RELAXDIALECT_RELAX_IR_RELAXSHARDATTR_H

#include "RelaxDialect/Relax/IR/RelaxDialect.h"

#define GET_ATTRDEF_CLASSES
#include "RelaxDialect/Relax/IR/RelaxShardAttr.h.inc"

#endif // RELAXDIALECT_RELAX_IR_RELAXSHARDATTR_H
