// RUN: relax-opt %s -split-input-file -verify-diagnostics

relax.func @axis_out_of_range(%x: !relax.tensor<[n, m], f32>) {
  // expected-error@+2 {{'relax.sum' op axis 2 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.sum %x {axes = array<i64: 2>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @duplicate_axes(%x: !relax.tensor<[n, m, 4], f32>) {
  // expected-error@+2 {{'relax.mean' op axis -2 repeats axis 1 (both are dim 1 of rank 3)}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.mean %x {axes = array<i64: 1, -2>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @duplicate_axes_unranked(%x: !relax.tensor<*, f32>) {
  // expected-error@+2 {{'relax.max' op axis 0 is repeated}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.max %x {axes = array<i64: 0, 0>} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return
}

// -----

relax.func @wrong_declared_dim(%x: !relax.tensor<[n, m, 4], f32>) {
  // expected-error@+2 {{'relax.sum' op inferred type(s) '!relax.tensor<[n, 1, 4], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n, m, 4], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.sum %x {axes = array<i64: 1>, keepdims = true} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, m, 4], f32>
  relax.return
}

// -----

relax.func @argmax_axis(%x: !relax.tensor<[n, m], f32>) {
  // expected-error@+2 {{'relax.argmax' op axis -3 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.argmax %x {axis = -3 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], i64>
  relax.return
}

// -----

relax.func @argmin_dtype(%x: !relax.tensor<[n, m], f32>) {
  // expected-error@+2 {{'relax.argmin' op inferred type(s) '!relax.tensor<[n], i64>' are incompatible with return type(s) of operation '!relax.tensor<[n], i32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.argmin %x {axis = 1 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], i32>
  relax.return
}

// -----

relax.func @softmax_axis(%x: !relax.tensor<[n, m], f32>) {
  // expected-error@+2 {{'relax.softmax' op axis 2 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.softmax %x {axis = 2 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return
}

// -----

relax.func @softmax_int(%x: !relax.tensor<[n, m], i32>) {
  // expected-error@+2 {{'relax.log_softmax' op requires a floating-point input dtype}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.log_softmax %x : (!relax.tensor<[n, m], i32>) -> !relax.tensor<[n, m], i32>
  relax.return
}

// -----

relax.func @cumsum_axis(%x: !relax.tensor<[n, m], f32>) {
  // expected-error@+2 {{'relax.cumsum' op axis 5 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.cumsum %x {axis = 5 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return
}

// -----

relax.func @cumsum_dtype(%x: !relax.tensor<[n, m], f32>) {
  // expected-error@+2 {{'relax.cumsum' op unsupported result dtype 'i4'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.cumsum %x {axis = 0 : i64, dtype = i4} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return
}

// -----

// An unknown input dim stays unknown: a declared `n` is not accepted.
relax.func @unknown_dim_stays_unknown(%x: !relax.tensor<[n, ?], f32>) {
  // expected-error@+2 {{'relax.sum' op inferred type(s) '!relax.tensor<[?], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %0 = relax.sum %x {axes = array<i64: 0>} : (!relax.tensor<[n, ?], f32>) -> !relax.tensor<[n], f32>
  relax.return
}
