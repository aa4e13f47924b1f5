// The decode GEMV of bench/gpu/run.sh: one token x [1, k] times weights
// [n, k] (f32 and f16), symbolic sizes. --lower-to-gpu gives it a warp per
// output (split-K) with 128-bit weight loads when k is a multiple of 4 (f32)
// or 8 (f16), checked per call; the run times k = 4096 (wide loads) and
// k = 4097 (scalar loads: the other version of the same product).
relax.func @gemv_f32(%x: !relax.tensor<[s, k], f32>, %w: !relax.tensor<[n, k], f32>) -> !relax.tensor<[s, n], f32> {
  %y = relax.linear %x, %w : (!relax.tensor<[s, k], f32>, !relax.tensor<[n, k], f32>) -> !relax.tensor<[s, n], f32>
  relax.return %y : !relax.tensor<[s, n], f32>
}

relax.func @gemv_f16(%x: !relax.tensor<[s, k], f16>, %w: !relax.tensor<[n, k], f16>) -> !relax.tensor<[s, n], f16> {
  %y = relax.linear %x, %w : (!relax.tensor<[s, k], f16>, !relax.tensor<[n, k], f16>) -> !relax.tensor<[s, n], f16>
  relax.return %y : !relax.tensor<[s, n], f16>
}
