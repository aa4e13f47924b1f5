// RUN: relax-opt %s -split-input-file -verify-diagnostics

relax.func @float_input(%s: !relax.tensor<[2], f32>) {
  // expected-error@+1 {{input must be an integer tensor, got 'f32'}}
  %shape = relax.tensor_to_shape %s : !relax.tensor<[2], f32> to !relax.shape<[a, b]>
  relax.return
}

// -----

relax.func @symbolic_length(%s: !relax.tensor<[k], i64>) {
  // expected-error@+1 {{input must be a 1-D tensor of static length}}
  %shape = relax.tensor_to_shape %s : !relax.tensor<[k], i64> to !relax.shape<[a, b]>
  relax.return
}

// -----

relax.func @rank_mismatch(%s: !relax.tensor<[3], i64>) {
  // expected-error@+1 {{result must be a shape of rank 3 (the input's length)}}
  %shape = relax.tensor_to_shape %s : !relax.tensor<[3], i64> to !relax.shape<[a, b]>
  relax.return
}

// -----

relax.func @negative(%s: !relax.tensor<[1], i64>) {
  // expected-error@+1 {{dim 0 is negative: -2}}
  %shape = relax.tensor_to_shape %s : !relax.tensor<[1], i64> to !relax.shape<[-2]>
  relax.return
}

// -----

// A variable used before the tensor_to_shape that binds it.
relax.func @use_before_bind(%x: !relax.tensor<[n], f32>, %s: !relax.tensor<[2], i64>) {
  // expected-error@+1 {{uses symbolic variable 'a' before it is bound}}
  %y = relax.reshape %x {shape = #relax.shape<[a, 2]>} : (!relax.tensor<[n], f32>) -> !relax.tensor<[a, 2], f32>
  %shape = relax.tensor_to_shape %s : !relax.tensor<[2], i64> to !relax.shape<[a, b]>
  relax.return
}
