//===- RelaxStructureOps.td - functions, dataflow, calls ---*- tablegen -*-===//
//
// The structural part of relax: functions, dataflow regions, calls across the
// three levels, shape binding (match_cast) and tuples.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_STRUCTURE_OPS_TD
#define RELAX_STRUCTURE_OPS_TD

include "RelaxDialect/Relax/IR/RelaxAttrs.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Relax_FuncOp : Relax_Op<"func", [
    AffineScope, AutomaticAllocationScope, FunctionOpInterface,
    IsolatedFromAbove]> {
  let summary = "A graph-level function";
  let description = [{
    A relax function. Its parameter types bind the symbolic variables their
    shapes name (a dim that is a bare variable binds it; other dims are
    checked); every other use of a variable inside the body must come after
    its binding (a parameter or an earlier `relax.match_cast`).

    Bounds of symbolic variables are declared with the `sym_bounds`
    attribute, a dictionary from variable name to `array<i64: lo, hi>`
    (inclusive); they strengthen shape proofs and memory planning.

    ```mlir
    relax.func @main(%x: !relax.tensor<[n, 4], f32>)
        -> !relax.tensor<[n, 4], f32>
        attributes {sym_bounds = {n = array<i64: 1, 4096>}} {
      relax.return %x : !relax.tensor<[n, 4], f32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<StrAttr>:$sym_visibility,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<DictionaryAttr>:$sym_bounds);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    /// Returns the argument types of this function.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// Returns the result types of this function.
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// Adds an entry block whose arguments match the function type.
    ::mlir::Block *addEntryBlock();
    /// The declared bounds and facts of the function's symbolic variables.
    ::mlir::relax::sym::Context getSymContext();
  }];
}

def Relax_ReturnOp : Relax_Op<"return", [
    Pure, HasParent<"FuncOp">, ReturnLike, Terminator]> {
  let summary = "Returns from a relax function";
  let description = [{
    ```mlir
    relax.return %y : !relax.tensor<[n], f32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let hasVerifier = 1;
}

def Relax_CallOp : Relax_Op<"call", [
    CallOpInterface, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls another relax function";
  let description = [{
    ```mlir
    %y = relax.call @layer(%x) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $operands `)` attr-dict `:` functional-type($operands, results)
  }];
  let extraClassDeclaration = [{
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return (*this)->getAttrOfType<::mlir::SymbolRefAttr>("callee");
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      (*this)->setAttr("callee", ::llvm::cast<::mlir::SymbolRefAttr>(callee));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
  }];
}

def Relax_DataflowOp : Relax_Op<"dataflow", [
    SingleBlockImplicitTerminator<"OutputOp">, RecursiveMemoryEffects]> {
  let summary = "A side-effect-free region of bindings";
  let description = [{
    Marks a region whose bindings are pure dataflow: passes may reorder,
    fuse and eliminate them freely. Values leave the region only through
    `relax.output`.

    ```mlir
    %y = relax.dataflow -> !relax.tensor<[n], f32> {
      %t = relax.exp %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
      relax.output %t : !relax.tensor<[n], f32>
    }
    ```
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "(`->` type($results)^)? $body attr-dict";
  let hasVerifier = 1;
}

def Relax_OutputOp : Relax_Op<"output", [
    Pure, HasParent<"DataflowOp">, ReturnLike, Terminator]> {
  let summary = "Yields the values of a dataflow region";
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
}

// Not Pure: the cast can fail at run time, so it is a write to the error
// state (like cf.assert). Canonicalization erases it only when it provably
// holds; a dataflow region admits it (DataflowOp::verify).
def Relax_MatchCastOp : Relax_Op<"match_cast", [MemoryEffects<[MemWrite]>]> {
  let summary = "Checked refinement of a value's type; binds new variables";
  let description = [{
    Asserts at run time that the value has the target type and binds the
    symbolic variables of the target that are not yet bound (a dim that is
    a bare, unbound variable binds it; every other dim is checked). It is
    not pure: an unused match_cast is kept (its check stays) unless every
    target dim is `?` or provably equal to the source dim.

    ```mlir
    %y = relax.match_cast %x : !relax.tensor<*, f32> to !relax.tensor<[n, m], f32>
    ```
  }];
  let arguments = (ins AnyType:$value);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Relax_AssertDimsOp : Relax_Op<"assert_dims", [MemoryEffects<[MemWrite]>]> {
  let summary = "Run-time check of a shape contract between symbolic dims";
  let description = [{
    Emitted by `--relax-legalize-ops` and `--relax-dispatch-library` in front
    of the kernel call of an op whose shape contract inference could not
    decide at compile time (see docs/relax.md, "Run-time checks").
    `predicate` is `eq` (lhs == rhs), `le` (lhs <= rhs) or `broadcast`
    (lhs == rhs or lhs == 1). `op_name` names the checked op and `what` the
    quantity; the op's location is the checked op's. `--relax-lower-shapes`
    turns it into the same error path as the argument checks, e.g.
    `main: relax.reshape at f.mlir:4:10: element count n * 4 = 20 does not
    match m * 3 = 21`.

    ```mlir
    relax.assert_dims #relax.expr<n * 4> "eq" #relax.expr<m * 3>, "relax.reshape", "element count"
    ```
  }];
  let arguments = (ins Relax_SymExprAttr:$lhs, StrAttr:$predicate,
                       Relax_SymExprAttr:$rhs, StrAttr:$op_name, StrAttr:$what);
  let assemblyFormat =
      "qualified($lhs) $predicate qualified($rhs) `,` $op_name `,` $what attr-dict";
  let hasVerifier = 1;
}

def Relax_AssertIndicesOp : Relax_Op<"assert_indices",
                                     [MemoryEffects<[MemWrite]>]> {
  let summary = "Run-time check that index values lie in [-extent, extent)";
  let description = [{
    The data-dependent contract of the index-reading ops (`take`,
    `gather_elements`, `gather_nd`, `scatter_nd`): every value of `indices`
    must lie in `[-extent, extent)` (negative values count from the end, as
    in numpy; unsigned dtypes in `[0, extent)`), which also rejects any index
    into an empty axis. `extent` is one expression for all values, or a
    `#relax.shape` with one extent per position of the indices' last dim
    (index tuples: `indices[..., j]` is checked against `extent[j]`; the
    last dim must then be that constant). Lowered by `--relax-lower-shapes`
    to a scan of the index buffer on the host before the kernel runs.

    ```mlir
    relax.assert_indices %i, #relax.expr<n>, "relax.take" : !relax.tensor<[k], i64>
    relax.assert_indices %j, #relax.shape<[n, m]>, "relax.gather_nd" : !relax.tensor<[k, 2], i64>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$indices,
                       AnyAttrOf<[Relax_SymExprAttr, Relax_ShapeExprAttr]>:$extent,
                       StrAttr:$op_name);
  let assemblyFormat =
      "$indices `,` qualified($extent) `,` $op_name attr-dict `:` qualified(type($indices))";
  let hasVerifier = 1;
}

def Relax_TensorToShapeOp : Relax_Op<"tensor_to_shape",
                                      [MemoryEffects<[MemWrite]>]> {
  let summary = "Reads a shape from an integer tensor; binds new variables";
  let description = [{
    The run-time values of a 1-D integer tensor of static length L become
    the L dims of the result shape. A result dim that is a bare, still
    unbound variable binds it (binding rule 3 in docs/relax.md); every other
    dim is checked against the value at run time, as `match_cast` checks.
    Every value must be a valid dim (>= 0). This is how sizes computed from
    tensor data (ONNX shape computations, `Range` with run-time limits, data
    dependent output sizes) get named symbolic dims that every later op,
    legalization and fusion see.

    ```mlir
    %s = relax.tensor_to_shape %t : !relax.tensor<[2], i64> to !relax.shape<[a, b]>
    ```

    It is not pure: it can fail, and it binds variables that later types
    use, so it is kept even when its result is unused.
  }];
  let arguments = (ins Relax_AnyTensor:$input);
  let results = (outs Relax_AnyShape:$result);
  let assemblyFormat =
      "$input attr-dict `:` qualified(type($input)) `to` qualified(type($result))";
  let hasVerifier = 1;
}

// Not Pure: unless the sizes are proven at compile time, the lowering
// checks at run time that the view fits (like match_cast, a write to the
// error state), so it stays where the program put it.
def Relax_ViewOp : Relax_Op<"view", [MemoryEffects<[MemWrite]>]> {
  let summary = "The leading elements of a tensor under another shape, "
                "without a copy";
  let description = [{
    The result is the first N elements of the input in row-major order, N
    being the result's element count, read under the result's shape; the
    dtype is the input's. Nothing is copied: the result shares the input's
    storage. When the input's dims before some axis are all 1, a view that
    shortens that axis is a prefix along it: the valid rows of a
    preallocated cache, for example.

    ```mlir
    // the p + s rows of a [1, m, h, d] cache written so far
    %kv = relax.view %cache : !relax.tensor<[1, m, h, d], f32>
                           to !relax.tensor<[1, p + s, h, d], f32>
    ```

    N must not exceed the input's element count: a view provably larger is
    rejected here, and one not proven to fit is checked at run time. Every
    result dim must be known. A value viewed by relax.view cannot then be
    updated in place while the view is still read (relax.call_tir_inplace
    checks every alias of what it updates).
  }];
  let arguments = (ins Relax_AnyTensor:$input);
  let results = (outs Relax_AnyTensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` qualified(type($input)) `to` qualified(type($result))";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Relax_ShapeOfOp : Relax_Op<"shape_of", [
    Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "The shape of a tensor as a first-class value";
  let description = [{
    ```mlir
    %s = relax.shape_of %x : !relax.tensor<[n, 4], f32>
    ```
    The result type is `!relax.shape<[n, 4]>`. When the shape is fully known
    the op folds to a `relax.shape_expr` constant.
  }];
  let arguments = (ins Relax_AnyTensor:$input);
  let results = (outs Relax_AnyShape:$result);
  let assemblyFormat = "$input attr-dict `:` qualified(type($input))";
  let hasCanonicalizer = 1;
}

def Relax_ShapeExprOp : Relax_Op<"shape_expr", [
    Pure, ConstantLike, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A shape value built from symbolic expressions";
  let description = [{
    ```mlir
    %s = relax.shape_expr #relax.shape<[n, 4 * m]>
    ```
  }];
  let arguments = (ins Relax_ShapeExprAttr:$value);
  let results = (outs Relax_AnyShape:$result);
  let assemblyFormat = "qualified($value) attr-dict";
  let hasFolder = 1;
}

def Relax_ConstantOp : Relax_Op<"constant", [
    Pure, ConstantLike, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A constant tensor";
  let description = [{
    A tensor constant from a builtin elements attribute: dense for small
    values, `dense_resource` (DenseResourceElementsAttr) for large weights,
    which keeps them out of the textual IR.

    ```mlir
    %c = relax.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
    The result is `!relax.tensor<[2], f32>`.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Relax_AnyTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

def Relax_TupleOp : Relax_Op<"tuple", [
    Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Builds a tuple";
  let description = [{
    ```mlir
    %t = relax.tuple %a, %b : !relax.tensor<[n], f32>, !relax.tensor<[m], f32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$fields);
  let results = (outs AnyTuple:$result);
  let assemblyFormat = "($fields^ `:` type($fields))? attr-dict";
}

def Relax_TupleGetItemOp : Relax_Op<"tuple_get_item", [
    Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Reads one field of a tuple";
  let description = [{
    ```mlir
    %a = relax.tuple_get_item %t[0] : tuple<!relax.tensor<[n], f32>, !relax.tensor<[m], f32>>
    ```
  }];
  let arguments = (ins AnyTuple:$tuple, I64Attr:$index);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$tuple `[` $index `]` attr-dict `:` type($tuple)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Relax_CallTIROp : Relax_Op<"call_tir", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls a loop-level program in destination-passing style";
  let description = [{
    Calls `tir.prim_func @callee` whose parameters are the input buffers,
    then one output buffer per result, then (optionally) scalar symbolic
    values given by `tir_vars`. The caller allocates the outputs with the
    result types; at graph level the call is pure.

    ```mlir
    %y = relax.call_tir @add_one(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %z = relax.call_tir @pad(%x) tir_vars(#relax.shape<[n + 1]>)
           : (!relax.tensor<[n], f32>) -> !relax.tensor<[n + 1], f32>
    ```
    The verifier checks the callee's buffer shapes against the argument and
    result types under the binding of the callee's variables.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$inputs,
                       OptionalAttr<Relax_ShapeExprAttr>:$tir_vars);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` (`tir_vars` `(` qualified($tir_vars)^ `)`)? attr-dict `:`
    functional-type($inputs, results)
  }];
}

// Not Pure: it writes into its aliased inputs. The verifier makes the
// update invisible at graph level (no later reader of an updated input), so
// dataflow regions admit it (DataflowOp::verify), but nothing may erase or
// duplicate it: an argument updated in place is the caller's buffer.
def Relax_CallTIRInplaceOp : Relax_Op<"call_tir_inplace", [
    MemoryEffects<[MemWrite]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls a loop-level program that updates some inputs in place";
  let description = [{
    Like `relax.call_tir`, but result `i` is input `inplace_indices[i]`
    updated in place, or a fresh output for `-1`. The callee's parameters
    are the inputs, then one buffer per fresh output (`-1`) in result order,
    then the `tir_vars`; it writes the aliased inputs through their own
    parameters. An aliased result has exactly the type of its input.

    The input's buffer is updated and becomes the result: the old value is
    gone. The verifier follows each updated input to the storage it lives
    in (through views, casts, tuples, dataflow results and `relax.call`;
    StorageRoot.h) and rejects any use of a value sharing that storage that
    may run after the call (a later op of the same block, or of a block
    around it), an input updated twice by one call, and an update of a
    `relax.constant`'s storage, whatever wraps it. A function parameter
    updated in place is the caller's buffer: the caller sees the new
    contents.

    ```mlir
    // cache[:, :, pos : pos + s, :] = k
    %c = relax.call_tir_inplace @append(%cache, %k) inplace_indices([0])
           tir_vars(#relax.shape<[pos]>)
           : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>)
             -> !relax.tensor<[1, h, m, d], f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$inputs,
                       DenseI64ArrayAttr:$inplace_indices,
                       OptionalAttr<Relax_ShapeExprAttr>:$tir_vars);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` `inplace_indices` `(` $inplace_indices `)`
    (`tir_vars` `(` qualified($tir_vars)^ `)`)? attr-dict `:`
    functional-type($inputs, results)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The input that result `i` updates in place, or null for a fresh
    /// output.
    ::mlir::Value getAliasedInput(unsigned i);
    /// The types of the callee's buffer parameters: the inputs', then the
    /// fresh outputs'.
    ::llvm::SmallVector<::mlir::Type> getCalleeBufferTypes();
  }];
}

def Relax_IfOp : Relax_Op<"if", [
    RecursiveMemoryEffects, NoRegionArguments,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Runs one of two regions on a run-time condition";
  let description = [{
    `cond` is an `i1` or `bool` tensor of rank 0 (`!relax.tensor<[], i1>`).
    Each region ends with `relax.yield` of one value per result. A result's
    type must hold both branches' values (same kind, dtype and rank where
    known): each dim is `?`, a bare variable not bound before, which the
    op binds from the run-time dim of whichever branch ran (binding rule 4
    in docs/relax.md), or an expression checked at run time when the branch
    is not provably equal to it (a provably different dim is an error).
    `relax::joinTypes` computes the join of two branch types, `?` where
    their dims differ; name such a dim with a fresh variable to use it in
    later shapes.

    ```mlir
    %r = relax.if %c -> !relax.tensor<[k], f32> {
      relax.yield %x : !relax.tensor<[n], f32>
    } else {
      %y = relax.concat %x, %x {axis = 0} : ...
      relax.yield %y : !relax.tensor<[2 * n], f32>
    }
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$cond);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $cond `:` qualified(type($cond)) (`->` type($results)^)? $thenRegion
    `else` $elseRegion attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block *thenBlock() { return &getThenRegion().front(); }
    ::mlir::Block *elseBlock() { return &getElseRegion().front(); }
  }];
}

def Relax_WhileOp : Relax_Op<"while", [RecursiveMemoryEffects]> {
  let summary = "Repeats a region while a run-time condition holds";
  let description = [{
    A loop with loop-carried values. `cond` (an `i1` tensor of rank 0) says
    whether the first iteration runs; `inits` are the carried values on
    entry. The body's block arguments are the carried values of the current
    iteration; it ends with `relax.loop_yield %next_cond, %values...`: the
    condition for another iteration and the next carried values. The results
    are the carried values once the condition is false (the `inits` when the
    first condition is false: zero iterations). Trip counts are run-time
    values; the loop is lowered to a branch back to its body (no recursion,
    no stack growth, no pre-allocation by trip count).

    The result types are the carried types, and they are also the types of
    the block arguments. A carried type must hold the initial value and the
    yielded value of every iteration: a dim that is a bare variable not bound
    before the loop is bound afresh from the run-time dim at the start of
    each iteration (and after the loop, from the final value), like
    relax.if's join (binding rule 4 in docs/relax.md); any other dim is
    checked at run time. A yielded value therefore may have another shape
    than the carried value it replaces, e.g. a value that grows by one row an
    iteration:

    ```mlir
    %zero = relax.constant dense<0> : tensor<i64>
    %c0 = relax.less %zero, %m : ... -> !relax.tensor<[], i1>
    %i, %acc = relax.while %c0 : !relax.tensor<[], i1>
        iter_args(%i0, %x0 : !relax.tensor<[], i64>, !relax.tensor<[0, 4], f32>)
        -> !relax.tensor<[], i64>, !relax.tensor<[k, 4], f32> {
    ^bb0(%i: !relax.tensor<[], i64>, %x: !relax.tensor<[k, 4], f32>):
      %row = ... : !relax.tensor<[1, 4], f32>
      %y = relax.concat %x, %row {axis = 0 : i64} : ... -> !relax.tensor<[k + 1, 4], f32>
      %i1 = relax.add %i, %one : ...
      %c = relax.less %i1, %m : ... -> !relax.tensor<[], i1>
      relax.loop_yield %c, %i1, %y : !relax.tensor<[], i1>, !relax.tensor<[], i64>, !relax.tensor<[k + 1, 4], f32>
    }
    ```

    Values defined before the loop may be used in the body. Graph passes
    treat the loop as one opaque op (fusion groups ops inside the body but
    never across its boundary; memory planning does not plan the body).
  }];
  let arguments = (ins Relax_AnyTensor:$cond, Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $cond `:` qualified(type($cond))
    (`iter_args` `(` $inits^ `:` type($inits) `)`)?
    (`->` type($results)^)? $body attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block *bodyBlock() { return &getBody().front(); }
  }];
}

