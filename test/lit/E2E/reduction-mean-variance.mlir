// End-to-end: relax.mean and relax.variance (two-pass) over the symbolic
// axis, a constant axis and every axis, for two runtime sizes of n, against
// numpy (float64 reference). rtol 1e-5, atol 1e-6.
// RUN: rm -rf %t && %python %S/ref.py %t/a "x.mean(axis=1)" "x.astype(np.float64).mean(axis=0, keepdims=True)" "x.var(axis=1, dtype=np.float64)" "x.var(axis=0, dtype=np.float64)" "x.var(dtype=np.float64)" -- x:f32:3,8
// RUN: relax-run %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 5 "x.mean(axis=1)" "x.astype(np.float64).mean(axis=0, keepdims=True)" "x.var(axis=1, dtype=np.float64)" "x.var(axis=0, dtype=np.float64)" "x.var(dtype=np.float64)" -- x:f32:65,8
// RUN: relax-run %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 5 outputs match

relax.func @main(%x: !relax.tensor<[n, 8], f32>)
    -> (!relax.tensor<[n], f32>, !relax.tensor<[1, 8], f32>, !relax.tensor<[n], f32>, !relax.tensor<[8], f32>, !relax.tensor<[], f32>) {
  %a = relax.mean %x {axes = array<i64: 1>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n], f32>
  %b = relax.mean %x {axes = array<i64: 0>, keepdims = true} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[1, 8], f32>
  %c = relax.variance %x {axes = array<i64: -1>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n], f32>
  %d = relax.variance %x {axes = array<i64: 0>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[8], f32>
  %e = relax.variance %x : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[], f32>
  relax.return %a, %b, %c, %d, %e : !relax.tensor<[n], f32>, !relax.tensor<[1, 8], f32>, !relax.tensor<[n], f32>, !relax.tensor<[8], f32>, !relax.tensor<[], f32>
}
