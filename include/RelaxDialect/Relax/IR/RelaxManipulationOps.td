//===- RelaxManipulationOps.td - Manipulation ops ----------*- tablegen -*-===//
//
// Ops that move, copy or reinterpret elements without computing on them:
// reshapes, transposes, concatenation and splitting, slicing, gathering and
// tiling. Their shape inference is the interesting part: result dims are
// canonical symbolic expressions of the operand dims and attributes, every
// requirement is checked with the symbolic engine (provably violated: error;
// undecidable: documented per op, either `?` or a run-time check).
// Inference lives in lib/Relax/IR/ManipulationOps.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_MANIPULATION_OPS_TD
#define RELAX_MANIPULATION_OPS_TD

def Relax_ReshapeOp : Relax_TensorOp<"reshape"> {
  let summary = "Reinterprets a tensor with another shape";
  let description = [{
    The target `shape` is a list of symbolic expressions; at most one entry
    may be `-1`, which stands for the element count of the input divided by
    the product of the other entries. Other negative entries and `?` are
    rejected.

    Inference: the result shape is the target. For a `-1` entry, when the
    input's element count is known and provably divisible by the product of
    the other entries the entry becomes the exact quotient (`[n, 6]` to
    `[n * 2, -1]` gives `[n * 2, 3]`); provably not divisible is an error;
    otherwise it is `?`. Without `-1`, the element counts of input and target
    are compared: provably different is an error naming both counts,
    provably equal or undecidable is accepted (an undecidable count is
    checked at run time). "Different" is proven for non-empty tensors
    (every variable >= 1): `[n, 4]` to `[n, 5]` is rejected although both
    counts are 0 when n = 0. An input of unknown rank (`*`) is accepted; the
    target alone gives the result (a `-1` entry then becomes `?`).

    Canonicalisation: reshape of a reshape becomes one reshape; a reshape
    whose result type equals its input type (the same canonical dims, no
    `?`) folds away.

    ```mlir
    %y = relax.reshape %x {shape = #relax.shape<[n, 4 * m]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[n, m * 4], f32>
    %z = relax.reshape %x {shape = #relax.shape<[-1]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[m * n * 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_ShapeExprAttr:$shape);
  let results = (outs Relax_AnyTensor:$result);
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Relax_PermuteDimsOp : Relax_TensorOp<"permute_dims"> {
  let summary = "Permutes the dims of a tensor";
  let description = [{
    Result dim `i` is input dim `axes[i]`. `axes` must be a permutation of
    the input's dims (negative entries count from the end); without `axes`
    the dims are reversed. An input of unknown rank gives an unknown-rank
    result without `axes`, and `axes.size()` unknown dims with them.

    Folding: an identity permutation folds to the input; a permutation of
    a permutation folds into one (`p[q[i]]`), and to the input when that
    is the identity.

    ```mlir
    %y = relax.permute_dims %x {axes = array<i64: 2, 0, 1>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[4, n, m], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs Relax_AnyTensor:$result);
  let hasFolder = 1;
}

def Relax_ExpandDimsOp : Relax_TensorOp<"expand_dims"> {
  let summary = "Inserts dims of size 1";
  let description = [{
    Each entry of `axes` is a position in the result (rank = input rank +
    `axes.size()`; negative entries count from the end of the result) that
    gets a new dim of 1; the input dims fill the other positions in order.
    Duplicate axes are an error. Unknown rank gives unknown rank.

    ```mlir
    %y = relax.expand_dims %x {axes = array<i64: 0, -1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[1, n, m, 1], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, DenseI64ArrayAttr:$axes);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_SqueezeOp : Relax_TensorOp<"squeeze"> {
  let summary = "Removes dims of size 1";
  let description = [{
    With `axes`, the listed dims are removed: a listed dim that is provably
    not 1 is an error; a listed dim that is neither provably 1 nor provably
    not 1 (`n`, `?`) is removed and its being 1 is checked at run time.
    Without `axes`, every dim that is provably 1 is removed; if some dim is
    undecidable the result rank itself is unknown, so the result is `*`
    (no silent assumption that `n` is not 1). Unknown rank gives unknown
    rank.

    Folding: `squeeze(expand_dims(x, axes), axes)` folds to `x`.

    ```mlir
    %y = relax.squeeze %x {axes = array<i64: 1>} : (!relax.tensor<[n, 1, 4], f32>) -> !relax.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$axes);
  let results = (outs Relax_AnyTensor:$result);
  let hasFolder = 1;
}

def Relax_FlattenOp : Relax_TensorOp<"flatten"> {
  let summary = "Flattens a tensor to one dimension";
  let description = [{
    Like TVM's `relax.op.flatten`, the result is 1-D (not numpy's
    keep-the-batch-dim `flatten`): its one dim is the product of the input
    dims, canonicalised (`[n, 4, m]` gives `[m * n * 4]`); `?` when a dim
    or the rank is unknown. A rank-0 input gives `[1]`.

    ```mlir
    %y = relax.flatten %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input);
  let results = (outs Relax_AnyTensor:$result);
  let hasFolder = 1;
}

def Relax_BroadcastToOp : Relax_TensorOp<"broadcast_to"> {
  let summary = "Broadcasts a tensor to a shape";
  let description = [{
    numpy rules against the target `shape` (right-aligned; the target rank
    must be at least the input rank): an input dim must be 1 or equal the
    target dim. Provably neither is an error; undecidable pairs (e.g. `n`
    against `m`) are accepted and checked at run time. The result shape is
    the target. An input of unknown rank is accepted.

    ```mlir
    %y = relax.broadcast_to %x {shape = #relax.shape<[b, n, 4]>} : (!relax.tensor<[n, 1], f32>) -> !relax.tensor<[b, n, 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_ShapeExprAttr:$shape);
  let results = (outs Relax_AnyTensor:$result);
  let hasFolder = 1;
}

def Relax_ConcatOp : Relax_TensorOp<"concat"> {
  let summary = "Concatenates tensors along an axis";
  let description = [{
    All inputs have the same dtype and rank. Along `axis` the result dim is
    the canonical sum of the input dims (`?` if one is unknown). Every other
    dim must agree across inputs: a provably different pair is an error
    naming both dims; where equality cannot be proven (`h` against
    `(h floordiv 2) * 2`, an upsampled map concatenated with a skip
    connection) the result keeps the simplest of them (a constant, a bare
    variable, else the shortest) and the others are checked against it at
    run time (relax.assert_dims, inserted by legalization). Inputs
    of unknown rank contribute unknown dims; if every input has unknown
    rank the result does too.

    Folding: a concat of one input is that input.

    ```mlir
    %y = relax.concat %a, %b {axis = 0 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>) -> !relax.tensor<[n + m, 4], f32>
    ```
  }];
  let arguments = (ins Variadic<Relax_AnyTensor>:$inputs,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Relax_AnyTensor:$result);
  let hasFolder = 1;
}

def Relax_SplitOp : Relax_TensorOp<"split"> {
  let summary = "Splits a tensor along an axis into several results";
  let description = [{
    Exactly one of `sections` and `indices` is given.

    `sections = s` (s >= 1) gives s results whose `axis` dim is `d floordiv
    s`: a constant `d` must be divisible by s and a symbolic `d` provably
    not divisible is an error; when divisibility is undecidable (or `d` is
    `?`) the dim is `?` and divisibility is checked at run time.

    `indices = #relax.shape<[i0, ..., ik]>` (symbolic, non-negative) gives
    k + 2 results with dims `i0, i1 - i0, ..., d - ik`. Indices that are
    provably out of order (or past `d`) are an error; undecidable order is
    assumed and checked at run time (no clamping, unlike numpy). An unknown
    `d` makes the last dim `?`.

    Inputs of unknown rank give unknown-rank results.

    ```mlir
    %a, %b, %c = relax.split %x {axis = 1 : i64, sections = 3 : i64} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], f32>, !relax.tensor<[n, 2], f32>)
    %p, %q = relax.split %y {indices = #relax.shape<[k]>} : (!relax.tensor<[n], f32>) -> (!relax.tensor<[k], f32>, !relax.tensor<[-k + n], f32>)
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       OptionalAttr<I64Attr>:$sections,
                       OptionalAttr<Relax_ShapeExprAttr>:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Variadic<Relax_AnyTensor>:$results);
}

def Relax_StridedSliceOp : Relax_TensorOp<"strided_slice"> {
  let summary = "Slices a tensor with per-axis begin, end and stride";
  let description = [{
    For each listed axis (dim `d`), `begin`/`end` are symbolic expressions
    and `strides` constants (default 1, never 0). A negative constant bound
    counts from the end (`b + d`); symbolic bounds are used as given.

    Positive stride `s`: the bounds are clamped to `[0, d]` and the dim is
    `max(ceildiv(end' - begin', s), 0)`. Negative stride: the bounds are
    clamped to `[-1, d - 1]` and the dim is
    `max(ceildiv(begin' - end', -s), 0)`. Every clamp is built with the
    symbolic `min`/`max` and simplified with the symbolic engine (variables
    >= 0, no function facts), so a clamp that is provably inactive
    disappears and the others stay in the dim: `[0 : k]` on `n` gives
    `min(k, n)`, `[2 : n]` gives `n - min(n, 2)`, `[1 : 3]` on `4` gives `2`.
    An unknown `d`, or a `?` bound, gives `?`. Unknown rank gives
    unknown rank. Unlisted axes keep their dim.

    ```mlir
    %y = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[1]>, end = #relax.shape<[k]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[max(min(k, n) - min(n, 1), 0), 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, DenseI64ArrayAttr:$axes,
                       Relax_ShapeExprAttr:$begin, Relax_ShapeExprAttr:$end,
                       OptionalAttr<DenseI64ArrayAttr>:$strides);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_TakeOp : Relax_TensorOp<"take"> {
  let summary = "Gathers slices along an axis by integer indices";
  let description = [{
    Result shape `x.shape[:axis] + indices.shape + x.shape[axis + 1:]`;
    without `axis` the input is flattened first and the result has the
    indices' shape. Indices must have an integer dtype (i8 to i64, ui8 to ui64);
    their values are checked at run time. Unknown rank of either operand
    gives unknown rank.

    ```mlir
    %y = relax.take %x, %i {axis = 0 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k], i64>) -> !relax.tensor<[k, 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, Relax_AnyTensor:$indices,
                       OptionalAttr<I64Attr>:$axis);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_TileOp : Relax_TensorOp<"tile"> {
  let summary = "Repeats a whole tensor along each dim";
  let description = [{
    numpy `tile`: `repeats` (non-negative constants) and the input shape are
    right-aligned, the shorter padded with 1s; each result dim is the
    canonical product `d * r`. Unknown rank gives unknown rank.

    Folding: all repeats 1 with no new dims folds to the input.

    ```mlir
    %y = relax.tile %x {repeats = array<i64: 2, 1>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 2, 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, DenseI64ArrayAttr:$repeats);
  let results = (outs Relax_AnyTensor:$result);
  let hasFolder = 1;
}

def Relax_RepeatOp : Relax_TensorOp<"repeat"> {
  let summary = "Repeats each element along an axis";
  let description = [{
    numpy `repeat` with a constant count (`repeats` >= 0): the `axis` dim is
    multiplied by it; without `axis` the input is flattened and the result
    is `[numel * repeats]` (`?` when unknown). Unknown rank with an axis
    gives unknown rank.

    ```mlir
    %y = relax.repeat %x {axis = 1 : i64, repeats = 3 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m * 3], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, I64Attr:$repeats,
                       OptionalAttr<I64Attr>:$axis);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_TriluOp : Relax_TensorOp<"trilu"> {
  let summary = "Keeps the upper or lower triangle of the last two dims";
  let description = [{
    ONNX `Trilu` (numpy `triu` / `tril`) on the last two dims of a tensor of
    rank >= 2; leading dims are a batch. With `upper`, element `[..., i, j]`
    is kept when `j - i >= k` and set to 0 otherwise; without it, kept when
    `j - i <= k`. The diagonal offset `k` is a symbolic expression (default
    0) and may be negative. The result has the input's type; unknown rank
    gives unknown rank. Every dtype is accepted (i1: false).

    ```mlir
    %y = relax.trilu %x {k = #relax.expr<m - 1>, upper = false} : (!relax.tensor<[b, n, n], f32>) -> !relax.tensor<[b, n, n], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input, BoolAttr:$upper,
                       OptionalAttr<Relax_SymExprAttr>:$k);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_PadOp : Relax_TensorOp<"pad"> {
  let summary = "Pads (or crops) every dim";
  let description = [{
    numpy `pad` / ONNX `Pad`: dim `d` gets `pad_before[d]` elements in
    front and `pad_after[d]` behind (one symbolic expression per dim), so
    the result dim is `x + before + after` (`[n, 4]` padded by `(1, 2)` on
    dim 0 gives `[n + 3, 4]`). A negative amount crops, as ONNX allows; a
    result dim that is provably negative is an error, an undecidable one is
    checked at run time. `mode`:
      - `constant` (default): new elements are `value` (an f64, integral for
        integer dtypes, 0 or 1 for i1);
      - `reflect`: mirrored without repeating the edge (`[1, 2, 3]` padded
        by 2 gives `3 2 | 1 2 3 | 2 1`); pads longer than the dim keep
        reflecting, as numpy does;
      - `edge`: the edge element repeated;
      - `wrap`: periodic (`2 3 | 1 2 3 | 1 2`).
    The non-constant modes read the input at every output position, so a
    padded dim must not be empty (checked at run time when symbolic).
    Unknown rank gives unknown rank.

    ```mlir
    %y = relax.pad %x {pad_after = #relax.shape<[2, 0]>, pad_before = #relax.shape<[1, 0]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n + 3, 4], f32>
    %z = relax.pad %x {mode = "reflect", pad_after = #relax.shape<[0, k]>, pad_before = #relax.shape<[0, 1]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, k + 5], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       Relax_ShapeExprAttr:$pad_before,
                       Relax_ShapeExprAttr:$pad_after,
                       DefaultValuedStrAttr<StrAttr, "constant">:$mode,
                       DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_GatherElementsOp : Relax_TensorOp<"gather_elements"> {
  let summary = "Gathers elements along an axis (ONNX GatherElements)";
  let description = [{
    `torch.gather` / numpy `take_along_axis`: `indices` has the data's rank
    and the result has the indices' shape, with
    `result[..., i_axis, ...] = data[..., indices[..., i_axis, ...], ...]`.
    `indices` must have an integer dtype; every value is checked at run time
    to lie in `[-d, d)` for the axis dim `d` (negative counts from the end).
    Each other dim of `indices` must not exceed the data's: provably larger
    is an error, undecidable is checked at run time. `axis` (default 0) may
    be negative. Unknown rank gives the indices' shape.

    ```mlir
    %y = relax.gather_elements %x, %i {axis = 1 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, k], i64>) -> !relax.tensor<[n, k], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$data, Relax_AnyTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$axis);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_GatherNDOp : Relax_TensorOp<"gather_nd"> {
  let summary = "Gathers slices by index tuples (ONNX GatherND)";
  let description = [{
    The last dim of `indices` (a constant `q`) holds index tuples into the
    data dims `batch_dims .. batch_dims + q - 1`; the first `batch_dims`
    dims of data and indices are a shared batch. The result shape is
    `indices.shape[:-1] + data.shape[batch_dims + q:]`. Batch dims that
    provably differ are an error; undecidable ones are checked at run time.
    Every index value is checked at run time against its own data dim `d`:
    `[-d, d)`, negative counting from the end. Unknown rank (or a symbolic
    `q`) gives unknown rank.

    ```mlir
    %y = relax.gather_nd %x, %i {batch_dims = 0 : i64} : (!relax.tensor<[n, m, 4], f32>, !relax.tensor<[k, 2], i64>) -> !relax.tensor<[k, 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$data, Relax_AnyTensor:$indices,
                       DefaultValuedAttr<I64Attr, "0">:$batch_dims);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_ScatterNDOp : Relax_TensorOp<"scatter_nd"> {
  let summary = "Scatters slices by index tuples (ONNX ScatterND)";
  let description = [{
    The result is a copy of `data` in which, for every index tuple
    `indices[p, :]` (last dim a constant `q`), the slice
    `result[indices[p, :]]` is combined with `updates[p]`. `updates` must
    have the shape `indices.shape[:-1] + data.shape[q:]` and the data's
    dtype (provably different dims are an error, undecidable ones are
    checked at run time). `reduction` is `none` (store), `add`, `mul`,
    `max` or `min` (i1: `add` is or, `mul` is and). Updates apply in row-major
    order of `p`, one after the other, so with `none` the last of duplicate
    indices wins (onnxruntime's order); the kernel is a serial loop for that
    reason. Index values are checked at run time as in `gather_nd`.

    ```mlir
    %y = relax.scatter_nd %x, %i, %u {reduction = "add"} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[k, 1], i64>, !relax.tensor<[k, 4], f32>) -> !relax.tensor<[n, 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$data, Relax_AnyTensor:$indices,
                       Relax_AnyTensor:$updates,
                       DefaultValuedStrAttr<StrAttr, "none">:$reduction);
  let results = (outs Relax_AnyTensor:$result);
}

#endif // RELAX_MANIPULATION_OPS_TD
