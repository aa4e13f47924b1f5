//===- RelaxManipulationOps.td - Manipulation ops -------------------------*- tablegen -*-===//
#ifndef RELAX_MANIPULATION_OPS_TD
#define RELAX_MANIPULATION_OPS_TD

#endif // RELAX_MANIPULATION_OPS_TD
