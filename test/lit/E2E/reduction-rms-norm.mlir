// End-to-end: relax.rms_norm over the last axis of [n, 16] (weight [16]) and
// over the two trailing axes of [n, 3, 4] (weight [3, 4]), for two runtime
// sizes of n, against numpy (float64 reference). rtol 1e-5, atol 1e-5.
// RUN: rm -rf %t && %python %S/ref.py %t/a "x / np.sqrt((x.astype(np.float64) ** 2).mean(-1, keepdims=True) + 1e-5) * w" "y / np.sqrt((y.astype(np.float64) ** 2).mean((1, 2), keepdims=True) + 1e-6) * v" -- x:f32:1,16 w:f32:16 y:f32:1,3,4 v:f32:3,4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 19 "x / np.sqrt((x.astype(np.float64) ** 2).mean(-1, keepdims=True) + 1e-5) * w" "y / np.sqrt((y.astype(np.float64) ** 2).mean((1, 2), keepdims=True) + 1e-6) * v" -- x:f32:37,16 w:f32:16 y:f32:37,3,4 v:f32:3,4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK: all 2 outputs match

relax.func @main(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[16], f32>,
                 %y: !relax.tensor<[n, 3, 4], f32>, %v: !relax.tensor<[3, 4], f32>)
    -> (!relax.tensor<[n, 16], f32>, !relax.tensor<[n, 3, 4], f32>) {
  %a = relax.rms_norm %x, %w {axes = array<i64: -1>} : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16], f32>) -> !relax.tensor<[n, 16], f32>
  %b = relax.rms_norm %y, %v {axes = array<i64: 1, 2>, epsilon = 1.0e-06 : f64} : (!relax.tensor<[n, 3, 4], f32>, !relax.tensor<[3, 4], f32>) -> !relax.tensor<[n, 3, 4], f32>
  relax.return %a, %b : !relax.tensor<[n, 16], f32>, !relax.tensor<[n, 3, 4], f32>
}
