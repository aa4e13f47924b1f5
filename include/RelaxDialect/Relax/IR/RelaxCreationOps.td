//===- RelaxCreationOps.td - tensor creation ops -----------*- tablegen -*-===//
//
// Ops that make a tensor from attributes (full, zeros, ones, arange) or from
// another tensor's shape (full_like, zeros_like, ones_like).
//
// Format: the *_like ops keep the base class's format. The ops without
// operands print `relax.zeros {attrs} : !relax.tensor<...>` (just the result
// type, no `() ->`). Their attributes are the source of the result type (the
// generic form must infer it too), and the printed result type is checked
// against them like every other op's.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_CREATION_OPS_TD
#define RELAX_CREATION_OPS_TD

// An op that builds a tensor of the given symbolic `shape` and `dtype`.
class Relax_ShapeCreationOp<string mnemonic, list<Trait> traits = []>
    : Relax_TensorOp<mnemonic, traits> {
  let results = (outs Relax_AnyTensor:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def Relax_FullOp : Relax_ShapeCreationOp<"full"> {
  let summary = "A tensor filled with one value";
  let description = [{
    A tensor of shape `shape` and dtype `dtype` whose every element is
    `value`. The shape's dims are used as written (canonical symbolic
    expressions); `*`, `?` and provably negative dims are errors, as is an
    unsupported dtype. On integer dtypes `value` must be an integer that the
    dtype can hold (0 or 1 for i1).

    ```mlir
    %t = relax.full {dtype = f32, shape = #relax.shape<[n, m * 2]>, value = 1.5 : f64} : !relax.tensor<[n, m * 2], f32>
    ```
  }];
  let arguments = (ins Relax_ShapeExprAttr:$shape, F64Attr:$value,
                       TypeAttr:$dtype);
}

def Relax_ZerosOp : Relax_ShapeCreationOp<"zeros"> {
  let summary = "A tensor of zeros";
  let description = [{
    Like `relax.full` with value 0: the result has shape `shape` (no `*`,
    `?` or provably negative dims) and dtype `dtype`.

    ```mlir
    %z = relax.zeros {dtype = f32, shape = #relax.shape<[n, 4]>} : !relax.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins Relax_ShapeExprAttr:$shape, TypeAttr:$dtype);
}

def Relax_OnesOp : Relax_ShapeCreationOp<"ones"> {
  let summary = "A tensor of ones";
  let description = [{
    Like `relax.full` with value 1: the result has shape `shape` (no `*`,
    `?` or provably negative dims) and dtype `dtype`.

    ```mlir
    %o = relax.ones {dtype = i64, shape = #relax.shape<[n]>} : !relax.tensor<[n], i64>
    ```
  }];
  let arguments = (ins Relax_ShapeExprAttr:$shape, TypeAttr:$dtype);
}

// An op that builds a tensor shaped like its operand; `dtype` overrides the
// operand's dtype when present.
class Relax_LikeCreationOp<string mnemonic, string what, dag extraArgs,
                           string exampleAttrs>
    : Relax_TensorOp<mnemonic> {
  let summary = "A tensor of " # what # " shaped like the input";
  let description = [{
    The result has the input's shape (unknown rank stays unknown rank) and
    the input's dtype, or `dtype` when given (it must be a relax dtype).

    ```mlir
    %y = relax.}] # mnemonic # [{ %x }] # exampleAttrs # [{: (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    ```
  }];
  let arguments = !con((ins Relax_AnyTensor:$input), extraArgs,
                       (ins OptionalAttr<TypeAttr>:$dtype));
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_ZerosLikeOp : Relax_LikeCreationOp<"zeros_like", "zeros", (ins),
                                             "">;
def Relax_OnesLikeOp : Relax_LikeCreationOp<"ones_like", "ones", (ins), "">;
def Relax_FullLikeOp : Relax_LikeCreationOp<"full_like", "one value",
                                            (ins F64Attr:$value),
                                            "{value = 2.0 : f64} "> {
  let summary = "A tensor filled with `value`, shaped like the input";
}

def Relax_ArangeOp : Relax_ShapeCreationOp<"arange"> {
  let summary = "Evenly spaced values in [start, end)";
  let description = [{
    The 1-D tensor `start, start + step, ...` stopping before `end`. The
    bounds and step are symbolic integer expressions; `dtype` is any relax
    dtype but i1. The length is `ceildiv(end - start, step)` for a
    positive step (`ceildiv(start - end, -step)` for a negative one),
    clamped at 0, simplified symbolically: `arange(0, n, 1)` has length
    `n`, `arange(0, n, 2)` has `(n + 1) floordiv 2`. The clamp `max(.., 0)`
    is kept only when the sign of `end - start` cannot be decided.

    The step must be a nonzero constant or a symbolic expression that is
    provably positive (e.g. `s + 1`); a zero step, or a symbolic step that
    might be zero or negative, is an error.

    ```mlir
    %r = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<2>} : !relax.tensor<[(n + 1) floordiv 2], i64>
    ```
  }];
  let arguments = (ins Relax_SymExprAttr:$start, Relax_SymExprAttr:$end,
                       Relax_SymExprAttr:$step, TypeAttr:$dtype);
}

#endif // RELAX_CREATION_OPS_TD
