// RUN: relax-opt %s -split-input-file -verify-diagnostics

relax.func @float_cond(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{condition must be a bool (i1) tensor of rank 0, got '!relax.tensor<[], f32>'}}
  %r = relax.while %c : !relax.tensor<[], f32> iter_args(%x : !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  ^bb0(%a: !relax.tensor<[n], f32>):
    relax.loop_yield %c, %a : !relax.tensor<[], f32>, !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}

// -----

relax.func @vector_next(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>, %v: !relax.tensor<[1], i1>) -> !relax.tensor<[n], f32> {
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  ^bb0(%a: !relax.tensor<[n], f32>):
    // expected-error@+1 {{condition must be a bool (i1) tensor of rank 0, got '!relax.tensor<[1], i1>'}}
    relax.loop_yield %v, %a : !relax.tensor<[1], i1>, !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}

// -----

relax.func @count(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n], f32> {
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  ^bb0(%a: !relax.tensor<[n], f32>):
    // expected-error@+1 {{yields 2 values but the relax.while carries 1}}
    relax.loop_yield %c, %a, %a : !relax.tensor<[], i1>, !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}

// -----

relax.func @args(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{body has 2 arguments but the loop carries 1 values}}
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  ^bb0(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[n], f32>):
    relax.loop_yield %c, %a : !relax.tensor<[], i1>, !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}

// -----

relax.func @arg_type(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  // expected-error@+1 {{body argument #0 has type '!relax.tensor<[n], f32>' but result #0 has type '!relax.tensor<[k], f32>' (the carried types must be the same)}}
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[n], f32>) -> !relax.tensor<[k], f32> {
  ^bb0(%a: !relax.tensor<[n], f32>):
    relax.loop_yield %c, %a : !relax.tensor<[], i1>, !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}

// -----

relax.func @init(%x: !relax.tensor<[n, 2], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  // expected-error@+1 {{initial value #0, of type '!relax.tensor<[n, 2], f32>', does not fit carried type '!relax.tensor<[k], f32>': rank 2 is not rank 1}}
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[n, 2], f32>) -> !relax.tensor<[k], f32> {
  ^bb0(%a: !relax.tensor<[k], f32>):
    relax.loop_yield %c, %a : !relax.tensor<[], i1>, !relax.tensor<[k], f32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}

// -----

relax.func @dtype(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], i32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[n], f32>) -> !relax.tensor<[k], f32> {
  ^bb0(%a: !relax.tensor<[k], f32>):
    // expected-error@+1 {{value #0, of type '!relax.tensor<[n], i32>', does not fit carried type '!relax.tensor<[k], f32>': different dtypes}}
    relax.loop_yield %c, %y : !relax.tensor<[], i1>, !relax.tensor<[n], i32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}

// -----

relax.func @static_dim(%x: !relax.tensor<[4], f32>, %y: !relax.tensor<[5], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[4], f32> {
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[4], f32>) -> !relax.tensor<[4], f32> {
  ^bb0(%a: !relax.tensor<[4], f32>):
    // expected-error@+1 {{value #0, of type '!relax.tensor<[5], f32>', does not fit carried type '!relax.tensor<[4], f32>': dim 0 is 5, provably not 4}}
    relax.loop_yield %c, %y : !relax.tensor<[], i1>, !relax.tensor<[5], f32>
  }
  relax.return %r : !relax.tensor<[4], f32>
}

// -----

relax.func @no_count(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{has 1 initial values but 2 results}}
  %r:2 = "relax.while"(%c, %x) ({
  ^bb0(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[n], f32>):
    "relax.loop_yield"(%c, %a, %b) : (!relax.tensor<[], i1>, !relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> ()
  }) : (!relax.tensor<[], i1>, !relax.tensor<[n], f32>) -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
  relax.return %r#0 : !relax.tensor<[n], f32>
}

// -----

relax.func @outside(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{'relax.loop_yield' op expects parent op 'relax.while'}}
  relax.loop_yield %c, %x : !relax.tensor<[], i1>, !relax.tensor<[n], f32>
}
