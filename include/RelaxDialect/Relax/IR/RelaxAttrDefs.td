//===- RelaxAttrDefs.td - every relax attribute, for the defs -*- tablegen -*-===//
//
// The input of RelaxAttrs.cpp.inc: the attributes of RelaxAttrs.td and the
// sharding annotation of RelaxShardAttr.td together, so that the dialect's
// generated attribute parser and printer dispatch over all of them. Their
// declarations are generated apart (RelaxAttrs.h.inc from RelaxOps.td,
// RelaxShardAttr.h.inc from RelaxShardAttr.td).
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_ATTR_DEFS_TD
#define RELAX_ATTR_DEFS_TD

include "RelaxDialect/Relax/IR/RelaxAttrs.td"
include "RelaxDialect/Relax/IR/RelaxShardAttr.td"

#endif // RELAX_ATTR_DEFS_TD
