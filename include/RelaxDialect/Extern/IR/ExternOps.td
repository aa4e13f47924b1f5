//===- ExternOps.td - extern dialect -----------------------*- tablegen -*-===//
//
// Declarations of library functions with destination-passing signatures.
//
//===----------------------------------------------------------------------===//
#ifndef EXTERN_OPS_TD
#define EXTERN_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"

def Extern_Dialect : Dialect {
  let name = "extern";
  let cppNamespace = "::mlir::ext";
  let summary = "Library functions called in destination-passing style";
  let description = [{
    `extern.func` declares a library function (cuBLAS, a CPU BLAS, or a
    user-supplied one): its parameters are the inputs then the outputs
    (`num_outputs` of them), and `link_name` is the symbol the runtime or
    linker resolves. Graph code calls it with `relax.call_dps_packed`.
  }];
}

class Extern_Op<string mnemonic, list<Trait> traits = []>
    : Op<Extern_Dialect, mnemonic, traits>;

def Extern_FuncOp : Extern_Op<"func", [
    FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "Declares a library function";
  let description = [{
    ```mlir
    extern.func private @matmul(!relax.tensor<[n, k], f32>, !relax.tensor<[k, m], f32>,
                        !relax.tensor<[n, m], f32>)
        attributes {link_name = "relax_blas_sgemm", num_outputs = 1 : i64}
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       StrAttr:$link_name,
                       I64Attr:$num_outputs,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return nullptr; }
    bool isDeclaration() { return true; }
  }];
}

#endif // EXTERN_OPS_TD
