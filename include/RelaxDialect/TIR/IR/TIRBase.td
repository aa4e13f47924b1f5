//===- TIRBase.td - tir dialect definition -----------------*- tablegen -*-===//
//
// The loop level of Relax: tensor programs over buffers with symbolic shapes.
//
//===----------------------------------------------------------------------===//
#ifndef TIR_BASE_TD
#define TIR_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def TIR_Dialect : Dialect {
  let name = "tir";
  let cppNamespace = "::mlir::tir";
  let summary = "Loop-level tensor programs over symbolically shaped buffers";
  let description = [{
    `tir.prim_func`s are the callees of `relax.call_tir`: destination-passing
    programs whose parameters are buffers (`!tir.buffer<[n, 4], f32>`) and
    scalar symbolic values. The symbolic variables in the parameter buffer
    shapes are bound by the call; loops, blocks, loads and stores compute
    the outputs. Scalar math uses upstream `arith` and `math`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

class TIR_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TIR_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

class TIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<TIR_Dialect, mnemonic, traits>;

#endif // TIR_BASE_TD
