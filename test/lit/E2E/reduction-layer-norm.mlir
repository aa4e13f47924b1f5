// End-to-end: relax.layer_norm over the last axis of [n, 12] and over the
// two trailing axes of [n, 3, 4], and over the symbolic axis of [n, 5]
// (gamma/beta [n]), for two runtime sizes of n, against numpy (float64
// reference, two-pass variance). rtol 1e-5, atol 1e-5.
// RUN: rm -rf %t && %python %S/ref.py %t/a "(x - x.mean(-1, keepdims=True, dtype=np.float64)) / np.sqrt(x.var(-1, keepdims=True, dtype=np.float64) + 1e-5) * g + b" "(y - y.mean((1, 2), keepdims=True, dtype=np.float64)) / np.sqrt(y.var((1, 2), keepdims=True, dtype=np.float64) + 1e-3) * h + c" "((z - z.mean(0, keepdims=True, dtype=np.float64)) / np.sqrt(z.var(0, keepdims=True, dtype=np.float64) + 1e-5)) * k[:, None] + k[:, None]" -- x:f32:2,12 g:f32:12 b:f32:12 y:f32:2,3,4 h:f32:3,4 c:f32:3,4 z:f32:2,5 k:f32:2
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --input %t/a/in6.npy --input %t/a/in7.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --input %t/a/in6.npy --input %t/a/in7.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 23 "(x - x.mean(-1, keepdims=True, dtype=np.float64)) / np.sqrt(x.var(-1, keepdims=True, dtype=np.float64) + 1e-5) * g + b" "(y - y.mean((1, 2), keepdims=True, dtype=np.float64)) / np.sqrt(y.var((1, 2), keepdims=True, dtype=np.float64) + 1e-3) * h + c" "((z - z.mean(0, keepdims=True, dtype=np.float64)) / np.sqrt(z.var(0, keepdims=True, dtype=np.float64) + 1e-5)) * k[:, None] + k[:, None]" -- x:f32:41,12 g:f32:12 b:f32:12 y:f32:41,3,4 h:f32:3,4 c:f32:3,4 z:f32:41,5 k:f32:41
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --input %t/b/in6.npy --input %t/b/in7.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --input %t/b/in6.npy --input %t/b/in7.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK: all 3 outputs match

relax.func @main(%x: !relax.tensor<[n, 12], f32>, %g: !relax.tensor<[12], f32>, %b: !relax.tensor<[12], f32>,
                 %y: !relax.tensor<[n, 3, 4], f32>, %h: !relax.tensor<[3, 4], f32>, %c: !relax.tensor<[3, 4], f32>,
                 %z: !relax.tensor<[n, 5], f32>, %k: !relax.tensor<[n], f32>)
    -> (!relax.tensor<[n, 12], f32>, !relax.tensor<[n, 3, 4], f32>, !relax.tensor<[n, 5], f32>) {
  %0 = relax.layer_norm %x, %g, %b {axes = array<i64: -1>} : (!relax.tensor<[n, 12], f32>, !relax.tensor<[12], f32>, !relax.tensor<[12], f32>) -> !relax.tensor<[n, 12], f32>
  %1 = relax.layer_norm %y, %h, %c {axes = array<i64: 1, 2>, epsilon = 1.0e-03 : f64} : (!relax.tensor<[n, 3, 4], f32>, !relax.tensor<[3, 4], f32>, !relax.tensor<[3, 4], f32>) -> !relax.tensor<[n, 3, 4], f32>
  %2 = relax.layer_norm %z, %k, %k {axes = array<i64: 0>} : (!relax.tensor<[n, 5], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n, 5], f32>
  relax.return %0, %1, %2 : !relax.tensor<[n, 12], f32>, !relax.tensor<[n, 3, 4], f32>, !relax.tensor<[n, 5], f32>
}
