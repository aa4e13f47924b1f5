// gemm-isa-levels.test: x @ W and linear(x, V) with symbolic m, both
// through the runtime's extern matmul built-ins.
relax.func @main(%x: !relax.tensor<[m, 67], f32>, %w: !relax.tensor<[67, 131], f32>,
                 %v: !relax.tensor<[131, 67], f32>)
    -> (!relax.tensor<[m, 131], f32>, !relax.tensor<[m, 131], f32>) {
  %a = relax.matmul %x, %w : (!relax.tensor<[m, 67], f32>, !relax.tensor<[67, 131], f32>) -> !relax.tensor<[m, 131], f32>
  %b = relax.linear %x, %v : (!relax.tensor<[m, 67], f32>, !relax.tensor<[131, 67], f32>) -> !relax.tensor<[m, 131], f32>
  relax.return %a, %b : !relax.tensor<[m, 131], f32>, !relax.tensor<[m, 131], f32>
}
