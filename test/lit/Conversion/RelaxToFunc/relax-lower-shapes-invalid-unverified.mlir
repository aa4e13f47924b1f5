// RUN: relax-opt --mlir-very-unsafe-disable-verifier-on-parsing --relax-lower-shapes -split-input-file -verify-diagnostics %s
// RUN: ! relax-opt -split-input-file %s 2> %t.err
// RUN: FileCheck %s --check-prefix=VERIFIER < %t.err

// The diagnostics of --relax-lower-shapes that verified IR never reaches:
// the relax.func verifier (well-formedness), the call_dps_packed symbol
// check and the extern.func verifier reject each input first (second RUN,
// VERIFIER lines). They stay in the pass for pipelines run without
// verification, and are tested here with the parser's verifier off.

// VERIFIER: error: 'relax.func' op parameter #1 uses symbolic variable 'k' that no parameter binds
// expected-error @below {{'relax.func' op cannot lower: a variable of k + 1 is not bound}}
relax.func @unbound_param(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[k + 1], f32>) {
  relax.return
}

// -----

// VERIFIER: error: 'relax.match_cast' op uses symbolic variable 'k' before it is bound
// expected-error @below {{'relax.func' op cannot lower: a variable of k + 1 is not bound}}
relax.func @unbound_cast(%x: !relax.tensor<*, f32>) {
  %c = relax.match_cast %x : !relax.tensor<*, f32> to !relax.tensor<[n, k + 1], f32>
  relax.return
}

// -----

