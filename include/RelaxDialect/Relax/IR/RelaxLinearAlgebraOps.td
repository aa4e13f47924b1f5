//===- RelaxLinearAlgebraOps.td - LinearAlgebra ops -------------------------*- tablegen -*-===//
#ifndef RELAX_LINEARALGEBRA_OPS_TD
#define RELAX_LINEARALGEBRA_OPS_TD

#endif // RELAX_LINEARALGEBRA_OPS_TD
