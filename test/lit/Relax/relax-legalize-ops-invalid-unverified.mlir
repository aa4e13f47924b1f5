// RUN: relax-opt --mlir-very-unsafe-disable-verifier-on-parsing --relax-legalize-ops -split-input-file -verify-diagnostics %s
// RUN: ! relax-opt -split-input-file %s 2> %t.err
// RUN: FileCheck %s --check-prefix=VERIFIER < %t.err

// The checks of --relax-legalize-ops that verified IR never reaches: a
// result type that the op's inference does not give (or, for a slice with
// an unknown begin, one it could not know) is rejected by the verifier
// first (second RUN, VERIFIER lines); the legalization still reports it at
// the op instead of building a wrong loop nest, tested with the parser's
// verifier off.

// VERIFIER: error: 'relax.add' op inferred type(s) '!relax.tensor<[n, 4], f32>' are incompatible with return type(s) of operation '!relax.tensor<[4], f32>'
relax.func @add_result(%x: !relax.tensor<[n, 4], f32>, %z: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[4], f32> {
  // expected-error @below {{internal error: broadcast of an operand could not be resolved while legalizing}}
  %y = relax.add %x, %z : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[4], f32>
  relax.return %y : !relax.tensor<[4], f32>
}

// -----

// VERIFIER: error: 'relax.squeeze' op inferred type(s) '!relax.tensor<[n], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n, 1], f32>'
relax.func @squeeze_rank(%x: !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, 1], f32> {
  // expected-error @below {{'relax.squeeze' op cannot be legalized: the squeezed dims do not match the result rank}}
  %y = relax.squeeze %x {axes = array<i64: 1>} : (!relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, 1], f32>
  relax.return %y : !relax.tensor<[n, 1], f32>
}

// -----

// VERIFIER: error: 'relax.broadcast_to' op cannot broadcast rank 2 to the lower rank 1
relax.func @broadcast_rank(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[4], f32> {
  // expected-error @below {{'relax.broadcast_to' op cannot be legalized: the target rank is below the input rank}}
  %y = relax.broadcast_to %x {shape = #relax.shape<[4]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[4], f32>
  relax.return %y : !relax.tensor<[4], f32>
}

// -----

// VERIFIER: error: 'relax.strided_slice' op inferred type(s) '!relax.tensor<[n, ?], f32>' are incompatible with return type(s) of operation '!relax.tensor<[n, 2], f32>'
relax.func @slice_unknown_begin(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 2], f32> {
  // expected-error @below {{'relax.strided_slice' op cannot be legalized: begin #0 is unknown}}
  %y = relax.strided_slice %x {axes = array<i64: 1>, begin = #relax.shape<[?]>, end = #relax.shape<[2]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 2], f32>
  relax.return %y : !relax.tensor<[n, 2], f32>
}

// -----

// VERIFIER: error: 'relax.arange' op requires attribute 'start'
relax.func @arange_no_start(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], i64> {
  // expected-error @below {{'relax.arange' op cannot be legalized: its start or step is missing or unknown}}
  %y = relax.arange {dtype = i64, end = #relax.expr<n>, step = #relax.expr<1>} : !relax.tensor<[n], i64>
  relax.return %y : !relax.tensor<[n], i64>
}
