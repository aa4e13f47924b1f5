// Everything --convert-tosa-to-relax refuses is an error at the TOSA op (or
// function) that caused it, and the pass fails (nonzero exit).
// RUN: relax-opt --convert-tosa-to-relax %s -split-input-file -verify-diagnostics
// RUN: relax-opt --convert-tosa-to-relax %s -split-input-file > /dev/null 2>&1; test $? -eq 1
// RUN: relax-opt --convert-tosa-to-relax="dim-names=2n" %s > %t.name 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NAME < %t.name
// NAME: error: 'func.func' op dim name '2n' is not an identifier
// relax-run, which converts TOSA modules itself, reports the same errors.
// RUN: relax-run %s --random-inputs > %t.run 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=RUNERR < %t.run
// RUNERR: error: 'tosa.fft2d' op has no conversion to relax
// RUNERR: relax-run: error: converting the TOSA functions to relax failed

// An op without a mapping is named.
func.func @fft(%r: tensor<1x8x?xf32>, %i: tensor<1x8x?xf32>) -> tensor<1x8x?xf32> {
  // expected-error@+1 {{'tosa.fft2d' op has no conversion to relax (--convert-tosa-to-relax)}}
  %a, %b = tosa.fft2d %r, %i {inverse = false} : (tensor<1x8x?xf32>, tensor<1x8x?xf32>) -> (tensor<1x8x?xf32>, tensor<1x8x?xf32>)
  return %a : tensor<1x8x?xf32>
}

// -----

