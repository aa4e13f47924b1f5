// The products the tensor-core schedule takes (TensorCoreMatmul.cpp), with
// symbolic m, n and k: @f32, an f16 matmul into f32 (out_dtype; a k x n
// weight); @main, a batched bf16 linear (an n x k weight) and a batched f16
// matmul with f16 output (both accumulated in f32 on the tensor cores,
// rounded once); @aligned, k = 64 (a multiple of 8: the operands read
// along k are staged with 16-byte cp.async), an f16 linear into f16 and a
// bf16 matmul into f32 with a k x n weight (staged element by element).
// Inputs and references: tensor_core_matmul.py.
relax.func @f32(%x: !relax.tensor<[m, k], f16>, %w: !relax.tensor<[k, n], f16>)
    -> !relax.tensor<[m, n], f32> {
  %y = relax.matmul %x, %w {out_dtype = f32} : (!relax.tensor<[m, k], f16>, !relax.tensor<[k, n], f16>) -> !relax.tensor<[m, n], f32>
  relax.return %y : !relax.tensor<[m, n], f32>
}

relax.func @main(%xb: !relax.tensor<[2, m, k], bf16>, %wb: !relax.tensor<[n, k], bf16>,
                 %xh: !relax.tensor<[2, m, k], f16>, %wh: !relax.tensor<[2, k, n], f16>)
    -> (!relax.tensor<[2, m, n], bf16>, !relax.tensor<[2, m, n], f16>) {
  %y1 = relax.linear %xb, %wb : (!relax.tensor<[2, m, k], bf16>, !relax.tensor<[n, k], bf16>) -> !relax.tensor<[2, m, n], bf16>
  %y2 = relax.matmul %xh, %wh : (!relax.tensor<[2, m, k], f16>, !relax.tensor<[2, k, n], f16>) -> !relax.tensor<[2, m, n], f16>
  relax.return %y1, %y2 : !relax.tensor<[2, m, n], bf16>, !relax.tensor<[2, m, n], f16>
}

relax.func @aligned(%x: !relax.tensor<[m, 64], f16>, %w: !relax.tensor<[n, 64], f16>,
                    %xb: !relax.tensor<[m, 64], bf16>, %wb: !relax.tensor<[64, n], bf16>)
    -> (!relax.tensor<[m, n], f16>, !relax.tensor<[m, n], f32>) {
  %y0 = relax.linear %x, %w : (!relax.tensor<[m, 64], f16>, !relax.tensor<[n, 64], f16>) -> !relax.tensor<[m, n], f16>
  %y1 = relax.matmul %xb, %wb {out_dtype = f32} : (!relax.tensor<[m, 64], bf16>, !relax.tensor<[64, n], bf16>) -> !relax.tensor<[m, n], f32>
  relax.return %y0, %y1 : !relax.tensor<[m, n], f16>, !relax.tensor<[m, n], f32>
}
