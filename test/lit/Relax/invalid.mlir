// RUN: relax-opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{unsupported relax tensor dtype 'i4' (expected f16, bf16, f32, f64, i1, i8, i16, i32, i64, ui8, ui16, ui32 or ui64)}}
relax.func @bad_dtype(%x: !relax.tensor<[n], i4>) {
  relax.return
}

// -----

// Explicitly signed integers are not relax dtypes (signless ones are signed).
// expected-error@+1 {{unsupported relax tensor dtype 'si16'}}
relax.func @bad_signed_dtype(%x: !relax.tensor<[n], si16>) {
  relax.return
}

// -----

// expected-error@+1 {{unsupported relax tensor dtype 'ui1'}}
relax.func @bad_unsigned_dtype(%x: !relax.tensor<[n], ui1>) {
  relax.return
}

// -----

// expected-error@+1 {{expected a symbolic dimension expression (integer, variable, '(' or min/max)}}
relax.func @bad_dim(%x: !relax.tensor<[n, +], f32>) {
  relax.return
}

// -----

// expected-error@+1 {{invalid symbolic variable name 'floordiv'}}
relax.func @keyword_dim(%x: !relax.tensor<[floordiv], f32>) {
  relax.return
}

// -----

// expected-error@+1 {{tensor dim must be non-negative, got -2}}
relax.func @negative_dim(%x: !relax.tensor<[-2], f32>) {
  relax.return
}

// -----

// The static dims' bytes must fit int64 (2^62 x 4 x 4 bytes do not; the
// layer_norm legalizer crashed on such a count, found by mutate-run.py).
// expected-error@+1 {{tensor of shape [n, 4611686018427387904, 4] and dtype 'f32' has more bytes than int64 can count}}
relax.func @huge_static_dims(%x: !relax.tensor<[n, 4611686018427387904, 4], f32>) {
  relax.return
}

// -----

// 2^61 bytes are fine.
relax.func @large_static_dims(%x: !relax.tensor<[n, 2305843009213693952], i8>) {
  relax.return
}

// -----

// expected-error@+1 {{parameter #0 uses symbolic variable 'm' that no parameter binds}}
relax.func @unbound_param(%x: !relax.tensor<[m + 1], f32>) {
  relax.return
}

// -----

relax.func @use_before_bind(%x: !relax.tensor<*, f32>) {
  // expected-error@+1 {{uses symbolic variable 'k' before it is bound}}
  %s = relax.shape_expr #relax.shape<[k]>
  %c = relax.match_cast %x : !relax.tensor<*, f32> to !relax.tensor<[k], f32>
  relax.return
}

// -----

relax.func @wrong_return(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n, 1], f32> {
  // expected-error@+1 {{result #0 has type '!relax.tensor<[n], f32>' but the function declares '!relax.tensor<[n, 1], f32>'}}
  relax.return %x : !relax.tensor<[n], f32>
}

// -----

// expected-error@+1 {{sym_bounds entry 'n' has empty range [5, 1]}}
relax.func @bad_bounds(%x: !relax.tensor<[n], f32>) attributes {sym_bounds = {n = array<i64: 5, 1>}} {
  relax.return
}

// -----

relax.func @cast_dtype(%x: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{cannot cast '!relax.tensor<[n], f32>' to '!relax.tensor<[n], f16>': kind, dtype or rank differ}}
  %c = relax.match_cast %x : !relax.tensor<[n], f32> to !relax.tensor<[n], f16>
  relax.return
}

// -----

relax.func @cast_never(%x: !relax.tensor<[n, 4], f32>) {
  // expected-error@+1 {{dim 1 can never match: 4 vs 8}}
  %c = relax.match_cast %x : !relax.tensor<[n, 4], f32> to !relax.tensor<[n, 8], f32>
  relax.return
}

// -----

relax.func @cast_never_symbolic(%x: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{dim 0 can never match: n vs n + 1}}
  %c = relax.match_cast %x : !relax.tensor<[n], f32> to !relax.tensor<[n + 1], f32>
  relax.return
}

// -----

relax.func @tuple_index(%a: !relax.tensor<[n], f32>) {
  %t = relax.tuple %a : !relax.tensor<[n], f32>
  // expected-error@+1 {{index 1 out of range for a tuple of 1 fields}}
  %x = relax.tuple_get_item %t[1] : tuple<!relax.tensor<[n], f32>>
  relax.return
}

// -----

relax.func @dataflow_count(%a: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{yields 1 values but has 0 results}}
  relax.dataflow {
    relax.output %a : !relax.tensor<[n], f32>
  }
  relax.return
}

// -----

relax.func @call_missing(%a: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{'nowhere' does not reference a relax.func}}
  %x = relax.call @nowhere(%a) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @call_tir_arity(%a: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{callee 'one' takes 2 parameters, but the call passes 2 inputs, 1 outputs and 0 symbolic values}}
  %x = relax.call_tir @one(%a, %a) : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}
tir.prim_func @one(%x: !tir.buffer<[m], f32>, %y: !tir.buffer<[m], f32>) {
  tir.return
}

// -----

relax.func @call_tir_shape(%a: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{argument #1 dim 0 is n + 1 but the callee 'same' expects n}}
  %x = relax.call_tir @same(%a) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n + 1], f32>
  relax.return
}
tir.prim_func @same(%x: !tir.buffer<[m], f32>, %y: !tir.buffer<[m], f32>) {
  tir.return
}

// -----