// Quantized forms: a zero point other than 0.
func.func @quantized_matmul(%a: tensor<1x?x8xi8>, %b: tensor<1x8x4xi8>) -> tensor<1x?x4xi32> {
  %azp = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %bzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.matmul' op unsupported: a zero point that is not the constant 0 (quantized TOSA)}}
  %m = tosa.matmul %a, %b, %azp, %bzp : (tensor<1x?x8xi8>, tensor<1x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x?x4xi32>
  return %m : tensor<1x?x4xi32>
}

// -----

// A multiplication with a right shift (fixed-point TOSA).
func.func @mul_shift(%a: tensor<?x4xi32>, %b: tensor<?x4xi32>) -> tensor<?x4xi32> {
  %shift = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.mul' op unsupported: a shift that is not the constant 0 (quantized TOSA)}}
  %m = tosa.mul %a, %b, %shift : (tensor<?x4xi32>, tensor<?x4xi32>, tensor<1xi8>) -> tensor<?x4xi32>
  return %m : tensor<?x4xi32>
}

// -----

// A shape computed from run-time dims (TOSA's shape ops) is not supported.
func.func @computed_shape(%x: tensor<?x4xf32>) -> tensor<?xf32> {
  %d = tosa.dim %x {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
  %f = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s = tosa.mul_shape %d, %f : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  // expected-error@+1 {{'tosa.reshape' op unsupported: a shape operand that is not a tosa.const_shape}}
  %r = tosa.reshape %x, %s : (tensor<?x4xf32>, !tosa.shape<1>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// Arguments must be ranked tensors.
// expected-error@+1 {{'func.func' op argument 1 has type 'tensor<*xf32>'; only ranked tensors convert to relax}}
func.func @unranked(%x: tensor<?x4xf32>, %y: tensor<*xf32>) -> tensor<?x4xf32> {
  %e = tosa.exp %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %e : tensor<?x4xf32>
}

// -----

// A dtype relax does not have: the relax op's own diagnostic, then which
// op could not be built.
func.func @int4(%x: tensor<?x4xi32>) -> tensor<?x4xi32> {
  // expected-error@+2 {{'relax.constant' op unsupported element type 'i4'}}
  // expected-error@+1 {{the relax.constant built from the converted operands is invalid}}
  %c = "tosa.const"() {values = dense<1> : tensor<1x4xi4>} : () -> tensor<1x4xi4>
  %d = tosa.cast %c : (tensor<1x4xi4>) -> tensor<1x4xi32>
  %e = tosa.add %x, %d : (tensor<?x4xi32>, tensor<1x4xi32>) -> tensor<?x4xi32>
  return %e : tensor<?x4xi32>
}

// -----

// Control flow inside a function.
// expected-error@+1 {{'func.func' op has control flow (more than one block); only straight-line TOSA functions convert}}
func.func @blocks(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %e = tosa.exp %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  cf.br ^bb1
^bb1:
  return %e : tensor<?x4xf32>
}

// -----

// A non-TOSA op inside a converted function.
func.func @other_dialect(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %e = tosa.exp %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  // expected-error@+1 {{'tensor.cast' op has no conversion to relax (--convert-tosa-to-relax)}}
  %c = tensor.cast %e : tensor<?x4xf32> to tensor<?x4xf32>
  return %c : tensor<?x4xf32>
}

// -----

// An argument of a dtype relax does not have.
// expected-error@+1 {{'func.func' op argument 0 of type 'tensor<?x4xi4>': unsupported relax tensor dtype 'i4'}}
func.func @int4_argument(%x: tensor<?x4xi4>) -> tensor<?x4xi4> {
  %e = tosa.abs %x : (tensor<?x4xi4>) -> tensor<?x4xi4>
  return %e : tensor<?x4xi4>
}

// -----

// A transposed convolution whose output starts with padding rows.
func.func @transpose_conv_out_pad(%x: tensor<?x2x2x3xf32>, %w: tensor<2x3x3x3xf32>, %b: tensor<2xf32>) -> tensor<?x6x5x2xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error@+1 {{'tosa.transpose_conv2d' op unsupported: a positive top or left out_pad}}
  %t = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 1, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x2x2x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x6x5x2xf32>
  return %t : tensor<?x6x5x2xf32>
}

// -----

func.func @recip_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'tosa.reciprocal' op unsupported: reciprocal of integers}}
  %y = tosa.reciprocal %x : (tensor<4xi32>) -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

func.func @nothing(%x: tensor<4xf32>) {
  %y = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error@+1 {{'func.return' op returns nothing: a relax function has results}}
  return
}

// -----

func.func @pad_value(%x: tensor<4xf32>, %v: tensor<1xf32>) -> tensor<6xf32> {
  %p = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error@+1 {{'tosa.pad' op unsupported: a pad value that is not a constant}}
  %y = tosa.pad %x, %p, %v : (tensor<4xf32>, !tosa.shape<2>, tensor<1xf32>) -> tensor<6xf32>
  return %y : tensor<6xf32>
}

// -----

func.func @slice_negative(%x: tensor<4x?xf32>) -> tensor<2x?xf32> {
  %b = tosa.const_shape {values = dense<[-1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.const_shape {values = dense<[2, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // expected-error@+1 {{has a negative start or size in dim 0}}
  %y = tosa.slice %x, %b, %s : (tensor<4x?xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x?xf32>
  return %y : tensor<2x?xf32>
}

// -----

func.func @out_pad(%x: tensor<1x4x4x2xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<3xf32>) -> tensor<1x11x11x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error@+1 {{unsupported: a bottom or right out_pad of at least the stride}}
  %y = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 2, 0, 2>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x11x11x3xf32>
  return %y : tensor<1x11x11x3xf32>
}

// -----

// The depthwise weight's channel count is the groups attribute of the
// relax conv2d: a symbolic one has no such form.
func.func @depthwise_symbolic_channels(%x: tensor<1x8x8x?xf32>, %w: tensor<3x3x?x1xf32>, %bias: tensor<1xf32>) -> tensor<1x6x6x?xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error @below {{'tosa.depthwise_conv2d' op unsupported: a depthwise weight whose channel count is not static}}
  %y = tosa.depthwise_conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x?xf32>, tensor<3x3x?x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x?xf32>
  return %y : tensor<1x6x6x?xf32>
}

// -----

// A shape returned as a result: relax has no value for it.
func.func @return_shape(%x: tensor<4xf32>) -> (tensor<4xf32>, !tosa.shape<1>) {
  %s = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  %a = tosa.abs %x : (tensor<4xf32>) -> tensor<4xf32>
  // expected-error@+1 {{'func.return' op reads a value that has no relax equivalent (type '!tosa.shape<1>')}}
  return %a, %s : tensor<4xf32>, !tosa.shape<1>
}

