//===- RelaxReductionOps.td - Reduction ops -------------------------*- tablegen -*-===//
#ifndef RELAX_REDUCTION_OPS_TD
#define RELAX_REDUCTION_OPS_TD

#endif // RELAX_REDUCTION_OPS_TD
