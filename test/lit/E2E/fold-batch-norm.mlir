// relax-fold-batch-norm end to end: conv2d + batch_norm (+ relu) with
// constant weights and statistics, symbolic n, h, w, against numpy in
// float64 (fold_bn_ref.py; rtol 1e-5: the folded weights are rounded to f32
// once). The default pipeline folds (the library convolution then runs with
// the bias), --dispatch-library=false folds into compiled loops, and a
// conv2d read twice (by the batch_norm and by an add) is left unfolded.
// RUN: %python %S/fold_bn_ref.py %t 2 7 5
// RUN: relax-run %s --entry relu_bn --input %t/x.npy --expect %t/relu_bn.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run %s --entry relu_bn --fuse --input %t/x.npy --expect %t/relu_bn.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run %s --entry relu_bn --dispatch-library=false --input %t/x.npy --expect %t/relu_bn.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run %s --entry two_readers --input %t/x.npy --expect %t/bn_plus_conv.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 1 outputs match

relax.func @relu_bn(%x: !relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 4, h, w], f32> {
  %w = relax.constant dense<[[[[-0.625, 0.25, -0.25], [0.625, 0.125, -0.375], [0.5, 0.0, -0.5]], [[0.375, -0.125, -0.625], [0.25, -0.25, 0.625], [0.125, -0.375, 0.5]], [[0.0, -0.5, 0.375], [-0.125, -0.625, 0.25], [-0.25, 0.625, 0.125]]], [[[-0.375, 0.5, 0.0], [-0.5, 0.375, -0.125], [-0.625, 0.25, -0.25]], [[0.625, 0.125, -0.375], [0.5, 0.0, -0.5], [0.375, -0.125, -0.625]], [[0.25, -0.25, 0.625], [0.125, -0.375, 0.5], [0.0, -0.5, 0.375]]], [[[-0.125, -0.625, 0.25], [-0.25, 0.625, 0.125], [-0.375, 0.5, 0.0]], [[-0.5, 0.375, -0.125], [-0.625, 0.25, -0.25], [0.625, 0.125, -0.375]], [[0.5, 0.0, -0.5], [0.375, -0.125, -0.625], [0.25, -0.25, 0.625]]], [[[0.125, -0.375, 0.5], [0.0, -0.5, 0.375], [-0.125, -0.625, 0.25]], [[-0.25, 0.625, 0.125], [-0.375, 0.5, 0.0], [-0.5, 0.375, -0.125]], [[-0.625, 0.25, -0.25], [0.625, 0.125, -0.375], [0.5, 0.0, -0.5]]]]> : tensor<4x3x3x3xf32>
  %g = relax.constant dense<[1.5, -0.5, 0.75, 2.0]> : tensor<4xf32>
  %b = relax.constant dense<[0.25, -1.0, 0.5, 0.0]> : tensor<4xf32>
  %m = relax.constant dense<[0.125, 0.5, -0.25, 1.0]> : tensor<4xf32>
  %v = relax.constant dense<[0.5, 2.0, 1.0, 0.25]> : tensor<4xf32>
  %y = relax.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 4, h, w], f32>
  %z = relax.batch_norm %y, %g, %b, %m, %v {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4, h, w], f32>
  %r = relax.relu %z : (!relax.tensor<[n, 4, h, w], f32>) -> !relax.tensor<[n, 4, h, w], f32>
  relax.return %r : !relax.tensor<[n, 4, h, w], f32>
}

relax.func @two_readers(%x: !relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 4, h - 2, w - 2], f32> {
  %w = relax.constant dense<[[[[-0.625, 0.25, -0.25], [0.625, 0.125, -0.375], [0.5, 0.0, -0.5]], [[0.375, -0.125, -0.625], [0.25, -0.25, 0.625], [0.125, -0.375, 0.5]], [[0.0, -0.5, 0.375], [-0.125, -0.625, 0.25], [-0.25, 0.625, 0.125]]], [[[-0.375, 0.5, 0.0], [-0.5, 0.375, -0.125], [-0.625, 0.25, -0.25]], [[0.625, 0.125, -0.375], [0.5, 0.0, -0.5], [0.375, -0.125, -0.625]], [[0.25, -0.25, 0.625], [0.125, -0.375, 0.5], [0.0, -0.5, 0.375]]], [[[-0.125, -0.625, 0.25], [-0.25, 0.625, 0.125], [-0.375, 0.5, 0.0]], [[-0.5, 0.375, -0.125], [-0.625, 0.25, -0.25], [0.625, 0.125, -0.375]], [[0.5, 0.0, -0.5], [0.375, -0.125, -0.625], [0.25, -0.25, 0.625]]], [[[0.125, -0.375, 0.5], [0.0, -0.5, 0.375], [-0.125, -0.625, 0.25]], [[-0.25, 0.625, 0.125], [-0.375, 0.5, 0.0], [-0.5, 0.375, -0.125]], [[-0.625, 0.25, -0.25], [0.625, 0.125, -0.375], [0.5, 0.0, -0.5]]]]> : tensor<4x3x3x3xf32>
  %g = relax.constant dense<[1.5, -0.5, 0.75, 2.0]> : tensor<4xf32>
  %b = relax.constant dense<[0.25, -1.0, 0.5, 0.0]> : tensor<4xf32>
  %m = relax.constant dense<[0.125, 0.5, -0.25, 1.0]> : tensor<4xf32>
  %v = relax.constant dense<[0.5, 2.0, 1.0, 0.25]> : tensor<4xf32>
  %y = relax.conv2d %x, %w : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 4, h - 2, w - 2], f32>
  %z = relax.batch_norm %y, %g, %b, %m, %v {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (!relax.tensor<[n, 4, h - 2, w - 2], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4, h - 2, w - 2], f32>
  %s = relax.add %z, %y : (!relax.tensor<[n, 4, h - 2, w - 2], f32>, !relax.tensor<[n, 4, h - 2, w - 2], f32>) -> !relax.tensor<[n, 4, h - 2, w - 2], f32>
  relax.return %s : !relax.tensor<[n, 4, h - 2, w - 2], f32>
}
