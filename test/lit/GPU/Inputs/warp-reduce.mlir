// Reductions the warp-shuffle block reduction serves, over a symbolic axis
// k: softmax and rms_norm (f32), an f16 max and an i32 max. Used by
// emulate-warp-reduce.test, ptxas-warp-reduce.test and sass-warp-reduce.test.
relax.func @main(%x: !relax.tensor<[2, k], f32>, %w: !relax.tensor<[k], f32>, %h: !relax.tensor<[3, k], f16>, %i: !relax.tensor<[3, k], i32>)
    -> (!relax.tensor<[2, k], f32>, !relax.tensor<[2, k], f32>, !relax.tensor<[3], f16>, !relax.tensor<[3], i32>) {
  %s = relax.softmax %x : (!relax.tensor<[2, k], f32>) -> !relax.tensor<[2, k], f32>
  %n = relax.rms_norm %x, %w {axes = array<i64: -1>} : (!relax.tensor<[2, k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[2, k], f32>
  %hs = relax.max %h {axes = array<i64: 1>} : (!relax.tensor<[3, k], f16>) -> !relax.tensor<[3], f16>
  %im = relax.max %i {axes = array<i64: 1>} : (!relax.tensor<[3, k], i32>) -> !relax.tensor<[3], i32>
  relax.return %s, %n, %hs, %im : !relax.tensor<[2, k], f32>, !relax.tensor<[2, k], f32>, !relax.tensor<[3], f16>, !relax.tensor<[3], i32>
}
