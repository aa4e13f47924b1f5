//===- TIROps.td - tir dialect operations ------------------*- tablegen -*-===//
#ifndef TIR_OPS_TD
#define TIR_OPS_TD

include "RelaxDialect/TIR/IR/TIRBase.td"
include "RelaxDialect/TIR/IR/TIRTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/LoopLikeInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def TIR_LoopKind : I32EnumAttr<"LoopKind", "how a tir.for executes", [
    I32EnumAttrCase<"serial", 0>,
    I32EnumAttrCase<"parallel", 1>,
    I32EnumAttrCase<"vectorized", 2>,
    I32EnumAttrCase<"unrolled", 3>,
    I32EnumAttrCase<"thread_binding", 4>]> {
  let cppNamespace = "::mlir::tir";
}

def TIR_IterKind : I32EnumAttr<"IterKind",
    "role of a tir.block iteration variable", [
    I32EnumAttrCase<"spatial", 0>,
    I32EnumAttrCase<"reduce", 1>]> {
  let cppNamespace = "::mlir::tir";
}

def TIR_OpPattern : I32EnumAttr<"OpPattern",
    "fusion kind of a tir program, from most to least fusable", [
    I32EnumAttrCase<"Elementwise", 0, "elementwise">,
    I32EnumAttrCase<"Broadcast", 1, "broadcast">,
    I32EnumAttrCase<"Injective", 2, "injective">,
    I32EnumAttrCase<"Reduction", 3, "reduction">,
    I32EnumAttrCase<"OutEwiseFusable", 4, "out_ewise_fusable">,
    I32EnumAttrCase<"Opaque", 5, "opaque">]> {
  let cppNamespace = "::mlir::tir";
  let genSpecializedAttr = 0;
}

def TIR_OpPatternAttr : EnumAttr<TIR_Dialect, TIR_OpPattern, "op_pattern"> {
  let summary = "How a tir program fuses with its neighbours";
  let description = [{
    The kind of a `tir.prim_func`, held in its `op_pattern` attribute:
    `#tir.op_pattern<elementwise>`, `broadcast`, `injective`, `reduction`,
    `out_ewise_fusable` (a contraction such as matmul, whose output an
    elementwise epilogue can follow) or `opaque`. Legalization writes it,
    `--relax-annotate-op-pattern` derives it from the program's blocks, and
    `--relax-group-ops` and the GPU default schedule read it. The kinds are
    ordered from most to least fusable.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def TIR_IterKindArrayAttr
    : TypedArrayAttrBase<TIR_IterKind, "array of iteration variable kinds">;

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

    /// Where a symbolic variable gets its runtime value on entry.
    struct VarBinding {
      unsigned argIndex; ///< The parameter that binds it.
      int64_t dim;       ///< Its buffer dim, or -1 for an index parameter.
    };
    /// The binding of `name`: the first parameter buffer dim that is the
    /// bare variable, else the index parameter with `tir.var = name`.
    std::optional<VarBinding> lookupVarBinding(::llvm::StringRef name);
    /// Every variable the parameters bind, with its binding.
    ::llvm::StringMap<VarBinding> getVarBindings();
  }];
}

def TIR_ReturnOp : TIR_Op<"return", [
    Pure, HasParent<"PrimFuncOp">, ReturnLike, Terminator]> {
  let summary = "Ends a prim_func";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Symbolic variables
//===----------------------------------------------------------------------===//

def TIR_SymVarOp : TIR_Op<"sym_var", [Pure]> {
  let summary = "The runtime value of a symbolic variable";
  let description = [{
    Reads the value of a symbolic variable bound by the enclosing
    `tir.prim_func`: a variable is bound by a parameter buffer dim that is
    the bare variable (`!tir.buffer<[n, 4], f32>` binds `n`) or by an
    `index` parameter carrying the argument attribute `tir.var = "n"`.

    ```mlir
    %n = tir.sym_var "n" : index
    ```
  }];
  let arguments = (ins StrAttr:$var_name);
  let results = (outs Index:$result);
  let assemblyFormat = "$var_name attr-dict `:` type($result)";
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name), [{
    build($_builder, $_state, $_builder.getIndexType(),
          $_builder.getStringAttr(name));
  }]>];
}

//===----------------------------------------------------------------------===//
// Loops and blocks
//===----------------------------------------------------------------------===//

def TIR_ForOp : TIR_Op<"for", [
    DeclareOpInterfaceMethods<LoopLikeOpInterface, [
      "getLoopInductionVars", "getLoopLowerBounds", "getLoopUpperBounds",
      "getLoopSteps"]>,
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "A loop over an index range with an execution kind";
  let description = [{
    Runs its body for `%i = lb, lb + step, ... < ub`. The kind says how:
    `serial` (the default, not printed), `parallel` (iterations are
    independent), `vectorized`, `unrolled`, or `thread_binding`, which binds
    the loop to the GPU axis named by `thread` (`blockIdx.x/y/z`,
    `threadIdx.x/y/z`). The optional `loop_name` is the handle schedules
    use. Bounds are `index` values, typically computed from `tir.sym_var`.

    ```mlir
    tir.for %i = %c0 to %n step %c1 kind = parallel name = "i" {
      tir.for %j = %c0 to %c4 step %c1 kind = thread_binding
          thread = "threadIdx.x" {
      }
    }
    ```
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$step,
                       DefaultValuedAttr<TIR_LoopKind,
                         "::mlir::tir::LoopKind::serial">:$kind,
                       OptionalAttr<StrAttr>:$thread,
                       OptionalAttr<StrAttr>:$loop_name);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$lowerBound,
      "::mlir::Value":$upperBound, "::mlir::Value":$step,
      "::mlir::tir::LoopKind":$kind,
      "::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location, "
      "::mlir::Value)>":$bodyBuilder,
      CArg<"::llvm::StringRef", "{}">:$thread)>];
  let extraClassDeclaration = [{
    ::mlir::Value getInductionVar() { return getBody()->getArgument(0); }
    ::mlir::Block *getBody() { return &getRegion().front(); }
  }];
}

