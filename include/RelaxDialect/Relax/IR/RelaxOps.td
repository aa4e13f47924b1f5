//===- RelaxOps.td - relax dialect operations --------------*- tablegen -*-===//
//
// The op definitions are split by concern; this file only gathers them so a
// single TableGen run produces the dialect's op classes.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_OPS_TD
#define RELAX_OPS_TD

include "RelaxDialect/Relax/IR/RelaxBase.td"
include "RelaxDialect/Relax/IR/RelaxTypes.td"
include "RelaxDialect/Relax/IR/RelaxAttrs.td"
include "RelaxDialect/Relax/IR/RelaxStructureOps.td"
include "RelaxDialect/Relax/IR/RelaxTensorOps.td"

#endif // RELAX_OPS_TD
