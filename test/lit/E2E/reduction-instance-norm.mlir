// End-to-end: ONNX InstanceNormalization is relax.group_norm with one
// channel per group (num_groups = C, channel_axis = 1, axes = every dim
// after the channel), against numpy's instance norm (per sample and
// channel, over the spatial dims; float64 reference, two-pass variance), on
// NCHW [n, 4, h, w] and NCL [n, 3, l] for two runtime sizes of (n, h, w, l).
// rtol 1e-5, atol 1e-5.
// RUN: rm -rf %t && %python -B %S/ref.py %t/a "(x - x.mean((2, 3), keepdims=True, dtype=np.float64)) / np.sqrt(x.var((2, 3), keepdims=True, dtype=np.float64) + 1e-5) * s[None, :, None, None] + b[None, :, None, None]" "(y - y.mean(2, keepdims=True, dtype=np.float64)) / np.sqrt(y.var(2, keepdims=True, dtype=np.float64) + 1e-3) * t[None, :, None] + c[None, :, None]" -- x:f32:2,4,3,5 s:f32:4 b:f32:4 y:f32:2,3,7 t:f32:3 c:f32:3
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python -B %S/ref.py %t/b --seed 31 "(x - x.mean((2, 3), keepdims=True, dtype=np.float64)) / np.sqrt(x.var((2, 3), keepdims=True, dtype=np.float64) + 1e-5) * s[None, :, None, None] + b[None, :, None, None]" "(y - y.mean(2, keepdims=True, dtype=np.float64)) / np.sqrt(y.var(2, keepdims=True, dtype=np.float64) + 1e-3) * t[None, :, None] + c[None, :, None]" -- x:f32:1,4,6,2 s:f32:4 b:f32:4 y:f32:1,3,2 t:f32:3 c:f32:3
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK: all 2 outputs match

relax.func @main(%x: !relax.tensor<[n, 4, h, w], f32>, %s: !relax.tensor<[4], f32>, %b: !relax.tensor<[4], f32>,
                 %y: !relax.tensor<[n, 3, l], f32>, %t: !relax.tensor<[3], f32>, %c: !relax.tensor<[3], f32>)
    -> (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[n, 3, l], f32>) {
  %0 = relax.group_norm %x, %s, %b {axes = array<i64: 2, 3>, channel_axis = 1 : i64, num_groups = 4 : i64} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4, h, w], f32>
  %1 = relax.group_norm %y, %t, %c {axes = array<i64: 2>, channel_axis = 1 : i64, epsilon = 1.000000e-03 : f64, num_groups = 3 : i64} : (!relax.tensor<[n, 3, l], f32>, !relax.tensor<[3], f32>, !relax.tensor<[3], f32>) -> !relax.tensor<[n, 3, l], f32>
  relax.return %0, %1 : !relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[n, 3, l], f32>
}