def TIR_BlockOp : TIR_Op<"block", [
    RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "A computation unit with spatial and reduction iterators";
  let description = [{
    Binds iteration variables (the body's block arguments) to `index`
    values, usually loop induction variables, and records for each whether
    it is `spatial` or `reduce`. The optional `tir.init` op, first in the
    body, runs when every reduce variable is 0; it initialises the
    reduction's output. Schedules reason about blocks; the lowering inlines
    them.

    ```mlir
    tir.block "sum" (%vi = %i, %vk = %k) kinds [spatial, reduce] {
      tir.init {
        tir.store %zero, %out[%vi] : !tir.buffer<[n], f32>
      }
      %a = tir.load %out[%vi] : !tir.buffer<[n], f32>
      ...
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$bindings, StrAttr:$block_name,
                       TIR_IterKindArrayAttr:$iter_kinds);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
      "::mlir::ValueRange":$bindings,
      "::llvm::ArrayRef<::mlir::tir::IterKind>":$kinds,
      "::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location, "
      "::mlir::ValueRange)>":$initBuilder,
      "::llvm::function_ref<void(::mlir::OpBuilder &, ::mlir::Location, "
      "::mlir::ValueRange)>":$bodyBuilder)>];
  let extraClassDeclaration = [{
    ::mlir::Block *getBody() { return &getRegion().front(); }
    ::mlir::ValueRange getIterVars() { return getBody()->getArguments(); }
    ::mlir::tir::IterKind getIterKind(unsigned i);
    bool hasReduceVar();
    /// The init op, or null.
    class InitOp getInitOp();
  }];
}

def TIR_InitOp : TIR_Op<"init", [
    HasParent<"BlockOp">, RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "The initialisation of a reduction block";
  let description = [{
    Runs before the enclosing block's body when every reduce iteration
    variable of the `tir.block` is 0. Must be the block's first op.

    ```mlir
    tir.init {
      tir.store %zero, %out[%vi] : !tir.buffer<[n], f32>
    }
    ```
  }];
  let regions = (region SizedRegion<1>:$region);
  let assemblyFormat = "$region attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block *getBody() { return &getRegion().front(); }
  }];
}

def TIR_YieldOp : TIR_Op<"yield", [
    Pure, ParentOneOf<["ForOp", "BlockOp", "InitOp"]>, ReturnLike,
    Terminator]> {
  let summary = "Ends a tir.for, tir.block or tir.init body";
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def TIR_LoadOp : TIR_Op<"load", [
    TypesMatchWith<"result type is the buffer dtype", "buffer", "result",
        "::llvm::cast<::mlir::tir::BufferType>($_self).getDtype()">]> {
  let summary = "Reads one buffer element";
  let description = [{
    ```mlir
    %v = tir.load %buf[%i, %j] : !tir.buffer<[n, 4], f32>
    ```
  }];
  let arguments = (ins Arg<TIR_BufferType, "", [MemRead]>:$buffer,
                       Variadic<Index>:$indices);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $buffer `[` $indices `]` attr-dict `:` qualified(type($buffer))
  }];
  let hasVerifier = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$buffer,
                                 "::mlir::ValueRange":$indices), [{
    build($_builder, $_state,
          ::llvm::cast<BufferType>(buffer.getType()).getDtype(), buffer,
          indices);
  }]>];
}

def TIR_StoreOp : TIR_Op<"store", [
    TypesMatchWith<"stored value type is the buffer dtype", "buffer",
        "value",
        "::llvm::cast<::mlir::tir::BufferType>($_self).getDtype()">]> {
  let summary = "Writes one buffer element";
  let description = [{
    ```mlir
    tir.store %v, %buf[%i, %j] : !tir.buffer<[n, 4], f32>
    ```
  }];
  let arguments = (ins AnyType:$value,
                       Arg<TIR_BufferType, "", [MemWrite]>:$buffer,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $value `,` $buffer `[` $indices `]` attr-dict `:` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TIR_AllocOp : TIR_Op<"alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "Allocates a scratch buffer";
  let description = [{
    A buffer live until the end of the enclosing region. Its dims may be
    expressions of the variables the prim_func binds; `local` buffers are
    per-thread, `shared` ones per GPU thread block.

    ```mlir
    %acc = tir.alloc : !tir.buffer<[1], f32, local>
    %tmp = tir.alloc : !tir.buffer<[n * 4], f32>
    ```
  }];
  let results = (outs TIR_BufferType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::tir::BufferType getType() {
      return ::llvm::cast<::mlir::tir::BufferType>(getResult().getType());
    }
  }];
}

#endif // TIR_OPS_TD
