// A 2-layer MLP as torch-mlir emits it in TOSA (nn.Linear's [out, in] weight
// transposed, 2-D activations reshaped to TOSA's 3-D matmul, ReLU as clamp),
// with a dynamic batch. Converted to relax (--convert-tosa-to-relax) and run
// by relax-run, against upstream's own TOSA -> linalg -> LLVM path on the
// same inputs (upstream mlir-opt + mlir-runner, test/lit/E2E/tosa_ref.py), for
// batch 1, 5 and 64: rtol 1e-5, atol 1e-6.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/tosa_ref.py reference %s %t/b1 --func mlp --shape 1x8 --seed 1 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry mlp $(cat %t/b1/args) --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --entry mlp $(cat %t/b1/args) --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/tosa_ref.py reference %s %t/b5 --func mlp --shape 5x8 --seed 2 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry mlp $(cat %t/b5/args) --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --entry mlp $(cat %t/b5/args) --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/tosa_ref.py reference %s %t/b64 --func mlp --shape 64x8 --seed 3 --llvm-tools %llvm_tools
// RUN: relax-run %s --entry mlp $(cat %t/b64/args) --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 1 outputs match


func.func @mlp(%x: tensor<?x8xf32>) -> tensor<?x4xf32> {
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %shift = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %w1 = "tosa.const"() {values = dense<[[0.13, 0.40, 0.28, -0.27, -0.20, 0.37, -0.49, 0.32], [0.30, -0.03, -0.20, -0.22, -0.25, -0.05, 0.00, 0.05], [0.50, 0.29, 0.12, 0.49, -0.28, -0.34, 0.11, -0.46], [-0.46, 0.01, -0.03, 0.42, 0.13, 0.01, -0.00, -0.25], [-0.49, -0.31, 0.19, -0.30, -0.13, -0.50, 0.33, -0.35], [-0.23, 0.38, 0.01, 0.35, 0.14, 0.24, -0.41, 0.04], [0.01, 0.37, -0.14, 0.10, -0.44, -0.11, -0.18, -0.35], [0.32, -0.12, 0.48, 0.09, 0.11, 0.14, 0.18, -0.35], [-0.06, -0.26, -0.10, -0.40, 0.47, -0.28, 0.17, -0.20], [0.37, 0.16, -0.37, 0.35, 0.44, 0.40, 0.07, -0.35], [-0.31, 0.43, 0.05, -0.32, 0.38, 0.14, 0.07, -0.12], [-0.09, -0.26, -0.46, 0.38, -0.03, 0.05, -0.18, 0.25], [-0.47, -0.13, -0.47, -0.38, 0.47, 0.16, -0.07, 0.02], [0.37, -0.16, 0.09, 0.18, -0.14, 0.02, 0.27, 0.41], [-0.35, 0.43, -0.49, 0.25, 0.31, -0.36, -0.08, 0.32], [-0.49, 0.13, 0.29, 0.01, 0.23, -0.27, -0.30, -0.14]]> : tensor<16x8xf32>} : () -> tensor<16x8xf32>
  %b1 = "tosa.const"() {values = dense<[[-0.32, -0.15, 0.45, 0.07, -0.16, -0.23, 0.45, -0.06, 0.48, 0.02, 0.02, 0.40, 0.24, 0.08, -0.07, 0.38]]> : tensor<1x16xf32>} : () -> tensor<1x16xf32>
  %w2 = "tosa.const"() {values = dense<[[-0.09, 0.42, -0.43, -0.07, 0.02, 0.45, -0.25, 0.31, 0.18, 0.22, 0.13, 0.47, -0.17, -0.10, -0.30, -0.45], [-0.29, 0.42, 0.34, -0.39, 0.10, -0.02, 0.09, 0.16, -0.19, 0.46, -0.03, 0.13, 0.14, -0.32, -0.44, -0.09], [0.26, 0.32, 0.23, -0.39, 0.41, 0.30, 0.38, 0.02, 0.42, -0.45, -0.47, -0.48, -0.25, -0.25, -0.31, 0.07], [-0.46, 0.09, -0.33, 0.18, -0.48, -0.19, 0.44, 0.04, 0.31, 0.16, 0.11, -0.31, 0.07, -0.46, 0.30, 0.46]]> : tensor<4x16xf32>} : () -> tensor<4x16xf32>
  %b2 = "tosa.const"() {values = dense<[[0.35, -0.45, -0.16, -0.18]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  // Layer 1: x @ w1^T + b1, relu.
  %w1t = tosa.transpose %w1 {perms = array<i32: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %sx = tosa.const_shape {values = dense<[1, -1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %sx : (tensor<?x8xf32>, !tosa.shape<3>) -> tensor<1x?x8xf32>
  %sw1 = tosa.const_shape {values = dense<[1, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w13 = tosa.reshape %w1t, %sw1 : (tensor<8x16xf32>, !tosa.shape<3>) -> tensor<1x8x16xf32>
  %m1 = tosa.matmul %x3, %w13, %zp, %zp : (tensor<1x?x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x16xf32>
  %s16 = tosa.const_shape {values = dense<[-1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m12 = tosa.reshape %m1, %s16 : (tensor<1x?x16xf32>, !tosa.shape<2>) -> tensor<?x16xf32>
  %h1 = tosa.add %m12, %b1 : (tensor<?x16xf32>, tensor<1x16xf32>) -> tensor<?x16xf32>
  %r1 = tosa.clamp %h1 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<?x16xf32>) -> tensor<?x16xf32>
  // Layer 2: r1 @ w2^T + b2, scaled by 0.5, sigmoid.
  %w2t = tosa.transpose %w2 {perms = array<i32: 1, 0>} : (tensor<4x16xf32>) -> tensor<16x4xf32>
  %sr = tosa.const_shape {values = dense<[1, -1, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r13 = tosa.reshape %r1, %sr : (tensor<?x16xf32>, !tosa.shape<3>) -> tensor<1x?x16xf32>
  %sw2 = tosa.const_shape {values = dense<[1, 16, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %w23 = tosa.reshape %w2t, %sw2 : (tensor<16x4xf32>, !tosa.shape<3>) -> tensor<1x16x4xf32>
  %m2 = tosa.matmul %r13, %w23, %zp, %zp : (tensor<1x?x16xf32>, tensor<1x16x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x4xf32>
  %s4 = tosa.const_shape {values = dense<[-1, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m22 = tosa.reshape %m2, %s4 : (tensor<1x?x4xf32>, !tosa.shape<2>) -> tensor<?x4xf32>
  %h2 = tosa.add %m22, %b2 : (tensor<?x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  %half = "tosa.const"() {values = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %h2s = tosa.mul %h2, %half, %shift : (tensor<?x4xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<?x4xf32>
  %y = tosa.sigmoid %h2s : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
