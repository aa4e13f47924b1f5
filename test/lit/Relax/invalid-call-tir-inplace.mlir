// RUN: relax-opt %s -split-input-file -verify-diagnostics

tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) {
  tir.return
}
relax.func @use_after(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{updates input #0 in place, but the old value is used after the call (use the call's result #0)}}
  %i = relax.call_tir_inplace @inc(%x) inplace_indices([0]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  // expected-note@+1 {{later use here}}
  %y = relax.add %i, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) {
  tir.return
}
// A use after the relax.if that holds the update runs after it.
relax.func @use_after_if(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n], f32> {
  %s = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[n], f32> {
    // expected-error@+1 {{updates input #0 in place, but the old value is used after the call}}
    %i = relax.call_tir_inplace @inc(%x) inplace_indices([0]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.yield %i : !relax.tensor<[n], f32>
  } else {
    relax.yield %x : !relax.tensor<[n], f32>
  }
  // expected-note@+1 {{later use here}}
  relax.return %x : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) {
  tir.return
}
relax.func @type_change(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[?], f32> {
  // expected-error@+1 {{result #0 has type '!relax.tensor<[?], f32>' but updates input #0 of type '!relax.tensor<[n], f32>' in place (the types must be equal)}}
  %i = relax.call_tir_inplace @inc(%x) inplace_indices([0]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[?], f32>
  relax.return %i : !relax.tensor<[?], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) {
  tir.return
}
relax.func @bad_index(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{inplace_indices[0] = 1 is not -1 or an input index in [0, 1)}}
  %i = relax.call_tir_inplace @inc(%x) inplace_indices([1]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %i : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @two(%x: !tir.buffer<[n], f32>) {
  tir.return
}
relax.func @twice(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{input #0 is updated in place by more than one result}}
  %a, %b = relax.call_tir_inplace @two(%x) inplace_indices([0, 0]) : (!relax.tensor<[n], f32>) -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
  relax.return %a : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) {
  tir.return
}
relax.func @none(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{updates no input in place: use relax.call_tir}}
  %i = relax.call_tir_inplace @inc(%x) inplace_indices([-1]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %i : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[4], f32>) {
  tir.return
}
relax.func @constant() -> !relax.tensor<[4], f32> {
  %c = relax.constant dense<1.0> : tensor<4xf32>
  // expected-error@+1 {{input #0 is a relax.constant: constants cannot be updated in place}}
  %i = relax.call_tir_inplace @inc(%c) inplace_indices([0]) : (!relax.tensor<[4], f32>) -> !relax.tensor<[4], f32>
  relax.return %i : !relax.tensor<[4], f32>
}

// -----

// The callee takes the inputs and the fresh outputs only.
tir.prim_func private @inc(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) {
  tir.return
}
relax.func @arity(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{callee 'inc' takes 2 parameters, but the call passes 1 inputs, 0 outputs and 0 symbolic values}}
  %i = relax.call_tir_inplace @inc(%x) inplace_indices([0]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %i : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @append(%c: !tir.buffer<[m], f32>, %k: !tir.buffer<[m], f32>) {
  tir.return
}
relax.func @shapes(%c: !relax.tensor<[8], f32>, %k: !relax.tensor<[4], f32>) -> !relax.tensor<[8], f32> {
  // expected-error@+1 {{argument #1 dim 0 is 4 but the callee 'append' expects 8}}
  %i = relax.call_tir_inplace @append(%c, %k) inplace_indices([0]) : (!relax.tensor<[8], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[8], f32>
  relax.return %i : !relax.tensor<[8], f32>
}
