//===- RelaxLinearAlgebraOps.td - matmul and linear --------*- tablegen -*-===//
#ifndef RELAX_LINEARALGEBRA_OPS_TD
#define RELAX_LINEARALGEBRA_OPS_TD

def Relax_MatmulOp : Relax_TensorOp<"matmul"> {
  let summary = "Matrix product with numpy matmul semantics";
  let description = [{
    `lhs [..., n, k] x rhs [..., k, m] -> [..., n, m]`. The leading (batch)
    dims broadcast by numpy's rules (provably different and neither 1 is an
    error, undecidable becomes `?`). A 1-D lhs `[k]` is treated as `[1, k]`
    and a 1-D rhs `[k]` as `[k, 1]`; the added dim is removed from the
    result, so `[n, k] x [k] -> [n]` and `[k] x [k] -> []`. Rank 0 operands
    are an error; unknown rank on either side gives an unknown-rank result.

    The contraction dims `k` are checked symbolically: provably different is
    an error naming both (`[n, k] x [k + 1, m]`). When they cannot be proven
    equal or different (`[n, k] x [j, m]`) the op is accepted: the result
    shape does not depend on `k`, and the lowering checks that the two dims
    agree at run time.

    Both operands must have the same dtype, not i1. The result has
    `out_dtype` when given (e.g. f16 inputs accumulated into f32), else the
    operands' dtype.

    ```mlir
    %y = relax.matmul %a, %b : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[b, n, m], f32>
    %z = relax.matmul %h, %w {out_dtype = f32} : (!relax.tensor<[n, k], f16>, !relax.tensor<[k, m], f16>) -> !relax.tensor<[n, m], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$lhs, Relax_AnyTensor:$rhs,
                       OptionalAttr<TypeAttr>:$out_dtype);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_LinearOp : Relax_TensorOp<"linear"> {
  let summary = "Fully connected layer x * W^T + b";
  let description = [{
    `x [..., in]`, `weight [out, in]` and an optional `bias`: the result is
    `matmul(x, transpose(weight)) + bias`, so `[..., out]`. `weight` must
    have rank 2. The `in` dims follow matmul's contraction rule (provably
    different is an error; undecidable is accepted and checked at run time
    by the lowering). The bias broadcasts against `[..., out]` by the binary
    ops' rules (usually it is `[out]`; provably incompatible is an error,
    undecidable dims become `?`). All operands share one dtype, not i1.
    Unknown rank anywhere gives an unknown-rank result.

    ```mlir
    %y = relax.linear %x, %w, %b : (!relax.tensor<[n, 16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$x, Relax_AnyTensor:$weight,
                       Optional<Relax_AnyTensor>:$bias);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_EinsumOp : Relax_TensorOp<"einsum"> {
  let summary = "Einstein summation over any number of operands";
  let description = [{
    ONNX Einsum (numpy's einsum): `equation` has one comma-separated term
    of labels (letters `a`-`z`, `A`-`Z`) per operand, optionally `->` and
    the output term; spaces are ignored. A label names the same dim
    wherever it appears: repeated within one term it reads the diagonal
    (`ii->i`); absent from the output it is summed (`ij,jk->ik`, `ii` is
    the trace). Without `->` the output is `...` followed by the labels
    that appear exactly once, in ASCII order (uppercase first). `...` (at
    most once per term) stands for the dims not named by letters; the
    ellipsis dims of all operands broadcast by numpy's rules
    (right-aligned) into the output's `...`, which an explicit output must
    contain when there are any.

    Inference: the dims of each label are compared with the symbolic
    engine: provably different is an error naming the label and both
    dims; undecidable is accepted, the label's output dim becomes `?`, and
    a summed label is checked at run time (relax.assert_dims). Malformed
    equations (unknown characters, a lone `.` or `-`, a term count or rank
    that does not match its operand, output labels that are repeated or
    absent from the inputs) are errors naming the position. Operands share
    one dtype, not i1. An operand of unknown rank gives `?` dims, or an
    unknown-rank result when its term has `...`.

    ```mlir
    %y = relax.einsum %a, %b {equation = "bij,bjk->bik"} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[b, k, m], f32>) -> !relax.tensor<[b, n, m], f32>
    %t = relax.einsum %x {equation = "...ii->..."} : (!relax.tensor<[n, 4, 4], f32>) -> !relax.tensor<[n], f32>
    ```
  }];
  let arguments = (ins Variadic<Relax_AnyTensor>:$inputs, StrAttr:$equation);
  let results = (outs Relax_AnyTensor:$result);
}

#endif // RELAX_LINEARALGEBRA_OPS_TD