func.func private @f(memref<?xf32>, memref<?xf32>)
relax.func @unbound_output(%x: !relax.tensor<[n], f32>) {
  // VERIFIER: error: 'relax.call_tir' op uses symbolic variable 'k' before it is bound
  // expected-error @below {{cannot allocate: a variable of k * 2 is not bound}}
  %y = relax.call_tir @f(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[2 * k], f32>
  relax.return
}

// -----

func.func private @f(memref<?xf32>, memref<?xf32>, index)
relax.func @unbound_tir_vars(%x: !relax.tensor<[n], f32>) {
  // VERIFIER: error: 'relax.call_tir' op attribute 'tir_vars' uses symbolic variable 'k' before it is bound
  // expected-error @below {{'relax.call_tir' op tir_vars uses an unbound variable}}
  %y = relax.call_tir @f(%x) tir_vars(#relax.shape<[n + k]>) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

func.func private @f(memref<?xf32>, memref<?xf32>)
relax.func @dps_to_func(%x: !relax.tensor<[n], f32>) {
  // VERIFIER: error: 'relax.call_dps_packed' op 'f' must reference a extern.func, got func.func
  // expected-error @below {{'relax.call_dps_packed' op 'f' is not an extern.func}}
  %y = relax.call_dps_packed @f(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

// VERIFIER: error: 'extern.func' op input parameter #0 must be a relax tensor or a relax prim, got 'memref<?xf32>'
// expected-error @below {{'extern.func' op parameter type 'memref<?xf32>' cannot be lowered to host code}}
extern.func private @ext(memref<?xf32>, !relax.tensor<[n], f32>)
    attributes {link_name = "relax_copy", num_outputs = 1 : i64}
relax.func @bad_extern(%x: !relax.tensor<[n], f32>) {
  relax.return
}

// -----

// An in-place update of a constant's storage, through a cast: the pass
// checks storage roots (StorageRoot.h) before it lowers anything.
func.func private @inc(memref<?x4xf32>)
relax.func @inplace_constant(%x: !relax.tensor<[n, 4], f32>) {
  // expected-note @below {{the relax.constant}}
  %c = relax.constant dense<1.0> : tensor<3x4xf32>
  %m = relax.match_cast %c : !relax.tensor<[3, 4], f32> to !relax.tensor<[k, 4], f32>
  // VERIFIER: error: 'relax.call_tir_inplace' op input #0 is updated in place, but its storage is a relax.constant (through relax.match_cast): constants cannot be updated in place
  // expected-error @below {{'relax.call_tir_inplace' op input #0 is updated in place, but its storage is a relax.constant (through relax.match_cast): constants cannot be updated in place}}
  %i = relax.call_tir_inplace @inc(%m) inplace_indices([0]) : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
  relax.return
}

// -----

// VERIFIER: error: 'relax.loop_yield' op value #0, of type '!relax.tensor<*, f32>', does not fit carried type '!relax.tensor<[k], f32>': the value's rank is unknown (match_cast it first)
relax.func @carry_outer_unranked(%c: !relax.tensor<[], i1>, %x: !relax.tensor<[n], f32>, %u: !relax.tensor<*, f32>) -> !relax.tensor<[k], f32> {
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[n], f32>) -> !relax.tensor<[k], f32> {
  ^bb0(%a: !relax.tensor<[k], f32>):
    // expected-error@+1 {{'relax.loop_yield' op cannot carry a value of unknown rank that the iteration did not create: match_cast it to a ranked type first}}
    relax.loop_yield %c, %u : !relax.tensor<[], i1>, !relax.tensor<*, f32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}

// -----

// VERIFIER: error: 'relax.view' op uses symbolic variable 'k' before it is bound
relax.func @view_unbound(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[k], f32> {
  // expected-error @below {{'relax.view' op uses a variable that is not bound: k}}
  %v = relax.view %x : !relax.tensor<[n], f32> to !relax.tensor<[k], f32>
  relax.return %v : !relax.tensor<[k], f32>
}

// -----

// VERIFIER: error: 'relax.assert_dims' op attribute 'rhs' uses symbolic variable 'k' before it is bound
relax.func @assert_dims_unbound(%x: !relax.tensor<[n], f32>) {
  // expected-error @below {{'relax.assert_dims' op uses a variable that is not bound}}
  relax.assert_dims #relax.expr<n> "eq" #relax.expr<k>, "relax.reshape", "x"
  relax.return
}

// -----

// VERIFIER: error: 'relax.tensor_to_shape' op uses symbolic variable 'k' before it is bound
relax.func @tensor_to_shape_unbound(%s: !relax.tensor<[2], i64>) {
  // expected-error @below {{'relax.tensor_to_shape' op uses a variable that is not bound}}
  %shape = relax.tensor_to_shape %s : !relax.tensor<[2], i64> to !relax.shape<[a, k + 1]>
  relax.return
}

// -----

// VERIFIER: error: 'relax.assert_indices' op attribute 'extent' uses symbolic variable 'k' before it is bound
relax.func @assert_indices_unbound(%i: !relax.tensor<[m], i64>) {
  // expected-error @below {{'relax.assert_indices' op uses a variable that is not bound}}
  relax.assert_indices %i, #relax.expr<k>, "relax.take" : !relax.tensor<[m], i64>
  relax.return
}

// -----

// VERIFIER: error: 'relax.tensor_to_shape' op input must be a 1-D tensor of static length, got '!relax.tensor<*, i64>'
relax.func @tensor_to_shape_unranked(%s: !relax.tensor<*, i64>) {
  // expected-error @below {{'relax.tensor_to_shape' op input must be a ranked tensor to be read}}
  %shape = relax.tensor_to_shape %s : !relax.tensor<*, i64> to !relax.shape<[a, b]>
  relax.return
}

// -----

// VERIFIER: error: 'relax.if' op condition must be a bool (i1) tensor of rank 0, got '!relax.tensor<*, i1>'
relax.func @if_unranked_cond(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<*, i1>) -> !relax.tensor<[n], f32> {
  // expected-error @below {{'relax.if' op condition was not lowered to a buffer}}
  %r = relax.if %c : !relax.tensor<*, i1> -> !relax.tensor<[n], f32> {
    relax.yield %x : !relax.tensor<[n], f32>
  } else {
    relax.yield %x : !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}
