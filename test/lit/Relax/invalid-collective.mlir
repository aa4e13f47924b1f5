// RUN: relax-opt %s -split-input-file -verify-diagnostics

// Every diagnostic of the collectives' inference.

relax.func @reduce_op(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.ccl.allreduce' op op must be sum, prod, max or min, got 'mean'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.ccl.allreduce %x {num_ranks = 2 : i64, op = "mean"} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @reduce_ranks(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.ccl.allreduce' op num_ranks must be at least 1, got 0}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.ccl.allreduce %x {num_ranks = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @reduce_int(%x: !relax.tensor<[n], i32>) {
  // expected-error@+2 {{'relax.ccl.allreduce' op requires a floating-point input dtype}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.ccl.allreduce %x {num_ranks = 2 : i64} : (!relax.tensor<[n], i32>) -> !relax.tensor<[n], i32>
  relax.return
}

// -----

relax.func @reduce_type(%x: !relax.tensor<[n], f32>) {
  // expected-error@+2 {{'relax.ccl.allreduce' op inferred type(s) '!relax.tensor<[n], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n * 2], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.ccl.allreduce %x {num_ranks = 2 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[2 * n], f32>
  relax.return
}

// -----

relax.func @gather_unranked(%x: !relax.tensor<*, f32>) {
  // expected-error@+2 {{'relax.ccl.allgather' op requires an input of known rank}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.ccl.allgather %x {axis = 0 : i64, num_ranks = 2 : i64} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return
}

// -----

relax.func @gather_axis(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{'relax.ccl.allgather' op axis 2 is out of range for rank 2}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.ccl.allgather %x {axis = 2 : i64, num_ranks = 2 : i64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 8], f32>
  relax.return
}

// -----

relax.func @gather_ranks(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{'relax.ccl.allgather' op num_ranks must be at least 1, got -1}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.ccl.allgather %x {axis = 1 : i64, num_ranks = -1 : i64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @gather_type(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+2 {{'relax.ccl.allgather' op inferred type(s) '!relax.tensor<[n, 12], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n, 8], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %y = relax.ccl.allgather %x {axis = 1 : i64, num_ranks = 3 : i64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 8], f32>
  relax.return
}
