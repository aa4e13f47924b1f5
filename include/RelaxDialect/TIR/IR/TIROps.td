//===- TIROps.td - tir dialect operations ------------------*- tablegen -*-===//
#ifndef TIR_OPS_TD
#define TIR_OPS_TD

include "RelaxDialect/TIR/IR/TIRBase.td"
include "RelaxDialect/TIR/IR/TIRTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TIR_PrimFuncOp : TIR_Op<"prim_func", [
    AutomaticAllocationScope, FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "A loop-level tensor program";
  let description = [{
    A destination-passing program: its parameters are buffers (inputs, then
    outputs) and `index` scalars (symbolic values passed by the caller's
    `tir_vars`). The symbolic variables named by the parameter buffer shapes
    are bound on entry; `tir.sym_var "n"` reads one as an `index` value. The
    optional `op_pattern` attribute records the program's fusion kind.

    ```mlir
    tir.prim_func @add_one(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) {
      tir.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    ::mlir::Block *addEntryBlock();
  }];
}

def TIR_ReturnOp : TIR_Op<"return", [
    Pure, HasParent<"PrimFuncOp">, ReturnLike, Terminator]> {
  let summary = "Ends a prim_func";
  let assemblyFormat = "attr-dict";
}

#endif // TIR_OPS_TD
