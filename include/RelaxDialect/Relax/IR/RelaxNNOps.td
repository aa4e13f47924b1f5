//===- RelaxNNOps.td - NN ops -------------------------*- tablegen -*-===//
#ifndef RELAX_NN_OPS_TD
#define RELAX_NN_OPS_TD

#endif // RELAX_NN_OPS_TD
