// RUN: relax-opt %s -split-input-file -verify-diagnostics

// In-place safety by storage, not by syntax: relax.call_tir_inplace follows
// its updated input through views, casts, tuples, dataflow results and
// relax.call to the buffer it lives in (StorageRoot.h), and never updates a
// relax.constant, whatever wraps it. The constant's site is named in a note.

tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
relax.func @through_match_cast(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[k, 4], f32> {
  // expected-note@+1 {{the relax.constant}}
  %c = relax.constant dense<1.0> : tensor<3x4xf32>
  %m = relax.match_cast %c : !relax.tensor<[3, 4], f32> to !relax.tensor<[k, 4], f32>
  // expected-error@+1 {{input #0 is updated in place, but its storage is a relax.constant (through relax.match_cast): constants cannot be updated in place}}
  %i = relax.call_tir_inplace @inc(%m) inplace_indices([0]) : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
  relax.return %i : !relax.tensor<[k, 4], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
// A reshape view ([16] as [4, 4]) of a constant, cast to a symbolic shape.
relax.func @through_reshape_view(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[k, 4], f32> {
  // expected-note@+1 {{the relax.constant}}
  %c = relax.constant dense<1.0> : tensor<16xf32>
  %v = relax.view %c : !relax.tensor<[16], f32> to !relax.tensor<[4, 4], f32>
  %m = relax.match_cast %v : !relax.tensor<[4, 4], f32> to !relax.tensor<[k, 4], f32>
  // expected-error@+1 {{input #0 is updated in place, but its storage is a relax.constant (through relax.match_cast, relax.view)}}
  %i = relax.call_tir_inplace @inc(%m) inplace_indices([0]) : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
  relax.return %i : !relax.tensor<[k, 4], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
// A field of a nested tuple.
relax.func @through_tuple(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[2, 4], f32> {
  // expected-note@+1 {{the relax.constant}}
  %c = relax.constant dense<1.0> : tensor<2x4xf32>
  %t = relax.tuple %x, %c : !relax.tensor<[n, 4], f32>, !relax.tensor<[2, 4], f32>
  %u = relax.tuple %x, %t : !relax.tensor<[n, 4], f32>, tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[2, 4], f32>>
  %f = relax.tuple_get_item %u[1] : tuple<!relax.tensor<[n, 4], f32>, tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[2, 4], f32>>>
  %g = relax.tuple_get_item %f[1] : tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[2, 4], f32>>
  // expected-error@+1 {{input #0 is updated in place, but its storage is a relax.constant (through relax.tuple_get_item)}}
  %i = relax.call_tir_inplace @inc(%g) inplace_indices([0]) : (!relax.tensor<[2, 4], f32>) -> !relax.tensor<[2, 4], f32>
  relax.return %i : !relax.tensor<[2, 4], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
// A dataflow region's result.
relax.func @through_dataflow(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[2, 4], f32> {
  %o = relax.dataflow -> !relax.tensor<[2, 4], f32> {
    // expected-note@+1 {{the relax.constant}}
    %c = relax.constant dense<1.0> : tensor<2x4xf32>
    relax.output %c : !relax.tensor<[2, 4], f32>
  }
  // expected-error@+1 {{its storage is a relax.constant}}
  %i = relax.call_tir_inplace @inc(%o) inplace_indices([0]) : (!relax.tensor<[2, 4], f32>) -> !relax.tensor<[2, 4], f32>
  relax.return %i : !relax.tensor<[2, 4], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
relax.func private @weights() -> !relax.tensor<[2, 4], f32> {
  // expected-note@+1 {{the relax.constant}}
  %c = relax.constant dense<1.0> : tensor<2x4xf32>
  %m = relax.match_cast %c : !relax.tensor<[2, 4], f32> to !relax.tensor<[2, 4], f32>
  relax.return %m : !relax.tensor<[2, 4], f32>
}
// A relax.call whose callee returns a constant.
relax.func @call_returns_constant(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[k, 4], f32> {
  %w = relax.call @weights() : () -> !relax.tensor<[2, 4], f32>
  %m = relax.match_cast %w : !relax.tensor<[2, 4], f32> to !relax.tensor<[k, 4], f32>
  // expected-error@+1 {{input #0 is updated in place, but its storage is a relax.constant (through relax.match_cast, relax.call @weights)}}
  %i = relax.call_tir_inplace @inc(%m) inplace_indices([0]) : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
  relax.return %i : !relax.tensor<[k, 4], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
relax.func private @pick(%t: tuple<!relax.tensor<[a, 4], f32>, !relax.tensor<[b, 4], f32>>) -> !relax.tensor<[b, 4], f32> {
  %f = relax.tuple_get_item %t[1] : tuple<!relax.tensor<[a, 4], f32>, !relax.tensor<[b, 4], f32>>
  relax.return %f : !relax.tensor<[b, 4], f32>
}
// A relax.call whose callee returns (a field of) its parameter: the
// caller's argument, here a constant in a tuple.
relax.func @call_returns_parameter(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[2, 4], f32> {
  // expected-note@+1 {{the relax.constant}}
  %c = relax.constant dense<1.0> : tensor<2x4xf32>
  %t = relax.tuple %x, %c : !relax.tensor<[n, 4], f32>, !relax.tensor<[2, 4], f32>
  %w = relax.call @pick(%t) : (tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[2, 4], f32>>) -> !relax.tensor<[2, 4], f32>
  // expected-error@+1 {{its storage is a relax.constant (through relax.call @pick)}}
  %i = relax.call_tir_inplace @inc(%w) inplace_indices([0]) : (!relax.tensor<[2, 4], f32>) -> !relax.tensor<[2, 4], f32>
  relax.return %i : !relax.tensor<[2, 4], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
// Updating a parameter in place is the callee's contract (a KV cache):
// passing it a constant would write into the constant.
relax.func private @bump(%p: !relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32> {
  // expected-note@+1 {{the update in place}}
  %i = relax.call_tir_inplace @inc(%p) inplace_indices([0]) : (!relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32>
  relax.return %i : !relax.tensor<[m, 4], f32>
}
relax.func private @bump_twice(%q: !relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32> {
  %r = relax.call @bump(%q) : (!relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32>
  relax.return %r : !relax.tensor<[m, 4], f32>
}
relax.func @call_updates_parameter(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[k, 4], f32> {
  // expected-note@+1 {{the relax.constant}}
  %c = relax.constant dense<1.0> : tensor<2x4xf32>
  %m = relax.match_cast %c : !relax.tensor<[2, 4], f32> to !relax.tensor<[k, 4], f32>
  // expected-error@+1 {{'relax.call' op operand #0 shares the storage of a relax.constant (through relax.match_cast), but 'bump_twice' updates parameter #0 in place: constants cannot be updated in place}}
  %r = relax.call @bump_twice(%m) : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
  relax.return %r : !relax.tensor<[k, 4], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
relax.func private @id(%p: !relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32> {
  relax.return %p : !relax.tensor<[m, 4], f32>
}
// What a relax.call returns from its argument shares the argument's
// storage: it may not be read after the argument is updated.
relax.func @read_call_result_after(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %r = relax.call @id(%x) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  // expected-error@+1 {{updates input #0 in place, but a value sharing its storage (a view, cast, tuple field or call result of it, or what it views) is used after the call}}
  %i = relax.call_tir_inplace @inc(%x) inplace_indices([0]) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  // expected-note@+1 {{later use here}}
  %y = relax.add %i, %r : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %y : !relax.tensor<[n, 4], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
// The same field taken again from a tuple after the update.
relax.func @read_tuple_field_after(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %t = relax.tuple %x, %y : !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>
  %k = relax.tuple_get_item %t[0] : tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>>
  // expected-error@+1 {{a value sharing its storage}}
  %i = relax.call_tir_inplace @inc(%k) inplace_indices([0]) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %k2 = relax.tuple_get_item %t[0] : tuple<!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>>
  // expected-note@+1 {{later use here}}
  %z = relax.add %i, %k2 : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %z : !relax.tensor<[n, 4], f32>
}
