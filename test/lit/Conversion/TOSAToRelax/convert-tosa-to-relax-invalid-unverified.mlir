// RUN: relax-opt --mlir-very-unsafe-disable-verifier-on-parsing --convert-tosa-to-relax -split-input-file -verify-diagnostics %s
// RUN: ! relax-opt -split-input-file %s 2> %t.err
// RUN: FileCheck %s --check-prefix=VERIFIER < %t.err

// The checks of --convert-tosa-to-relax that verified TOSA never reaches:
// the relax value of a converted op must agree with the TOSA result type,
// and an operand must have a relax value. The TOSA verifiers reject each
// input first (second RUN, VERIFIER lines); the checks stay for pipelines
// run without verification and are tested with the parser's verifier off.

// VERIFIER: error: 'tosa.abs' op requires the same element type for all operands and results
func.func @dtype(%x: tensor<4xf32>) -> tensor<4xi32> {
  // expected-error @below {{'tosa.abs' op converts to element type 'f32', but its result has 'i32'}}
  %y = tosa.abs %x : (tensor<4xf32>) -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

// VERIFIER: error: 'tosa.abs' op requires the same shape for all operands and results
func.func @rank(%x: tensor<4xf32>) -> tensor<4x1xf32> {
  // expected-error @below {{'tosa.abs' op converts to a result of rank 1 ('!relax.tensor<[4], f32>'), but TOSA's has 2}}
  %y = tosa.abs %x : (tensor<4xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// -----

// VERIFIER: error: 'tosa.abs' op requires the same shape for all operands and results
func.func @dim(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @below {{'tosa.abs' op converts to '!relax.tensor<[4], f32>', whose dim 0 disagrees with 'tensor<5xf32>'}}
  %y = tosa.abs %x : (tensor<4xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

// VERIFIER: error: 'tosa.abs' op operand #0 must be tosa-conformant tensor of number values, but got '!tosa.shape<1>'
func.func @shape_as_data() -> tensor<1xf32> {
  %s = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  // expected-error @below {{'tosa.abs' op reads a value that has no relax equivalent (type '!tosa.shape<1>')}}
  %y = tosa.abs %s : (!tosa.shape<1>) -> tensor<1xf32>
  return %y : tensor<1xf32>
}

// -----

// VERIFIER: error: 'tosa.slice' op length of start is not equal to rank of input shape
func.func @slice_length(%x: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %st = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %sz = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  // expected-error @below {{'tosa.slice' op has start/size of the wrong length}}
  %y = tosa.slice %x, %st, %sz : (tensor<4x4xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
