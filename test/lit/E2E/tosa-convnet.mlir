// A small NHWC conv net in TOSA with a dynamic batch: conv2d (OHWI weight,
// pad 1) + bias + ReLU, max_pool2d, depthwise conv2d + ReLU6, avg_pool2d
// padded at the top and left (padded positions left out of the divisor),
// flatten and a fully connected layer; and @convs below for the other
// convolution attributes. Converted to relax (NCHW convolutions and pools
// between permute_dims) and run by relax-run, against upstream's TOSA ->
// linalg -> LLVM path on the same inputs (test/lit/E2E/tosa_ref.py) for
// batch 1, 3 and 16: rtol 1e-5, atol 1e-5.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/tosa_ref.py reference %s %t/n1 --func convnet --shape 1x8x8x3 --seed 1 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry convnet $(cat %t/n1/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/tosa_ref.py reference %s %t/n3 --func convnet --shape 3x8x8x3 --seed 2 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry convnet $(cat %t/n3/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --entry convnet $(cat %t/n3/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/tosa_ref.py reference %s %t/n16 --func convnet --shape 16x8x8x3 --seed 3 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry convnet $(cat %t/n16/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --entry convnet $(cat %t/n16/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK: all 1 outputs match
// @convs, batch 2 and 5:
// RUN: %python %S/tosa_ref.py reference %s %t/c2 --func convs --shape 2x7x5x2 --seed 4 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry convs $(cat %t/c2/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=TWO
// RUN: %python %S/tosa_ref.py reference %s %t/c5 --func convs --shape 5x7x5x2 --seed 5 --llvm-tools %llvm_tools
// RUN: relax-run --fuse %s --entry convs $(cat %t/c5/args) --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=TWO
// TWO: all 3 outputs match

