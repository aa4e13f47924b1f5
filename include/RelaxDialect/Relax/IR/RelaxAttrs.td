//===- RelaxAttrs.td - relax dialect attributes ------------*- tablegen -*-===//
#ifndef RELAX_ATTRS_TD
#define RELAX_ATTRS_TD

include "RelaxDialect/Relax/IR/RelaxTypes.td"

class Relax_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Relax_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def SymExprParameter : AttrOrTypeParameter<"::mlir::relax::sym::Expr", "",
                                            "const ::mlir::relax::sym::Expr &"> {
  let printer = "::mlir::relax::printSymDim($_printer.getStream(), $_self)";
}

def Relax_ShapeExprAttr : Relax_Attr<"ShapeExpr", "shape"> {
  let summary = "A list of symbolic expressions";
  let description = [{
    `#relax.shape<[n * 2, m]>`: a shape given by symbolic expressions, used
    for reshape targets, creation ops and the extra symbolic arguments of
    `relax.call_tir`.
  }];
  let parameters = (ins SymShapeParameter:$shape);
  let assemblyFormat = "`<` $shape `>`";
}

def Relax_SymExprAttr : Relax_Attr<"SymExpr", "expr"> {
  let summary = "One symbolic integer expression";
  let description = [{
    `#relax.expr<n - 1>`: a symbolic scalar, e.g. a strided_slice bound.
  }];
  let parameters = (ins SymExprParameter:$expr);
  let assemblyFormat = "`<` $expr `>`";
}

#endif // RELAX_ATTRS_TD