def Relax_LoopYieldOp : Relax_Op<"loop_yield", [
    Pure, HasParent<"WhileOp">, ReturnLike, Terminator]> {
  let summary = "Ends an iteration of relax.while";
  let description = [{
    `cond` (an `i1` tensor of rank 0) says whether another iteration runs;
    `values` are the next carried values, one per result of the loop.
  }];
  let arguments = (ins Relax_AnyTensor:$cond, Variadic<AnyType>:$values);
  let assemblyFormat = [{
    $cond (`,` $values^)? attr-dict `:` qualified(type($cond))
    (`,` type($values)^)?
  }];
}

def Relax_YieldOp : Relax_Op<"yield", [
    Pure, HasParent<"IfOp">, ReturnLike, Terminator]> {
  let summary = "Yields the values of a relax.if branch";
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = "attr-dict ($operands^ `:` type($operands))?";
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
}

def Relax_CallDPSPackedOp : Relax_Op<"call_dps_packed", [
    Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Calls a library function in destination-passing style";
  let description = [{
    Calls an `extern.func` declaration whose parameters are the inputs then
    one output per result. Like `call_tir`, the call is pure at graph level:
    the callee writes only the outputs the caller provides, so it may appear
    in dataflow regions.

    ```mlir
    %y = relax.call_dps_packed @cblas_gemm(%a, %b)
           : (!relax.tensor<[n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[n, m], f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$inputs);
  let results = (outs Variadic<AnyType>:$results);
  let assemblyFormat = [{
    $callee `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
  }];
}

#endif // RELAX_STRUCTURE_OPS_TD
