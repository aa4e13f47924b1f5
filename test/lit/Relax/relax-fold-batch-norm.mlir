// RUN: relax-opt %s --relax-fold-batch-norm | FileCheck %s

// s = gamma / sqrt(var + eps) = [3 / 2, 1 / 0.5] = [1.5, 2]: W' = W * s,
// b' = beta - mean * s = [1 - 3, 0 - 1].
// CHECK-LABEL: relax.func @fold
// CHECK-DAG: %[[B:.*]] = relax.constant dense<[{{\[}}[-2.000000e+00]], {{\[}}[-1.000000e+00]]]> : tensor<2x1x1xf32>
// CHECK-DAG: %[[W:.*]] = relax.constant dense<[{{\[}}[{{\[}}3.000000e+00]]], {{\[}}[{{\[}}-2.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK: %[[Y:.*]] = relax.conv2d %arg0, %[[W]]
// CHECK: %[[Z:.*]] = relax.add %[[Y]], %[[B]] : (!relax.tensor<[n, 2, h, w], f32>, !relax.tensor<[2, 1, 1], f32>) -> !relax.tensor<[n, 2, h, w], f32>
// CHECK-NOT: relax.batch_norm
// CHECK: relax.return %[[Z]]
relax.func @fold(%x: !relax.tensor<[n, 1, h, w], f32>) -> !relax.tensor<[n, 2, h, w], f32> {
  %w = relax.constant dense<[[[[2.0]]], [[[-1.0]]]]> : tensor<2x1x1x1xf32>
  %g = relax.constant dense<[3.0, 1.0]> : tensor<2xf32>
  %b = relax.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %m = relax.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %v = relax.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %y = relax.conv2d %x, %w : (!relax.tensor<[n, 1, h, w], f32>, !relax.tensor<[2, 1, 1, 1], f32>) -> !relax.tensor<[n, 2, h, w], f32>
  %z = relax.batch_norm %y, %g, %b, %m, %v {axis = 1 : i64, epsilon = 0.0 : f64} : (!relax.tensor<[n, 2, h, w], f32>, !relax.tensor<[2], f32>, !relax.tensor<[2], f32>, !relax.tensor<[2], f32>, !relax.tensor<[2], f32>) -> !relax.tensor<[n, 2, h, w], f32>
  relax.return %z : !relax.tensor<[n, 2, h, w], f32>
}

// Statistics that are not constants: nothing to fold.
// CHECK-LABEL: relax.func @runtime_gamma
// CHECK: relax.batch_norm
relax.func @runtime_gamma(%x: !relax.tensor<[n, 1, h, w], f32>, %g: !relax.tensor<[2], f32>) -> !relax.tensor<[n, 2, h, w], f32> {
  %w = relax.constant dense<[[[[2.0]]], [[[-1.0]]]]> : tensor<2x1x1x1xf32>
  %b = relax.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %m = relax.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %v = relax.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %y = relax.conv2d %x, %w : (!relax.tensor<[n, 1, h, w], f32>, !relax.tensor<[2, 1, 1, 1], f32>) -> !relax.tensor<[n, 2, h, w], f32>
  %z = relax.batch_norm %y, %g, %b, %m, %v {axis = 1 : i64, epsilon = 0.0 : f64} : (!relax.tensor<[n, 2, h, w], f32>, !relax.tensor<[2], f32>, !relax.tensor<[2], f32>, !relax.tensor<[2], f32>, !relax.tensor<[2], f32>) -> !relax.tensor<[n, 2, h, w], f32>
  relax.return %z : !relax.tensor<[n, 2, h, w], f32>
}

// A weight that is a parameter: nothing to fold either.
// CHECK-LABEL: relax.func @runtime_weight
// CHECK: relax.batch_norm
relax.func @runtime_weight(%x: !relax.tensor<[n, 1, h, w], f32>, %w: !relax.tensor<[2, 1, 1, 1], f32>) -> !relax.tensor<[n, 2, h, w], f32> {
  %g = relax.constant dense<[3.0, 1.0]> : tensor<2xf32>
  %b = relax.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %m = relax.constant dense<[2.0, 0.5]> : tensor<2xf32>
  %v = relax.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %y = relax.conv2d %x, %w : (!relax.tensor<[n, 1, h, w], f32>, !relax.tensor<[2, 1, 1, 1], f32>) -> !relax.tensor<[n, 2, h, w], f32>
  %z = relax.batch_norm %y, %g, %b, %m, %v {axis = 1 : i64, epsilon = 0.0 : f64} : (!relax.tensor<[n, 2, h, w], f32>, !relax.tensor<[2], f32>, !relax.tensor<[2], f32>, !relax.tensor<[2], f32>, !relax.tensor<[2], f32>) -> !relax.tensor<[n, 2, h, w], f32>
  relax.return %z : !relax.tensor<[n, 2, h, w], f32>
}
