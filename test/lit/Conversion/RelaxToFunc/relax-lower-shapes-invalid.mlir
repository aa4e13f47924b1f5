// RUN: relax-opt --relax-lower-shapes -split-input-file -verify-diagnostics %s

// Every compile-time diagnostic of --relax-lower-shapes that verified IR can
// reach, with symbolic dims. The ones only IR rejected by the verifiers can
// reach (unbound variables, a call_dps_packed of a func.func, an extern.func
// parameter that is not a relax type) are in
// relax-lower-shapes-invalid-unverified.mlir. Two are unreachable even
// then, so they have no test: "uses a value that was not lowered" and
// "uses a tuple that was not lowered". Values are lowered in program order
// and a tuple (a parameter, a relax.call or relax.if result, relax.tuple,
// tuple_get_item) is recorded as its leaves when it is made; a type that
// cannot be lowered is rejected where it is made.

// expected-error @below {{'relax.func' op parameter #1 of type '!relax.shape<[n]>' cannot be lowered to host code yet}}
relax.func @shape_param(%x: !relax.tensor<[n], f32>, %s: !relax.shape<[n]>) {
  relax.return
}

// -----

// A tuple result is flattened, but a shape field cannot be.
// expected-error @below {{'relax.func' op result #0 of type 'tuple<!relax.tensor<[n], f32>, !relax.shape<[n]>>' cannot be lowered yet}}
relax.func @shape_result(%x: !relax.tensor<[n], f32>) -> tuple<!relax.tensor<[n], f32>, !relax.shape<[n]>> {
  %s = relax.shape_of %x : !relax.tensor<[n], f32>
  %t = relax.tuple %x, %s : !relax.tensor<[n], f32>, !relax.shape<[n]>
  relax.return %t : tuple<!relax.tensor<[n], f32>, !relax.shape<[n]>>
}

// -----

func.func private @copy(memref<*xf32>, memref<*xf32>)
relax.func @unknown_rank_output(%x: !relax.tensor<*, f32>) -> !relax.tensor<*, f32> {
  // expected-error @below {{cannot allocate an output of type '!relax.tensor<*, f32>': every dim must be known (use match_cast)}}
  %y = relax.call_tir @copy(%x) : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return %y : !relax.tensor<*, f32>
}

// -----

