//===- ExternOps.td - extern dialect -----------------------*- tablegen -*-===//
//
// Declarations of library functions with destination-passing signatures, and
// the call op that reaches them from code that already works on memrefs.
//
//===----------------------------------------------------------------------===//
#ifndef EXTERN_OPS_TD
#define EXTERN_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Extern_Dialect : Dialect {
  let name = "extern";
  let cppNamespace = "::mlir::ext";
  let summary = "Library functions called in destination-passing style";
  let description = [{
    `extern.func` declares a library function (cuBLAS, a CPU BLAS, or a
    user-supplied one): its parameters are the inputs then the outputs
    (`num_outputs` of them), typed with relax tensor types whose symbolic
    dims document (and, at call sites with static shapes, check) how the
    shapes relate; `link_name` is the symbol the runtime or linker resolves.
    Graph code calls it with `relax.call_dps_packed`; code that already
    works on memrefs calls it with `extern.call`.
  }];
  // Declarations are typed with relax tensor types.
  let dependentDialects = ["::mlir::relax::RelaxDialect"];
}

class Extern_Op<string mnemonic, list<Trait> traits = []>
    : Op<Extern_Dialect, mnemonic, traits>;

def Extern_FuncOp : Extern_Op<"func", [
    FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "Declares a library function";
  let description = [{
    A declaration only (no body, no results). The parameters are the inputs
    followed by `num_outputs` outputs. Inputs are relax tensors (ranked or
    `*`) or `!relax.prim<T>` scalars; outputs are relax tensors. Symbolic
    variables are local to the declaration, like those of a function
    signature: `[m, k]`, `[k, n]` -> `[m, n]` states that the inner dims
    agree.

    ```mlir
    extern.func private @relax_blas_matmul_f32(!relax.tensor<[m, k], f32>,
        !relax.tensor<[k, n], f32>, !relax.tensor<[m, n], f32>)
        attributes {link_name = "relax_blas_matmul_f32", num_outputs = 1 : i64}
    ```

    After `relax-lower-shapes` the declaration becomes a private `func.func`
    named `link_name` over memrefs with `llvm.emit_c_interface`, so the
    runtime implements `_mlir_ciface_<link_name>` taking one memref
    descriptor pointer per parameter.
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
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type,
                                 "::llvm::StringRef":$linkName,
                                 "int64_t":$numOutputs)>];
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return nullptr; }
    bool isDeclaration() { return true; }
    /// The number of input parameters (those before the outputs).
    int64_t getNumInputs() {
      return static_cast<int64_t>(getArgumentTypes().size()) -
             static_cast<int64_t>(getNumOutputs());
    }
  }];
}

def Extern_CallOp : Extern_Op<"call", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Calls a library function on memrefs in destination-passing "
                "style";
  let description = [{
    Calls the `extern.func` `@callee` with memref inputs (or scalars for
    `!relax.prim` parameters) and the output memrefs it writes. There are no
    results: the callee writes the outputs in place, and the op reads its
    inputs and writes its outputs (nothing else).

    The verifier checks counts, element types and ranks against the
    declaration, and the static sizes against its symbolic dims: a bare
    variable takes the first static size it meets and every other dim whose
    variables are all known must evaluate to the static size it meets.

    ```mlir
    extern.call @relax_blas_matmul_f32(%a, %b : memref<?x?xf32>, memref<?x?xf32>)
        outs(%c : memref<?x?xf32>)
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyType>:$inputs,
                       Variadic<AnyMemRef>:$outputs);
  let assemblyFormat = [{
    $callee `(` ($inputs^ `:` type($inputs))? `)`
    `outs` `(` ($outputs^ `:` type($outputs))? `)` attr-dict
  }];
}

#endif // EXTERN_OPS_TD
