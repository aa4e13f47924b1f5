//===- RelaxElementwiseOps.td - elementwise ops ------------*- tablegen -*-===//
#ifndef RELAX_ELEMENTWISE_OPS_TD
#define RELAX_ELEMENTWISE_OPS_TD

def Relax_ExpOp : Relax_UnaryOp<"exp", "natural exponential">;
def Relax_AddOp : Relax_BinaryOp<"add", "addition">;
def Relax_LessOp : Relax_BinaryOp<"less", "less-than comparison", 1>;

#endif // RELAX_ELEMENTWISE_OPS_TD
