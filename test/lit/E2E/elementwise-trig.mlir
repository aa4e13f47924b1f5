// End-to-end: the trigonometric and hyperbolic functions and their inverses
// (math dialect; libm on the CPU, libdevice on the GPU). x in [-1, 1) is the
// domain of asin, acos and atanh; acosh reads exp(p) >= 1.1 for p in [0.1, 2).
// Two runtime sizes of the symbolic n, against numpy; --rtol 1e-5 --atol 1e-6.
// RUN: rm -rf %t && %python %S/ref.py %t/a "(np.tan(x)).astype(np.float32)" "(np.sinh(x)).astype(np.float32)" "(np.cosh(x)).astype(np.float32)" "(np.arcsin(x)).astype(np.float32)" "(np.arccos(x)).astype(np.float32)" "(np.arctan(x)).astype(np.float32)" "(np.arcsinh(x)).astype(np.float32)" "(np.arctanh(x)).astype(np.float32)" -- x:f32:3,4
// RUN: %python %S/ref.py %t/ap --positive "(np.arccosh(np.exp(p))).astype(np.float32)" -- p:f32:3,4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/ap/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/ap/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/ap/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/ap/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 5 "(np.tan(x)).astype(np.float32)" "(np.sinh(x)).astype(np.float32)" "(np.cosh(x)).astype(np.float32)" "(np.arcsin(x)).astype(np.float32)" "(np.arccos(x)).astype(np.float32)" "(np.arctan(x)).astype(np.float32)" "(np.arcsinh(x)).astype(np.float32)" "(np.arctanh(x)).astype(np.float32)" -- x:f32:65,4
// RUN: %python %S/ref.py %t/bp --seed 5 --positive "(np.arccosh(np.exp(p))).astype(np.float32)" -- p:f32:65,4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/bp/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/bp/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/bp/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/bp/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 9 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], f32>, %p: !relax.tensor<[n, 4], f32>)
    -> (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) {
  %r0 = relax.tan %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r1 = relax.sinh %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r2 = relax.cosh %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r3 = relax.asin %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r4 = relax.acos %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r5 = relax.atan %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r6 = relax.asinh %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r7 = relax.atanh %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %e = relax.exp %p : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r8 = relax.acosh %e : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8 : !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>
}