relax.func @call_tir_dtype(%a: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{argument #0 has dtype 'f32' but the callee buffer has 'f16'}}
  %x = relax.call_tir @half(%a) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}
tir.prim_func @half(%x: !tir.buffer<[m], f16>, %y: !tir.buffer<[m], f32>) {
  tir.return
}

// -----

relax.func @call_tir_not_tir(%a: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{'call_tir_not_tir' must reference a tir.prim_func or func.func, got relax.func}}
  %x = relax.call_tir @call_tir_not_tir(%a) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

relax.func @dps_packed(%a: !relax.tensor<[n], f32>) {
  // expected-error@+1 {{callee 'lib' takes 3 parameters, but the call passes 1 inputs, 1 outputs and 0 symbolic values}}
  %x = relax.call_dps_packed @lib(%a) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}
extern.func private @lib(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "lib", num_outputs = 1 : i64}

// -----

relax.func @broadcast(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[3], f32>) {
  // expected-error@+2 {{cannot broadcast dim 4 with dim 3 (shapes [n, 4] and [3])}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.add %a, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[3], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return
}

// -----

relax.func @broadcast_symbolic(%a: !relax.tensor<[n + 2], f32>, %b: !relax.tensor<[n + 3], f32>) {
  // expected-error@+2 {{cannot broadcast dim n + 2 with dim n + 3}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.add %a, %b : (!relax.tensor<[n + 2], f32>, !relax.tensor<[n + 3], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// -----

relax.func @wrong_inferred(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], f32>) {
  // expected-error@+2 {{inferred type(s) '!relax.tensor<[n, 4], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n, 5], f32>'}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.add %a, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 5], f32>
  relax.return
}

// -----

relax.func @dtype_mismatch(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[n], f16>) {
  // expected-error@+2 {{operand dtypes differ (use relax.astype)}}
  // expected-error@+1 {{failed to infer returned types}}
  %x = relax.add %a, %b : (!relax.tensor<[n], f32>, !relax.tensor<[n], f16>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

// A resource blob must hold exactly its type's bytes (the LLVM translation
// divided by zero on 8 bytes for a tensor<0xf32>, found by mutate-run.py).
relax.func @resource_size() -> !relax.tensor<[0], f32> {
  // expected-error@+1 {{'relax.constant' op dense_resource 'blob1' holds 8 bytes, its type 'tensor<0xf32>' needs 0}}
  %c = relax.constant dense_resource<blob1> : tensor<0xf32>
  relax.return %c : !relax.tensor<[0], f32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// expected-error@+1 {{'relax.func' op sym_bounds entry 'n' must be array<i64: lo, hi>}}
relax.func @bad_bound(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> attributes {sym_bounds = {n = array<i64: 4>}} {
  relax.return %x : !relax.tensor<[n], f32>
}

// -----

// expected-error@+1 {{'relax.func' op must have a body}}
"relax.func"() <{function_type = () -> (), sym_name = "no_body"}> ({
}) : () -> ()

// -----

relax.func @return_count(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{'relax.return' op returns 2 values but the function declares 1}}
  "relax.return"(%x, %x) : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> ()
}

// -----

relax.func @output_type(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f16> {
  // expected-error@+1 {{'relax.dataflow' op output #0 has type '!relax.tensor<[n], f32>' but result is '!relax.tensor<[n], f16>'}}
  %o = "relax.dataflow"() ({
    "relax.output"(%x) : (!relax.tensor<[n], f32>) -> ()
  }) : () -> !relax.tensor<[n], f16>
  relax.return %o : !relax.tensor<[n], f16>
}

// -----

relax.func @effects_in_dataflow(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %o = relax.dataflow -> !relax.tensor<[n], f32> {
    // expected-error@+1 {{'memref.alloc' op has side effects and cannot appear in a relax.dataflow region}}
    %m = memref.alloc() : memref<4xf32>
    relax.output %x : !relax.tensor<[n], f32>
  }
  relax.return %o : !relax.tensor<[n], f32>
}

// -----

relax.func @shape_from_dynamic(%s: !relax.tensor<[k], i64>) -> !relax.shape<[a, b]> {
  // expected-error@+1 {{'relax.tensor_to_shape' op input must be a 1-D tensor of static length, got '!relax.tensor<[k], i64>'}}
  %shape = relax.tensor_to_shape %s : !relax.tensor<[k], i64> to !relax.shape<[a, b]>
  relax.return %shape : !relax.shape<[a, b]>
}

// -----

relax.func @unknown_extent(%i: !relax.tensor<[k, 2], i64>) {
  // expected-error@+1 {{'relax.assert_indices' op extents must be known expressions}}
  relax.assert_indices %i, #relax.shape<[n, ?]>, "relax.gather_nd" : !relax.tensor<[k, 2], i64>
  relax.return
}

// -----

relax.func @no_symbol(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{'relax.call_tir' op 'missing' does not reference a symbol}}
  %y = relax.call_tir @missing(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) {
  tir.return
}

relax.func @indices_count(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{'relax.call_tir_inplace' op has 2 inplace_indices for 1 results}}
  %i = relax.call_tir_inplace @inc(%x) inplace_indices([0, -1]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %i : !relax.tensor<[n], f32>
}

// -----

relax.func @no_loop_yield(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{'relax.while' op body must end with relax.loop_yield}}
  %r = "relax.while"(%c, %x) ({
  ^bb0(%a: !relax.tensor<[n], f32>):
    "relax.return"(%a) : (!relax.tensor<[n], f32>) -> ()
  }) : (!relax.tensor<[], i1>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %r : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) {
  tir.return
}

relax.func @shape_in_place(%x: !relax.tensor<[n], f32>, %s: !relax.shape<[n]>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{'relax.call_tir_inplace' op input #1 updated in place must be a tensor, got '!relax.shape<[n]>'}}
  %i = relax.call_tir_inplace @inc(%x, %s) inplace_indices([1]) : (!relax.tensor<[n], f32>, !relax.shape<[n]>) -> !relax.tensor<[n], f32>
  relax.return %i : !relax.tensor<[n], f32>
}
