// RUN: relax-opt %s -split-input-file -verify-diagnostics

relax.func @float_cond(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], f32>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{condition must be a bool (i1) tensor of rank 0, got '!relax.tensor<[], f32>'}}
  %r = relax.if %c : !relax.tensor<[], f32> -> !relax.tensor<[n], f32> {
    relax.yield %x : !relax.tensor<[n], f32>
  } else {
    relax.yield %x : !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}

// -----

relax.func @vector_cond(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[1], i1>) -> !relax.tensor<[n], f32> {
  // expected-error@+1 {{condition must be a bool (i1) tensor of rank 0, got '!relax.tensor<[1], i1>'}}
  %r = relax.if %c : !relax.tensor<[1], i1> -> !relax.tensor<[n], f32> {
    relax.yield %x : !relax.tensor<[n], f32>
  } else {
    relax.yield %x : !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}

// -----

relax.func @count(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n], f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[n], f32> {
    relax.yield %x : !relax.tensor<[n], f32>
  } else {
    // expected-error@+1 {{yields 2 values but the relax.if has 1 results}}
    relax.yield %x, %x : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}

// -----

relax.func @rank(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n, 2], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[k], f32> {
    relax.yield %x : !relax.tensor<[n], f32>
  } else {
    // expected-error@+1 {{value #0 of the else branch, of type '!relax.tensor<[n, 2], f32>', does not fit result type '!relax.tensor<[k], f32>': rank 2 is not rank 1}}
    relax.yield %y : !relax.tensor<[n, 2], f32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}

// -----

relax.func @dtype(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f16>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n], f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[n], f32> {
    // expected-error@+1 {{value #0 of the then branch, of type '!relax.tensor<[n], f16>', does not fit result type '!relax.tensor<[n], f32>': different dtypes}}
    relax.yield %y : !relax.tensor<[n], f16>
  } else {
    relax.yield %x : !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n], f32>
}

// -----

relax.func @provably_different(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[n + 1], f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[n + 1], f32> {
    // expected-error@+1 {{dim 0 is n, provably not n + 1}}
    relax.yield %x : !relax.tensor<[n], f32>
  } else {
    relax.yield %x : !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[n + 1], f32>
}

// -----

relax.func @tuple_size(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> tuple<!relax.tensor<[n], f32>> {
  %t = relax.tuple %x, %x : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
  %u = relax.tuple %x : !relax.tensor<[n], f32>
  %r = relax.if %c : !relax.tensor<[], i1> -> tuple<!relax.tensor<[n], f32>> {
    // expected-error@+1 {{tuples of 2 and 1 fields}}
    relax.yield %t : tuple<!relax.tensor<[n], f32>, !relax.tensor<[n], f32>>
  } else {
    relax.yield %u : tuple<!relax.tensor<[n], f32>>
  }
  relax.return %r : tuple<!relax.tensor<[n], f32>>
}

// -----

// A result dim that uses a variable not bound before is not a binding.
relax.func @unbound(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[?], f32> {
  // expected-error@+1 {{uses symbolic variable 'k' before it is bound}}
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[k + 1], f32> {
    relax.yield %x : !relax.tensor<[n], f32>
  } else {
    relax.yield %x : !relax.tensor<[n], f32>
  }
  %y = relax.match_cast %r : !relax.tensor<[k + 1], f32> to !relax.tensor<[?], f32>
  relax.return %y : !relax.tensor<[?], f32>
}

// -----

// A variable bound inside a branch is not bound after the if.
relax.func @branch_binding(%x: !relax.tensor<*, f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[?], f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[?], f32> {
    %y = relax.match_cast %x : !relax.tensor<*, f32> to !relax.tensor<[b], f32>
    relax.yield %y : !relax.tensor<[b], f32>
  } else {
    %y = relax.match_cast %x : !relax.tensor<*, f32> to !relax.tensor<[?], f32>
    relax.yield %y : !relax.tensor<[?], f32>
  }
  // expected-error@+1 {{uses symbolic variable 'b' before it is bound}}
  %z = relax.match_cast %r : !relax.tensor<[?], f32> to !relax.tensor<[b + 1], f32>
  relax.return %r : !relax.tensor<[?], f32>
}
