// RUN: relax-opt %s -split-input-file -verify-diagnostics --relax-lower-collectives

// Collectives the target has no function for.

relax.func @cpu_f16(%x: !relax.tensor<[n, 8], f16>) -> !relax.tensor<[n, 8], f16> {
  // expected-error@+1 {{'relax.ccl.allreduce' op cannot be lowered for target cpu: no cpu allreduce for element type f16}}
  %s = relax.ccl.allreduce %x {num_ranks = 2 : i64} : (!relax.tensor<[n, 8], f16>) -> !relax.tensor<[n, 8], f16>
  relax.return %s : !relax.tensor<[n, 8], f16>
}

// -----

relax.func @rank5(%x: !relax.tensor<[a, b, c, d, e], f32>) -> !relax.tensor<[a, b, c, d, e * 2], f32> {
  // expected-error@+1 {{'relax.ccl.allgather' op cannot be lowered for target cpu: no allgather for rank 5 (1 to 4)}}
  %s = relax.ccl.allgather %x {axis = 4 : i64, num_ranks = 2 : i64} : (!relax.tensor<[a, b, c, d, e], f32>) -> !relax.tensor<[a, b, c, d, e * 2], f32>
  relax.return %s : !relax.tensor<[a, b, c, d, e * 2], f32>
}

// -----

relax.func @unranked(%x: !relax.tensor<*, f32>) -> !relax.tensor<*, f32> {
  // expected-error@+1 {{'relax.ccl.allreduce' op cannot be lowered for target cpu: the input's rank is unknown (refine it with relax.match_cast)}}
  %s = relax.ccl.allreduce %x {num_ranks = 2 : i64} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return %s : !relax.tensor<*, f32>
}
