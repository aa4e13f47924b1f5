// End-to-end: relax.batch_norm (inference) along axis 1 of [n, 4, h] and
// along the last axis of [n, 4], for two runtime sizes of (n, h), against
// numpy. Inputs in [0.1, 2) (positive variances). rtol 1e-5, atol 1e-6.
// RUN: rm -rf %t && %python %S/ref.py %t/a --positive "(x - m[:, None]) / np.sqrt(v[:, None] + 1e-5) * g[:, None] + b[:, None]" "(z - m) / np.sqrt(v + 1e-3) * g + b" -- x:f32:2,4,5 g:f32:4 b:f32:4 m:f32:4 v:f32:4 z:f32:2,4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 31 --positive "(x - m[:, None]) / np.sqrt(v[:, None] + 1e-5) * g[:, None] + b[:, None]" "(z - m) / np.sqrt(v + 1e-3) * g + b" -- x:f32:7,4,1 g:f32:4 b:f32:4 m:f32:4 v:f32:4 z:f32:7,4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 2 outputs match

relax.func @main(%x: !relax.tensor<[n, 4, h], f32>, %g: !relax.tensor<[4], f32>, %b: !relax.tensor<[4], f32>,
                 %m: !relax.tensor<[4], f32>, %v: !relax.tensor<[4], f32>, %z: !relax.tensor<[n, 4], f32>)
    -> (!relax.tensor<[n, 4, h], f32>, !relax.tensor<[n, 4], f32>) {
  %0 = relax.batch_norm %x, %g, %b, %m, %v {axis = 1 : i64} : (!relax.tensor<[n, 4, h], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4, h], f32>
  %1 = relax.batch_norm %z, %g, %b, %m, %v {axis = -1 : i64, epsilon = 1.0e-03 : f64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %0, %1 : !relax.tensor<[n, 4, h], f32>, !relax.tensor<[n, 4], f32>
}
