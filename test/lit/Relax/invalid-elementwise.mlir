// RUN: relax-opt %s -split-input-file -verify-diagnostics

// Float-only unary ops reject integers.
relax.func @exp_int(%x: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.exp' op requires a floating-point dtype, got 'i32'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.exp %x : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
  relax.return
}

// -----

relax.func @gelu_bool(%x: !relax.tensor<[n], i1>) {
  // expected-error@+2 {{'relax.gelu' op requires a floating-point dtype, got 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.gelu %x : (!relax.tensor<[n], i1>) -> !relax.tensor<[n], i1>
  relax.return
}

// -----

// Numeric ops reject i1.
relax.func @relu_bool(%x: !relax.tensor<[n], i1>) {
  // expected-error@+2 {{'relax.relu' op requires a numeric (non-i1) dtype, got 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.relu %x : (!relax.tensor<[n], i1>) -> !relax.tensor<[n], i1>
  relax.return
}

// -----

relax.func @logical_not_float(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.logical_not' op requires an i1 dtype, got 'f32'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.logical_not %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

// A unary result keeps the input's dims exactly.
relax.func @unary_wrong_dim(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[n], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n + 1], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.tanh %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n + 1], f32>
  relax.return
}

// -----

relax.func @clip_bounds(%x: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{'relax.clip' op min 6 is greater than max 0}}
  %y = relax.clip %x {max = 0.0 : f64, min = 6.0 : f64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @clip_int_bounds(%x: !relax.tensor<[n], i32>) {
  // expected-error@+1 {{'relax.clip' op bounds of an integer clip must be integral, got [0.5, 6]}}
  %y = relax.clip %x {max = 6.0 : f64, min = 0.5 : f64} : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
  relax.return
}

// -----

relax.func @clip_bool(%x: !relax.tensor<[n], i1>) {
  // expected-error@+2 {{'relax.clip' op requires a numeric (non-i1) dtype, got 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.clip %x {max = 1.0 : f64, min = 0.0 : f64} : (!relax.tensor<[n], i1>) -> !relax.tensor<[n], i1>
  relax.return
}

// -----

relax.func @astype_bad_dtype(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.astype' op unsupported target dtype 'i4'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.astype %x {dtype = i4} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @astype_wrong_result(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[n], f16>' are incompatible with return type(s) of operation '!relax.tensor<[n], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.astype %x {dtype = f16} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @broadcast_static(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[3], f32>) {
  // expected-error@+2 {{'relax.multiply' op cannot broadcast dim 4 with dim 3 (shapes [n, 4] and [3])}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.multiply %a, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[3], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @broadcast_symbolic(%a: !relax.tensor<[n, 2 * n + 2], f32>, %b: !relax.tensor<[2 * n + 3], f32>) {
  // expected-error@+2 {{'relax.subtract' op cannot broadcast dim n * 2 + 2 with dim n * 2 + 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.subtract %a, %b : (!relax.tensor<[n, 2 * n + 2], f32>, !relax.tensor<[2 * n + 3], f32>) -> !relax.tensor<[n, ?], f32>
  relax.return
}

// -----

// [n] + [m] cannot be decided (either may be 1): the dim is max(m, n),
// checked at run time, and a declared `n` is rejected rather than assumed.
relax.func @broadcast_undecidable(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[m], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[max(m, n)], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.add %a, %b : (!relax.tensor<[n], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @binary_dtype(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.maximum' op operand dtypes differ (use relax.astype)}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.maximum %a, %b : (!relax.tensor<[n], f32>, !relax.tensor<[n], i32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @arith_bool(%a: !relax.tensor<[n], i1>) {
  // expected-error@+2 {{'relax.add' op requires a numeric (non-i1) dtype, got 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.add %a, %a : (!relax.tensor<[n], i1>, !relax.tensor<[n], i1>) -> !relax.tensor<[n], i1>
  relax.return
}

// -----

relax.func @logical_float(%a: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.logical_or' op requires an i1 dtype, got 'f32'}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.logical_or %a, %a : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], i1>
  relax.return
}

// -----

relax.func @compare_result(%a: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[n], i1>' are incompatible with return type(s) of operation '!relax.tensor<[n], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.greater %a, %a : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @where_cond(%c: !relax.tensor<[n], f32>, %x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.where' op condition must be i1, got 'f32'}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.where %c, %x, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @where_dtype(%c: !relax.tensor<[n], i1>, %x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f16>) {
  // expected-error@+2 {{'relax.where' op value dtypes differ (use relax.astype)}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.where %c, %x, %y : (!relax.tensor<[n], i1>, !relax.tensor<[n], f32>, !relax.tensor<[n], f16>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @where_broadcast(%c: !relax.tensor<[n, 1], i1>, %x: !relax.tensor<[1, 4], f32>, %y: !relax.tensor<[5], f32>) {
  // expected-error@+2 {{'relax.where' op cannot broadcast dim 4 with dim 5 (shapes [n, 4] and [5])}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.where %c, %x, %y : (!relax.tensor<[n, 1], i1>, !relax.tensor<[1, 4], f32>, !relax.tensor<[5], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @isnan_int(%x: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.isnan' op requires a floating-point dtype, got 'i32'}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.isnan %x : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i1>
  relax.return
}

// -----

relax.func @isinf_result(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[n], i1>' are incompatible with return type(s) of operation '!relax.tensor<[n], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.isinf %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @floor_mod_bool(%x: !relax.tensor<[n], i1>) {
  // expected-error@+2 {{'relax.floor_mod' op requires a numeric (non-i1) dtype, got 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.floor_mod %x, %x : (!relax.tensor<[n], i1>, !relax.tensor<[n], i1>) -> !relax.tensor<[n], i1>
  relax.return
}

// -----

relax.func @shift_float(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.left_shift' op requires an integer (non-i1) dtype, got 'f32'}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.left_shift %x, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @shift_bool(%x: !relax.tensor<[n], i1>) {
  // expected-error@+2 {{'relax.right_shift' op requires an integer (non-i1) dtype, got 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.right_shift %x, %x : (!relax.tensor<[n], i1>, !relax.tensor<[n], i1>) -> !relax.tensor<[n], i1>
  relax.return
}

// -----

relax.func @fmod_broadcast(%x: !relax.tensor<[n, 4], i32>, %y: !relax.tensor<[3], i32>) {
  // expected-error@+2 {{'relax.fmod' op cannot broadcast dim 4 with dim 3 (shapes [n, 4] and [3])}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.fmod %x, %y : (!relax.tensor<[n, 4], i32>, !relax.tensor<[3], i32>) -> !relax.tensor<[n, 4], i32>
  relax.return
}
