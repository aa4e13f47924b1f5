// End-to-end: log, sqrt, rsqrt and power on positive inputs on the CPU.
// Two runtime sizes of the symbolic n, against numpy; --rtol 1e-5 --atol 1e-6.
// RUN: rm -rf %t && %python %S/ref.py %t/a --positive "np.log(p)" "np.sqrt(p)" "(1/np.sqrt(p)).astype(np.float32)" "(p**q).astype(np.float32)" -- p:f32:3,4 q:f32:3,4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 5 --positive "np.log(p)" "np.sqrt(p)" "(1/np.sqrt(p)).astype(np.float32)" "(p**q).astype(np.float32)" -- p:f32:65,4 q:f32:65,4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 4 outputs match

relax.func @main(%p: !relax.tensor<[n, 4], f32>, %q: !relax.tensor<[n, 4], f32>)
    -> (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) {
  %r0 = relax.log %p : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r1 = relax.sqrt %p : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r2 = relax.rsqrt %p : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r3 = relax.power %p, %q : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %r0, %r1, %r2, %r3 : !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>
}
