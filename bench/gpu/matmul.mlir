// The GPU GEMM benchmark: [m, k] x [k, n] with symbolic sizes, compiled by
// --lower-to-gpu; bench/gpu/run.sh compares it with cublasSgemm.
relax.func @main(%a: !relax.tensor<[m, k], f32>, %b: !relax.tensor<[k, n], f32>)
    -> !relax.tensor<[m, n], f32> {
  %c = relax.matmul %a, %b : (!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>) -> !relax.tensor<[m, n], f32>
  relax.return %c : !relax.tensor<[m, n], f32>
}
