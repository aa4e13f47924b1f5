// The GEMM benchmark: [m, k] x [k, n] with symbolic sizes. bench/cpu/run.sh
// runs it once through --relax-dispatch-library (the extern BLAS call) and
// once through the compiler's own loops.
relax.func @main(%a: !relax.tensor<[m, k], f32>, %b: !relax.tensor<[k, n], f32>)
    -> !relax.tensor<[m, n], f32> {
  %c = relax.matmul %a, %b : (!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>) -> !relax.tensor<[m, n], f32>
  relax.return %c : !relax.tensor<[m, n], f32>
}
