// RUN: relax-opt %s -split-input-file -verify-diagnostics

// A constant zero divisor has no value at any shape.
// expected-error@+1 {{tensor dim n floordiv 0 divides by the constant 0}}
relax.func @floordiv_zero(%x: !relax.tensor<[n floordiv 0], f32>) {
  relax.return
}

// -----

// expected-error@+1 {{tensor dim (n + 1) mod 0 divides by the constant 0}}
relax.func @mod_zero(%x: !relax.tensor<[n, (n + 1) mod 0], f32>) {
  relax.return
}

// -----

// sym_bounds feed the verifier: with n <= 4 the cast to 8 can never hold.
relax.func @bounded_cast(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[8], f32> attributes {sym_bounds = {n = array<i64: 1, 4>}} {
  // expected-error@+1 {{dim 0 can never match: n vs 8}}
  %y = relax.match_cast %x : !relax.tensor<[n], f32> to !relax.tensor<[8], f32>
  relax.return %y : !relax.tensor<[8], f32>
}

// -----

relax.func @bad_predicate() {
  // expected-error@+1 {{predicate must be eq, le or broadcast, got 'ne'}}
  relax.assert_dims #relax.expr<1> "ne" #relax.expr<2>, "relax.reshape", "x"
  relax.return
}

// -----

// Index tuples: one extent per position of the indices' last dim.
relax.func @assert_indices_tuple(%i: !relax.tensor<[k, 3], i64>) {
  // expected-error@+1 {{'relax.assert_indices' op index tuples of 2 extents need indices whose last dim is 2}}
  relax.assert_indices %i, #relax.shape<[n, m]>, "relax.gather_nd" : !relax.tensor<[k, 3], i64>
  relax.return
}

// -----

relax.func @assert_indices_dtype(%i: !relax.tensor<[k], f32>) {
  // expected-error@+1 {{'relax.assert_indices' op indices must have an integer dtype}}
  relax.assert_indices %i, #relax.expr<n>, "relax.take" : !relax.tensor<[k], f32>
  relax.return
}
