//===- RelaxReductionOps.td - reductions and scans ---------*- tablegen -*-===//
//
// Reductions over a set of axes (sum, mean, ...), index reductions (argmax,
// argmin), normalisations along one axis (softmax) and scans (cumsum). The
// shared axes rule lives in normalizeAxes / reduceShape (ShapeInference.h).
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_REDUCTION_OPS_TD
#define RELAX_REDUCTION_OPS_TD

// Reduction over `axes`; the result keeps the input dtype.
class Relax_ReduceOp<string mnemonic, string what>
    : Relax_TensorOp<mnemonic> {
  let summary = "Reduces a tensor by " # what # " over the given axes";
  let description = [{
    Reduces `input` over `axes` (all axes when absent; an empty list reduces
    nothing). Negative axes count from the end; an axis out of range or named
    twice (e.g. `1` and `-2` on a rank-3 tensor) is an error. The reduced
    dims are removed, or kept as 1 with `keepdims = true`; the other dims are
    copied unchanged (symbolic expressions included) and the dtype is kept.
    An input of unknown rank gives a result of unknown rank (the axes can
    then only be checked for literal repeats).

    ```mlir
    %y = relax.}] # mnemonic # [{ %x {axes = array<i64: 1>, keepdims = true} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, 1, 4], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       OptionalAttr<DenseI64ArrayAttr>:$axes,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_SumOp : Relax_ReduceOp<"sum", "summation">;
def Relax_MeanOp : Relax_ReduceOp<"mean", "arithmetic mean">;
def Relax_MaxOp : Relax_ReduceOp<"max", "maximum">;
def Relax_MinOp : Relax_ReduceOp<"min", "minimum">;
def Relax_ProdOp : Relax_ReduceOp<"prod", "product">;
def Relax_VarianceOp : Relax_ReduceOp<"variance", "population variance">;

// Index of the extreme element along one axis; the result is i64.
class Relax_ArgReduceOp<string mnemonic, string what>
    : Relax_TensorOp<mnemonic> {
  let summary = "Index of the " # what # " element along an axis";
  let description = [{
    Returns the i64 index of the }] # what # [{ element along `axis`
    (negative counts from the end), or the flat index over all elements
    when `axis` is absent. The reduced dim is removed, or kept as 1 with
    `keepdims = true` (without `axis`, every dim becomes 1). An out-of-range
    axis is an error; unknown rank gives unknown rank.

    ```mlir
    %i = relax.}] # mnemonic # [{ %x {axis = -1 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], i64>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       OptionalAttr<I64Attr>:$axis,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdims);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_ArgmaxOp : Relax_ArgReduceOp<"argmax", "largest">;
def Relax_ArgminOp : Relax_ArgReduceOp<"argmin", "smallest">;

// Normalisation along one axis; the result has the input's type.
class Relax_SoftmaxLikeOp<string mnemonic, string what>
    : Relax_TensorOp<mnemonic> {
  let summary = what # " along an axis";
  let description = [{
    Computes }] # what # [{ along `axis` (default -1, negative counts from
    the end). The result has the input's type. The input must have a
    floating-point dtype; an out-of-range axis is an error (not checked for
    an input of unknown rank).

    ```mlir
    %y = relax.}] # mnemonic # [{ %x {axis = 1 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_SoftmaxOp : Relax_SoftmaxLikeOp<"softmax", "Softmax">;
def Relax_LogSoftmaxOp : Relax_SoftmaxLikeOp<"log_softmax", "Log-softmax">;

def Relax_CumsumOp : Relax_TensorOp<"cumsum"> {
  let summary = "Cumulative sum along an axis";
  let description = [{
    Inclusive prefix sum along `axis` (negative counts from the end): the
    result has the input's shape. Without `axis` the input is flattened
    first and the result is 1-D with the element count (the product of the
    dims, `?` when a dim or the rank is unknown). `dtype` sets the result
    (and accumulation) dtype; it defaults to the input's.

    ```mlir
    %y = relax.cumsum %x {axis = 0 : i64, dtype = i64} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i64>
    %f = relax.cumsum %x : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n * 4], i32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$input,
                       OptionalAttr<I64Attr>:$axis,
                       OptionalAttr<TypeAttr>:$dtype);
  let results = (outs Relax_AnyTensor:$result);
}

#endif // RELAX_REDUCTION_OPS_TD
