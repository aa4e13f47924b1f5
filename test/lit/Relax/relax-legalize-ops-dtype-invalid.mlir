// RUN: relax-opt --relax-legalize-ops --split-input-file --verify-diagnostics %s

// Dtypes the loop lowering refuses although the op verifiers accept them:
// integer pooling, unsigned arithmetic other than the ops that pick
// unsigned forms, arithmetic on i1.

relax.func @int_pool(%x: !relax.tensor<[n, 3, h, w], i32>) -> !relax.tensor<[n, 3, (h + 1) floordiv 2, (w + 1) floordiv 2], i32> {
  // expected-error@+1 {{'relax.avg_pool2d' op cannot be legalized: only float pooling is supported, got 'i32'}}
  %y = relax.avg_pool2d %x {pool_size = array<i64: 3>, strides = array<i64: 2>, padding = array<i64: 1>} : (!relax.tensor<[n, 3, h, w], i32>) -> !relax.tensor<[n, 3, (h + 1) floordiv 2, (w + 1) floordiv 2], i32>
  relax.return %y : !relax.tensor<[n, 3, (h + 1) floordiv 2, (w + 1) floordiv 2], i32>
}

// -----

relax.func @unsigned_abs(%x: !relax.tensor<[n], ui8>) -> !relax.tensor<[n], ui8> {
  // expected-error@+1 {{'relax.abs' op cannot be legalized: 'ui8' arithmetic is not supported by the loop lowering yet}}
  %z = relax.abs %x : (!relax.tensor<[n], ui8>) -> !relax.tensor<[n], ui8>
  relax.return %z : !relax.tensor<[n], ui8>
}

// -----

relax.func @bool_sum(%x: !relax.tensor<[n, 4], i1>) -> !relax.tensor<[n], i1> {
  // expected-error@+1 {{'relax.sum' op cannot be legalized: arithmetic on i1 is not supported; cast to an integer dtype first}}
  %y = relax.sum %x {axes = array<i64: 1>} : (!relax.tensor<[n, 4], i1>) -> !relax.tensor<[n], i1>
  relax.return %y : !relax.tensor<[n], i1>
}

// -----

relax.func @unsigned_cumsum(%x: !relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n, 4], ui8> {
  // expected-error@+1 {{'relax.cumsum' op cannot be legalized: 'ui8' arithmetic is not supported by the loop lowering yet}}
  %y = relax.cumsum %x {axis = 1 : i64} : (!relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n, 4], ui8>
  relax.return %y : !relax.tensor<[n, 4], ui8>
}

// -----

relax.func @unsigned_sum(%x: !relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n], ui8> {
  // expected-error@+1 {{'relax.sum' op cannot be legalized: 'ui8' arithmetic is not supported by the loop lowering yet}}
  %y = relax.sum %x {axes = array<i64: 1>} : (!relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n], ui8>
  relax.return %y : !relax.tensor<[n], ui8>
}