// The extern.func's link name is an existing func.func with another arity:
// the call goes to that declaration.
func.func private @relax_copy(memref<?xf32>)
extern.func private @ext_copy(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "relax_copy", num_outputs = 1 : i64}
relax.func @link_arity(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error @below {{'relax.call_dps_packed' op callee 'relax_copy' takes 1 arguments after lowering, the call has 2}}
  %y = relax.call_dps_packed @ext_copy(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}

// -----

// A lowered callee's parameter types are checked only here (the call_tir
// verifier checks shapes of tir.prim_func callees).
func.func private @row(memref<?xf32>, memref<?xf32>)
relax.func @rank_mismatch(%x: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n], f32> {
  // expected-error @below {{'relax.call_tir' op cannot pass 'memref<?x?xf32>' to parameter of type 'memref<?xf32>'}}
  %y = relax.call_tir @row(%x) : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}

// -----

func.func private @half(memref<?xf16>, memref<?xf32>)
relax.func @dtype_mismatch(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error @below {{'relax.call_tir' op cannot pass 'memref<?xf32>' to parameter of type 'memref<?xf16>'}}
  %y = relax.call_tir @half(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}

// -----

tir.prim_func private @ew(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) {
  tir.return
}
relax.func @prim_func_callee(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error @below {{'relax.call_tir' op callee 'ew' is not lowered yet: run convert-tir-to-scf before relax-lower-shapes}}
  %y = relax.call_tir @ew(%x) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %y : !relax.tensor<[n], f32>
}

// -----

relax.func @prim_cast(%x: !relax.tensor<[n], f32>, %p: !relax.prim<i64>) {
  // expected-error @below {{'relax.match_cast' op only tensor-to-tensor casts can be lowered yet}}
  %c = relax.match_cast %p : !relax.prim<i64> to !relax.prim<i64>
  relax.return
}

// -----

relax.func @high_level(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n], f32> {
    // expected-error @below {{'relax.exp' op has no host lowering: legalize high-level ops first (relax-legalize-ops)}}
    %y = relax.exp %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.output %y : !relax.tensor<[n], f32>
  }
  relax.return %0 : !relax.tensor<[n], f32>
}

// -----

// A shape_of is dropped only when nothing uses it.
relax.func @used_shape(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error @below {{'relax.shape_of' op has no host lowering: legalize high-level ops first (relax-legalize-ops)}}
  %s = relax.shape_of %x : !relax.tensor<[n], f32>
  %t = relax.tuple %x, %s : !relax.tensor<[n], f32>, !relax.shape<[n]>
  relax.return %x : !relax.tensor<[n], f32>
}

// -----

relax.func @foreign_op(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  // expected-error @below {{'arith.constant' op cannot appear in a relax function being lowered}}
  %c = arith.constant 0 : index
  relax.return %x : !relax.tensor<[n], f32>
}

// -----

// A branch cannot copy a value of unknown rank it did not create.
relax.func @unranked_yield(%x: !relax.tensor<*, f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<*, f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<*, f32> {
    // expected-error @below {{'relax.yield' op cannot yield a value of unknown rank that the branch did not create: match_cast it to a ranked type first}}
    relax.yield %x : !relax.tensor<*, f32>
  } else {
    relax.yield %x : !relax.tensor<*, f32>
  }
  relax.return %r : !relax.tensor<*, f32>
}

// -----

// A loop carries tensors of known rank (its header block needs a memref
// type per carried value).
relax.func @unranked_carry(%x: !relax.tensor<*, f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<*, f32> {
  // expected-error @below {{'relax.while' op cannot carry a value of type '!relax.tensor<*, f32>' (tensors of known rank, tuples of them and primitive values can be carried)}}
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<*, f32>) -> !relax.tensor<*, f32> {
  ^bb0(%a: !relax.tensor<*, f32>):
    relax.loop_yield %c, %a : !relax.tensor<[], i1>, !relax.tensor<*, f32>
  }
  relax.return %r : !relax.tensor<*, f32>
}

// -----

// Arena sizes and offsets are written by relax-plan-memory in the function's
// variables; hand-written ones may name others.
// expected-error @below {{'relax.func' op arena size uses a variable not bound at entry}}
relax.func @unbound_arena(%x: !relax.tensor<[n], f32>) attributes {relax.memory_plan = {arena = #relax.expr<k * 64>}} {
  relax.return
}

// -----

func.func private @f(memref<?xf32>, memref<?xf32>)
relax.func @offset_without_plan(%x: !relax.tensor<[n], f32>) {
  // expected-error @below {{has an arena offset but the function has no memory plan (relax.memory_plan)}}
  %y = relax.call_tir @f(%x) {relax.arena_offsets = [#relax.expr<0>]} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

func.func private @f(memref<?xf32>, memref<?xf32>)
relax.func @unbound_offset(%x: !relax.tensor<[n], f32>) attributes {relax.memory_plan = {arena = #relax.expr<n * 4 + 64>}} {
  // expected-error @below {{arena offset uses an unbound variable}}
  %y = relax.call_tir @f(%x) {relax.arena_offsets = [#relax.expr<k * 64>]} : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return
}

// -----

// A view needs the input's buffer layout: of unknown rank there is none.
relax.func @view_unranked(%x: !relax.tensor<*, f32>) -> !relax.tensor<[4], f32> {
  // expected-error @below {{'relax.view' op can only view a ranked tensor: match_cast it first}}
  %v = relax.view %x : !relax.tensor<*, f32> to !relax.tensor<[4], f32>
  relax.return %v : !relax.tensor<[4], f32>
}

// -----

// The run-time index check reads the indices through a buffer layout: of
// unknown rank there is none.
relax.func @assert_indices_unranked(%i: !relax.tensor<*, i64>, %x: !relax.tensor<[n], f32>) {
  // expected-error @below {{'relax.assert_indices' op indices must be a ranked tensor to be checked}}
  relax.assert_indices %i, #relax.expr<n>, "relax.take" : !relax.tensor<*, i64>
  relax.return
}
