//===- RelaxBase.td - relax dialect definition -------------*- tablegen -*-===//
//
// The graph level of Relax: dataflow over tensors whose types carry symbolic
// shapes, calls into loop-level programs (call_tir) and libraries
// (call_dps_packed).
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_BASE_TD
#define RELAX_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Relax_Dialect : Dialect {
  let name = "relax";
  let cppNamespace = "::mlir::relax";
  let summary = "Graph-level dataflow with first-class symbolic shapes";
  let description = [{
    The `relax` dialect is the graph level of Relax (Lai et al., ASPLOS 2025).
    Tensor types carry their shape as symbolic integer expressions over named
    variables (`!relax.tensor<[n, 4 * m], f32>`); every high-level op infers
    its result shape symbolically, and mismatches that can be proven are
    compile-time errors. Graph functions call loop-level `tir.prim_func`s with
    `relax.call_tir` and library functions with `relax.call_dps_packed`, both
    in destination-passing style but pure at graph level.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 0;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class Relax_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relax_Dialect, mnemonic, traits>;

#endif // RELAX_BASE_TD
