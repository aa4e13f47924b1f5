// The GPU bandwidth benchmark: c = a + b over a symbolic length n (one
// kernel reading 2 and writing 1 array: 12 bytes per element).
relax.func @main(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[n], f32>)
    -> !relax.tensor<[n], f32> {
  %c = relax.add %a, %b : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %c : !relax.tensor<[n], f32>
}
