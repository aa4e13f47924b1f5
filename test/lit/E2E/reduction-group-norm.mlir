// End-to-end: relax.group_norm on NCHW [n, 6, h, 3] (3 groups, axes 2 and 3)
// and channels-last [n, h, 4] (2 groups, axis 1), for two runtime sizes of
// (n, h), against numpy (float64 reference, two-pass variance).
// rtol 1e-5, atol 1e-5.
// RUN: rm -rf %t && %python %S/ref.py %t/a "(lambda r: ((r - r.mean((2, 3, 4), keepdims=True)) / np.sqrt(r.var((2, 3, 4), keepdims=True) + 1e-5)).reshape(x.shape) * g[None, :, None, None] + b[None, :, None, None])(x.astype(np.float64).reshape(x.shape[0], 3, 2, x.shape[2], x.shape[3]))" "(lambda r: ((r - r.mean((1, 3), keepdims=True)) / np.sqrt(r.var((1, 3), keepdims=True) + 1e-5)).reshape(y.shape) * c + d)(y.astype(np.float64).reshape(y.shape[0], y.shape[1], 2, 2))" -- x:f32:2,6,5,3 g:f32:6 b:f32:6 y:f32:2,5,4 c:f32:4 d:f32:4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 29 "(lambda r: ((r - r.mean((2, 3, 4), keepdims=True)) / np.sqrt(r.var((2, 3, 4), keepdims=True) + 1e-5)).reshape(x.shape) * g[None, :, None, None] + b[None, :, None, None])(x.astype(np.float64).reshape(x.shape[0], 3, 2, x.shape[2], x.shape[3]))" "(lambda r: ((r - r.mean((1, 3), keepdims=True)) / np.sqrt(r.var((1, 3), keepdims=True) + 1e-5)).reshape(y.shape) * c + d)(y.astype(np.float64).reshape(y.shape[0], y.shape[1], 2, 2))" -- x:f32:3,6,1,3 g:f32:6 b:f32:6 y:f32:3,1,4 c:f32:4 d:f32:4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK: all 2 outputs match

relax.func @main(%x: !relax.tensor<[n, 6, h, 3], f32>, %g: !relax.tensor<[6], f32>, %b: !relax.tensor<[6], f32>,
                 %y: !relax.tensor<[n, h, 4], f32>, %c: !relax.tensor<[4], f32>, %d: !relax.tensor<[4], f32>)
    -> (!relax.tensor<[n, 6, h, 3], f32>, !relax.tensor<[n, h, 4], f32>) {
  %0 = relax.group_norm %x, %g, %b {axes = array<i64: 2, 3>, channel_axis = 1 : i64, num_groups = 3 : i64} : (!relax.tensor<[n, 6, h, 3], f32>, !relax.tensor<[6], f32>, !relax.tensor<[6], f32>) -> !relax.tensor<[n, 6, h, 3], f32>
  %1 = relax.group_norm %y, %c, %d {axes = array<i64: 1>, channel_axis = -1 : i64, num_groups = 2 : i64} : (!relax.tensor<[n, h, 4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, h, 4], f32>
  relax.return %0, %1 : !relax.tensor<[n, 6, h, 3], f32>, !relax.tensor<[n, h, 4], f32>
}
