//===- RelaxCreationOps.td - Creation ops -------------------------*- tablegen -*-===//
#ifndef RELAX_CREATION_OPS_TD
#define RELAX_CREATION_OPS_TD

#endif // RELAX_CREATION_OPS_TD
