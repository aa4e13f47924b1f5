// Decode-shaped linears, x [s, k] times weights [n, k] (f32, and f16 with
// an f16 result), symbolic s, k and n: below 4 rows the GEMV version runs
// with a warp per output (split-K over the lanes). Used by
// emulate-gemv-split-k.test and ptxas-gemv-split-k.test.
relax.func @gemv_f32(%x: !relax.tensor<[s, k], f32>, %w: !relax.tensor<[n, k], f32>) -> !relax.tensor<[s, n], f32> {
  %y = relax.linear %x, %w : (!relax.tensor<[s, k], f32>, !relax.tensor<[n, k], f32>) -> !relax.tensor<[s, n], f32>
  relax.return %y : !relax.tensor<[s, n], f32>
}

relax.func @gemv_f16(%h: !relax.tensor<[s, k], f16>, %wh: !relax.tensor<[n, k], f16>) -> !relax.tensor<[s, n], f16> {
  %z = relax.linear %h, %wh : (!relax.tensor<[s, k], f16>, !relax.tensor<[n, k], f16>) -> !relax.tensor<[s, n], f16>
  relax.return %z : !relax.tensor<[s, n], f16>
}
