// End-to-end: f16 rms_norm, softmax, mean and variance (statistics
// accumulated in f32, results rounded to f16) for two runtime sizes of the
// symbolic dims, against numpy (float64 reference rounded to f16).
// rtol 2e-3 (about two f16 ulps), atol 1e-3.
// RUN: rm -rf %t && %python %S/ref.py %t/a "(x.astype(np.float64) / np.sqrt((x.astype(np.float64) ** 2).mean(-1, keepdims=True) + 1e-5) * w).astype(np.float16)" "softmax(4.0 * y.astype(np.float64)).astype(np.float16)" "x.astype(np.float64).mean(0).astype(np.float16)" "x.var(-1, dtype=np.float64).astype(np.float16)" -- x:f16:3,64 w:f16:64 y:f16:2,1
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 37 "(x.astype(np.float64) / np.sqrt((x.astype(np.float64) ** 2).mean(-1, keepdims=True) + 1e-5) * w).astype(np.float16)" "softmax(4.0 * y.astype(np.float64)).astype(np.float16)" "x.astype(np.float64).mean(0).astype(np.float16)" "x.var(-1, dtype=np.float64).astype(np.float16)" -- x:f16:70,64 w:f16:64 y:f16:2,45
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --rtol 2e-3 --atol 1e-3 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --rtol 2e-3 --atol 1e-3 | FileCheck %s
// CHECK: all 4 outputs match

relax.func @main(%x: !relax.tensor<[n, 64], f16>, %w: !relax.tensor<[64], f16>, %y: !relax.tensor<[2, s], f16>)
    -> (!relax.tensor<[n, 64], f16>, !relax.tensor<[2, s], f16>, !relax.tensor<[64], f16>, !relax.tensor<[n], f16>) {
  %a = relax.rms_norm %x, %w {axes = array<i64: -1>} : (!relax.tensor<[n, 64], f16>, !relax.tensor<[64], f16>) -> !relax.tensor<[n, 64], f16>
  %c = relax.constant dense<4.0> : tensor<f16>
  %ys = relax.multiply %y, %c : (!relax.tensor<[2, s], f16>, !relax.tensor<[], f16>) -> !relax.tensor<[2, s], f16>
  %b = relax.softmax %ys : (!relax.tensor<[2, s], f16>) -> !relax.tensor<[2, s], f16>
  %m = relax.mean %x {axes = array<i64: 0>} : (!relax.tensor<[n, 64], f16>) -> !relax.tensor<[64], f16>
  %v = relax.variance %x {axes = array<i64: 1>} : (!relax.tensor<[n, 64], f16>) -> !relax.tensor<[n], f16>
  relax.return %a, %b, %m, %v : !relax.tensor<[n, 64], f16>, !relax.tensor<[2, s], f16>, !relax.tensor<[64], f16>, !relax.tensor<[n], f16>
}