func.func @convnet(%x: tensor<?x8x8x3xf32>) -> tensor<?x3xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %w1 = "tosa.const"() {values = dense<[[[[-0.18, -0.01, 0.03], [0.19, 0.14, 0.18], [-0.12, 0.18, -0.15]], [[0.11, -0.04, 0.06], [-0.48, -0.00, -0.28], [-0.11, -0.43, 0.16]], [[0.39, -0.15, -0.39], [0.12, -0.37, 0.39], [-0.38, -0.14, -0.01]]], [[[-0.38, -0.18, -0.22], [0.21, 0.49, -0.14], [0.29, -0.36, 0.08]], [[-0.07, -0.21, 0.32], [0.25, -0.37, -0.21], [0.32, 0.49, 0.11]], [[0.37, 0.48, 0.24], [0.14, -0.28, -0.13], [0.12, 0.43, -0.20]]], [[[-0.10, -0.48, 0.20], [-0.06, 0.30, -0.27], [0.16, 0.17, -0.04]], [[-0.31, -0.10, 0.25], [-0.31, -0.41, -0.04], [-0.27, 0.30, 0.32]], [[0.45, 0.34, 0.15], [-0.31, 0.32, 0.23], [0.25, 0.20, 0.33]]], [[[-0.20, 0.17, 0.02], [-0.16, -0.17, -0.34], [-0.01, -0.13, -0.08]], [[0.35, 0.18, 0.18], [0.48, -0.28, 0.01], [-0.41, -0.11, 0.45]], [[-0.41, 0.26, 0.37], [0.01, 0.30, -0.06], [-0.15, 0.01, -0.31]]]]> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %b1 = "tosa.const"() {values = dense<[-0.19, -0.19, 0.49, -0.16]> : tensor<4xf32>} : () -> tensor<4xf32>
  %dw = "tosa.const"() {values = dense<[[[[-0.27], [0.44], [-0.36], [0.47]], [[0.35], [0.15], [-0.07], [-0.30]], [[-0.39], [-0.40], [-0.15], [-0.09]]], [[[0.42], [0.04], [0.49], [0.22]], [[-0.35], [0.05], [-0.34], [-0.46]], [[0.44], [-0.16], [-0.31], [-0.40]]], [[[0.15], [-0.04], [-0.49], [0.22]], [[-0.24], [0.28], [-0.01], [0.04]], [[-0.04], [0.18], [0.49], [0.30]]]]> : tensor<3x3x4x1xf32>} : () -> tensor<3x3x4x1xf32>
  %db = "tosa.const"() {values = dense<[-0.43, -0.01, -0.27, -0.40]> : tensor<4xf32>} : () -> tensor<4xf32>
  %fc = "tosa.const"() {values = dense<[[[-0.30, -0.25, 0.46], [0.24, 0.35, 0.20], [-0.18, -0.11, -0.06], [-0.21, -0.08, 0.27], [-0.42, -0.22, -0.02], [0.18, 0.15, 0.22], [-0.39, -0.32, -0.19], [-0.22, 0.26, 0.49], [0.18, -0.47, -0.20], [0.30, 0.42, 0.09], [-0.15, -0.14, 0.13], [0.36, -0.16, -0.31], [-0.50, -0.36, 0.35], [0.12, 0.49, -0.43], [-0.13, 0.30, 0.16], [-0.43, -0.10, 0.14]]]> : tensor<1x16x3xf32>} : () -> tensor<1x16x3xf32>
  %fb = "tosa.const"() {values = dense<[[0.19, -0.05, -0.31]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
  %c1 = tosa.conv2d %x, %w1, %b1, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x8x8x4xf32>
  %r1 = tosa.clamp %c1 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<?x8x8x4xf32>) -> tensor<?x8x8x4xf32>
  %p1 = tosa.max_pool2d %r1 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x8x8x4xf32>) -> tensor<?x4x4x4xf32>
  %c2 = tosa.depthwise_conv2d %p1, %dw, %db, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x4x4x4xf32>, tensor<3x3x4x1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x4x4x4xf32>
  %r2 = tosa.clamp %c2 {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32>
  %p2 = tosa.avg_pool2d %r2, %zp, %zp {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>} : (tensor<?x4x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x2x2x4xf32>
  %sf = tosa.const_shape {values = dense<[1, -1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %f = tosa.reshape %p2, %sf : (tensor<?x2x2x4xf32>, !tosa.shape<3>) -> tensor<1x?x16xf32>
  %m = tosa.matmul %f, %fc, %zp, %zp : (tensor<1x?x16xf32>, tensor<1x16x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x3xf32>
  %s2 = tosa.const_shape {values = dense<[-1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m2 = tosa.reshape %m, %s2 : (tensor<1x?x3xf32>, !tosa.shape<2>) -> tensor<?x3xf32>
  %y = tosa.add %m2, %fb : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// Depthwise conv2d with channel multiplier 2 and stride 2, conv2d with
// dilation (2, 1), stride (1, 2) and asymmetric padding, transpose_conv2d
// with a negative and a positive out_pad.
func.func @convs(%x: tensor<?x7x5x2xf32>) -> (tensor<?x4x3x4xf32>, tensor<?x2x2x3xf32>, tensor<?x4x6x2xf32>) {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %dw = "tosa.const"() {values = dense<[[[[-0.37, -0.00], [0.10, -0.47]], [[-0.35, 0.43], [-0.43, -0.37]], [[0.45, 0.12], [-0.13, 0.01]]], [[[0.16, -0.22], [-0.36, 0.29]], [[0.17, 0.01], [0.32, 0.05]], [[0.48, -0.30], [0.05, -0.02]]], [[[-0.15, 0.09], [-0.26, 0.30]], [[0.37, -0.37], [-0.03, -0.22]], [[-0.42, 0.40], [-0.07, -0.35]]]]> : tensor<3x3x2x2xf32>} : () -> tensor<3x3x2x2xf32>
  %db = "tosa.const"() {values = dense<[0.17, -0.30, 0.40, -0.28]> : tensor<4xf32>} : () -> tensor<4xf32>
  %w = "tosa.const"() {values = dense<[[[[-0.47, -0.30, -0.15, -0.03], [0.41, 0.20, -0.16, -0.48], [-0.34, 0.50, -0.04, 0.19]], [[-0.45, -0.47, 0.35, 0.09], [-0.19, -0.18, -0.41, -0.33], [-0.48, 0.34, -0.03, -0.37]], [[0.24, -0.30, -0.44, 0.10], [0.40, -0.47, 0.31, -0.31], [-0.41, -0.48, -0.21, 0.23]]], [[[-0.01, 0.35, -0.28, -0.18], [-0.24, 0.48, 0.44, -0.16], [-0.06, -0.19, 0.25, -0.46]], [[-0.43, -0.10, -0.25, 0.35], [0.24, 0.05, 0.16, 0.19], [0.28, 0.43, -0.35, 0.13]], [[-0.36, -0.06, 0.29, 0.39], [0.26, -0.46, -0.14, -0.34], [0.50, -0.36, -0.26, -0.14]]], [[[-0.44, 0.37, 0.14, -0.34], [-0.00, -0.42, 0.11, -0.27], [-0.46, -0.38, 0.06, 0.14]], [[-0.18, 0.14, -0.15, -0.37], [-0.18, -0.10, 0.41, -0.38], [-0.41, 0.06, 0.46, 0.41]], [[0.20, -0.43, 0.31, 0.18], [-0.36, -0.04, -0.45, 0.30], [0.22, 0.30, 0.26, -0.23]]]]> : tensor<3x3x3x4xf32>} : () -> tensor<3x3x3x4xf32>
  %b = "tosa.const"() {values = dense<[0.29, -0.25, -0.36]> : tensor<3xf32>} : () -> tensor<3xf32>
  %d = tosa.depthwise_conv2d %x, %dw, %db, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<?x7x5x2xf32>, tensor<3x3x2x2xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x4x3x4xf32>
  %c = tosa.conv2d %d, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 2, 1>, pad = array<i64: 2, 0, 1, 1>, stride = array<i64: 1, 2>} : (tensor<?x4x3x4xf32>, tensor<3x3x3x4xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x2x2x3xf32>
  %tw = "tosa.const"() {values = dense<[[[[-0.25, 0.45, -0.31], [-0.32, -0.15, -0.27], [0.17, -0.38, 0.40]], [[0.36, -0.50, 0.04], [-0.39, -0.24, -0.08], [-0.05, -0.03, 0.43]], [[-0.24, -0.31, 0.17], [0.45, 0.42, 0.38], [-0.44, 0.44, 0.15]]], [[[0.37, -0.09, -0.28], [0.29, 0.16, 0.28], [-0.30, -0.37, 0.26]], [[-0.48, 0.45, -0.36], [0.10, -0.08, -0.18], [-0.33, 0.28, 0.41]], [[0.23, 0.10, 0.21], [0.04, 0.06, 0.41], [-0.22, -0.28, 0.45]]]]> : tensor<2x3x3x3xf32>} : () -> tensor<2x3x3x3xf32>
  %tb = "tosa.const"() {values = dense<[0.44, -0.02]> : tensor<2xf32>} : () -> tensor<2xf32>
  %t = tosa.transpose_conv2d %c, %tw, %tb, %zp, %zp {acc_type = f32, out_pad = array<i64: -1, 0, 0, 1>, stride = array<i64: 2, 2>} : (tensor<?x2x2x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x4x6x2xf32>
  return %d, %c, %t : tensor<?x4x3x4xf32>, tensor<?x2x2x3xf32>, tensor<?x4x6x2xf32>
}
