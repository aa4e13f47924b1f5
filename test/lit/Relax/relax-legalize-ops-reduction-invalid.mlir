// RUN: relax-opt %s --relax-legalize-ops -split-input-file -verify-diagnostics
// Reductions and norms that cannot be legalized fail with a located error
// saying why, instead of producing code that would be wrong at run time.

relax.func @group_norm_indivisible(%x: !relax.tensor<[n, c, h], f32>, %g: !relax.tensor<[c], f32>) -> !relax.tensor<[n, c, h], f32> {
  // expected-error@+1 {{'relax.group_norm' op cannot be legalized: the channel dim c is not provably divisible by num_groups = 4}}
  %0 = relax.group_norm %x, %g, %g {axes = array<i64: 2>, channel_axis = 1 : i64, num_groups = 4 : i64} : (!relax.tensor<[n, c, h], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>) -> !relax.tensor<[n, c, h], f32>
  relax.return %0 : !relax.tensor<[n, c, h], f32>
}

// -----

relax.func @layer_norm_gamma_undecided(%x: !relax.tensor<[n, k], f32>, %g: !relax.tensor<[m], f32>) -> !relax.tensor<[n, k], f32> {
  // expected-error@+1 {{'relax.layer_norm' op cannot be legalized: gamma has shape [m] which is not provably [k]}}
  %0 = relax.layer_norm %x, %g, %g {axes = array<i64: -1>} : (!relax.tensor<[n, k], f32>, !relax.tensor<[m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, k], f32>
  relax.return %0 : !relax.tensor<[n, k], f32>
}

// -----

relax.func @mean_int(%x: !relax.tensor<[n, 4], i32>) -> !relax.tensor<[n], i32> {
  // expected-error@+1 {{'relax.mean' op cannot be legalized: requires a floating-point dtype, got 'i32'}}
  %0 = relax.mean %x {axes = array<i64: 1>} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n], i32>
  relax.return %0 : !relax.tensor<[n], i32>
}

// -----

relax.func @sum_unknown_dim(%x: !relax.tensor<[?, 4], f32>) -> !relax.tensor<[4], f32> {
  // expected-error@+1 {{'relax.sum' op cannot be legalized: operand has type '!relax.tensor<[?, 4], f32>'; every dim must be known}}
  %0 = relax.sum %x {axes = array<i64: 0>} : (!relax.tensor<[?, 4], f32>) -> !relax.tensor<[4], f32>
  relax.return %0 : !relax.tensor<[4], f32>
}

// -----

relax.func @max_ui8(%x: !relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n], ui8> {
  // expected-error@+1 {{'relax.max' op cannot be legalized: 'ui8' arithmetic is not supported}}
  %0 = relax.max %x {axes = array<i64: 1>} : (!relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n], ui8>
  relax.return %0 : !relax.tensor<[n], ui8>
}
