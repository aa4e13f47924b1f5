// End-to-end: relax.softmax and relax.log_softmax over the last, symbolic
// axis of [2, s] (s = 1 and 33) and softmax over the first axis, against
// numpy (max-subtracted, float64 reference). Inputs are scaled to [-8, 8) to
// exercise the max subtraction. rtol 1e-5, atol 1e-6.
// RUN: rm -rf %t && %python %S/ref.py %t/a "softmax(8.0 * x.astype(np.float64))" "(lambda y: y - y.max(-1, keepdims=True) - np.log(np.exp(y - y.max(-1, keepdims=True)).sum(-1, keepdims=True)))(8.0 * x.astype(np.float64))" "softmax(8.0 * x.astype(np.float64), axis=0)" -- x:f32:2,1
// RUN: relax-run %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 13 "softmax(8.0 * x.astype(np.float64))" "(lambda y: y - y.max(-1, keepdims=True) - np.log(np.exp(y - y.max(-1, keepdims=True)).sum(-1, keepdims=True)))(8.0 * x.astype(np.float64))" "softmax(8.0 * x.astype(np.float64), axis=0)" -- x:f32:2,33
// RUN: relax-run %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 3 outputs match

relax.func @main(%x: !relax.tensor<[2, s], f32>)
    -> (!relax.tensor<[2, s], f32>, !relax.tensor<[2, s], f32>, !relax.tensor<[2, s], f32>) {
  %c = relax.constant dense<8.0> : tensor<f32>
  %xs = relax.multiply %x, %c : (!relax.tensor<[2, s], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[2, s], f32>
  %a = relax.softmax %xs : (!relax.tensor<[2, s], f32>) -> !relax.tensor<[2, s], f32>
  %b = relax.log_softmax %xs {axis = 1 : i64} : (!relax.tensor<[2, s], f32>) -> !relax.tensor<[2, s], f32>
  %d = relax.softmax %xs {axis = 0 : i64} : (!relax.tensor<[2, s], f32>) -> !relax.tensor<[2, s], f32>
  relax.return %a, %b, %d : !relax.tensor<[2, s], f32>, !relax.tensor<[2, s], f32>, !relax.tensor<[2, s], f32>
}
