// Injective programs for the 128-bit accesses of the GPU schedule
// (vectorizeInjective, issue 33): each thread computes 4 f32 / 8 f16
// consecutive outputs. Used by emulate-wide-accesses.test and
// sass-wide-loads.test.
// @add_bias: x + y, then + a broadcast bias: x and y are read at the
// output's position (vector loads), the bias [m] is not (scalar loads).
relax.func @add_bias(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[n, m], f32>, %b: !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32> {
  %s = relax.add %x, %y : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %t = relax.add %s, %b : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %t : !relax.tensor<[n, m], f32>
}

// @mul_f16: 8 lanes of f16 per access.
relax.func @mul_f16(%a: !relax.tensor<[n], f16>, %c: !relax.tensor<[n], f16>) -> !relax.tensor<[n], f16> {
  %p = relax.multiply %a, %c : (!relax.tensor<[n], f16>, !relax.tensor<[n], f16>) -> !relax.tensor<[n], f16>
  relax.return %p : !relax.tensor<[n], f16>
}

// @widen: f16 to f32, 4 lanes (the wider dtype decides): 64-bit loads,
// 128-bit stores.
relax.func @widen(%h: !relax.tensor<[n, m], f16>) -> !relax.tensor<[n, m], f32> {
  %w = relax.astype %h {dtype = f32} : (!relax.tensor<[n, m], f16>) -> !relax.tensor<[n, m], f32>
  relax.return %w : !relax.tensor<[n, m], f32>
}

// @static_exp: 24 elements, a multiple of 4: no tail version.
relax.func @static_exp(%x: !relax.tensor<[4, 6], f32>) -> !relax.tensor<[4, 6], f32> {
  %e = relax.exp %x : (!relax.tensor<[4, 6], f32>) -> !relax.tensor<[4, 6], f32>
  relax.return %e : !relax.tensor<[4, 6], f32>
}

// @transpose: the store is at the output's position, the load is not:
// scalar loads, one vector store.
relax.func @transpose(%x: !relax.tensor<[n, m], f32>) -> !relax.tensor<[m, n], f32> {
  %t = relax.permute_dims %x {axes = array<i64: 1, 0>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[m, n], f32>
  relax.return %t : !relax.tensor<[m, n], f32>
}
