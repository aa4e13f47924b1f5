// RUN: relax-opt %s -split-input-file -verify-diagnostics

relax.func @full_unranked(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.full' op shape must have a known rank}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.full {dtype = f32, shape = #relax.shape<*>, value = 1.0 : f64} : !relax.tensor<*, f32>
  relax.return
}

// -----

relax.func @zeros_unknown_dim(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.zeros' op shape dim 1 must not be '?'}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.zeros {dtype = f32, shape = #relax.shape<[n, ?]>} : !relax.tensor<[n, ?], f32>
  relax.return
}

// -----

relax.func @ones_negative_dim(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.ones' op shape dim 0 (-n - 1) is negative}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.ones {dtype = f32, shape = #relax.shape<[-n - 1]>} : !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @zeros_bad_dtype(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.zeros' op unsupported dtype 'i4'}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.zeros {dtype = i4, shape = #relax.shape<[n]>} : !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @full_fraction_int(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.full' op fill value 1.5 is not a valid 'i32'}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.full {dtype = i32, shape = #relax.shape<[n]>, value = 1.5 : f64} : !relax.tensor<[n], i32>
  relax.return
}

// -----

relax.func @full_like_out_of_range(%x: !relax.tensor<[n], ui8>) {
  // expected-error@+2 {{'relax.full_like' op fill value 256 is not a valid 'ui8'}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.full_like %x {value = 256.0 : f64} : (!relax.tensor<[n], ui8>) -> !relax.tensor<[n], ui8>
  relax.return
}

// -----

relax.func @full_bool(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.full' op fill value 2 is not a valid 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.full {dtype = i1, shape = #relax.shape<[n]>, value = 2.0 : f64} : !relax.tensor<[n], i1>
  relax.return
}

// -----

relax.func @zeros_wrong_shape(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[n * 2], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n + 2], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.zeros {dtype = f32, shape = #relax.shape<[2 * n]>} : !relax.tensor<[n + 2], f32>
  relax.return
}

// -----

relax.func @zeros_like_bad_dtype(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.zeros_like' op unsupported dtype 'f128'}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.zeros_like %x {dtype = f128} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @arange_zero_step(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.arange' op step must be nonzero}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<n - n>} : !relax.tensor<[?], i64>
  relax.return
}

// -----

// A symbolic step that may be zero (m >= 0) is rejected.
relax.func @arange_maybe_zero_step(%x: !relax.tensor<[n, m], f32>) {
  // expected-error@+2 {{'relax.arange' op symbolic step m must be provably positive}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<m>} : !relax.tensor<[?], i64>
  relax.return
}

// -----

relax.func @arange_bool(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.arange' op requires a numeric (non-i1) dtype, got 'i1'}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.arange {dtype = i1, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<1>} : !relax.tensor<[n], i1>
  relax.return
}

// -----

// The span m - n has no known sign: the length keeps the clamp at 0, so a
// declared plain ceildiv is rejected.
relax.func @arange_clamped(%x: !relax.tensor<[n, m], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[max(m - n, 0)], i64>' are incompatible with return type(s) of operation '!relax.tensor<[m - n], i64>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %r = relax.arange {dtype = i64, end = #relax.expr<m>, start = #relax.expr<n>, step = #relax.expr<1>} : !relax.tensor<[m - n], i64>
  relax.return
}

// -----

// 2^64 - 1 rounds to 2^64 as a double, which no ui64 holds.
relax.func @full_ui64_out_of_range(%x: !relax.tensor<[n], ui64>) {
  // expected-error@+2 {{'relax.full_like' op fill value 1.84467e+19 is not a valid 'ui64'}}
  // expected-error@+1 {{failed to infer returned types}}
  %t = relax.full_like %x {value = 18446744073709551615.0 : f64} : (!relax.tensor<[n], ui64>) -> !relax.tensor<[n], ui64>
  relax.return
}
