// RUN: relax-opt %s -split-input-file -verify-diagnostics

relax.func @dtype(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i32> {
  // expected-error@+1 {{result dtype 'i32' differs from the input's 'f32'}}
  %v = relax.view %x : !relax.tensor<[n, 4], f32> to !relax.tensor<[n, 4], i32>
  relax.return %v : !relax.tensor<[n, 4], i32>
}

// -----

relax.func @unknown(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[?], f32> {
  // expected-error@+1 {{result shape must be fully known, got '!relax.tensor<[?], f32>'}}
  %v = relax.view %x : !relax.tensor<[n, 4], f32> to !relax.tensor<[?], f32>
  relax.return %v : !relax.tensor<[?], f32>
}

// -----

relax.func @too_large(%x: !relax.tensor<[1, m, 8], f32>) -> !relax.tensor<[1, m + 1, 8], f32> {
  // expected-error@+1 {{views m * 8 + 8 elements of a tensor of m * 8}}
  %v = relax.view %x : !relax.tensor<[1, m, 8], f32> to !relax.tensor<[1, m + 1, 8], f32>
  relax.return %v : !relax.tensor<[1, m + 1, 8], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) {
  tir.return
}
// The view shares %x's storage: reading it after %x is updated would see
// the new contents.
relax.func @view_read_after_update(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %v = relax.view %x : !relax.tensor<[n], f32> to !relax.tensor<[n], f32>
  %w = relax.view %x : !relax.tensor<[n], f32> to !relax.tensor<[1], f32>
  // expected-error@+1 {{updates input #0 in place, but a value sharing its storage (a view, cast, tuple field or call result of it, or what it views) is used after the call}}
  %i = relax.call_tir_inplace @inc(%x) inplace_indices([0]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  // expected-note@+1 {{later use here}}
  %y = relax.add %i, %w : (!relax.tensor<[n], f32>, !relax.tensor<[1], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[k], f32>) {
  tir.return
}
// Updating a view updates what it views.
relax.func @update_a_view(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %w = relax.view %x : !relax.tensor<[n], f32> to !relax.tensor<[1], f32>
  // expected-error@+1 {{a value sharing its storage}}
  %i = relax.call_tir_inplace @inc(%w) inplace_indices([0]) : (!relax.tensor<[1], f32>) -> !relax.tensor<[1], f32>
  // expected-note@+1 {{later use here}}
  %y = relax.add %x, %i : (!relax.tensor<[n], f32>, !relax.tensor<[1], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}
