// End-to-end: relax.max, relax.min and relax.prod over the symbolic axis and
// a constant axis (f32 and i32), for two runtime sizes of n, against numpy.
// max/min are exact; prod multiplies at most 65 values in [0.1, 2):
// rtol 1e-5, atol 1e-30.
// RUN: rm -rf %t && %python %S/ref.py %t/a --positive --int-range -50,50 "x.max(axis=1)" "x.min(axis=0, keepdims=True)" "i.max(axis=0)" "i.min(axis=1)" "x.prod(axis=1)" "x.prod(axis=0, dtype=np.float64)" -- x:f32:3,8 i:i32:3,8
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --rtol 1e-5 --atol 1e-30 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --rtol 1e-5 --atol 1e-30 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 7 --positive --int-range -50,50 "x.max(axis=1)" "x.min(axis=0, keepdims=True)" "i.max(axis=0)" "i.min(axis=1)" "x.prod(axis=1)" "x.prod(axis=0, dtype=np.float64)" -- x:f32:65,8 i:i32:65,8
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --rtol 1e-5 --atol 1e-30 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --rtol 1e-5 --atol 1e-30 | FileCheck %s
// CHECK: all 6 outputs match

relax.func @main(%x: !relax.tensor<[n, 8], f32>, %i: !relax.tensor<[n, 8], i32>)
    -> (!relax.tensor<[n], f32>, !relax.tensor<[1, 8], f32>, !relax.tensor<[8], i32>, !relax.tensor<[n], i32>, !relax.tensor<[n], f32>, !relax.tensor<[8], f32>) {
  %a = relax.max %x {axes = array<i64: 1>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n], f32>
  %b = relax.min %x {axes = array<i64: 0>, keepdims = true} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[1, 8], f32>
  %c = relax.max %i {axes = array<i64: 0>} : (!relax.tensor<[n, 8], i32>) -> !relax.tensor<[8], i32>
  %d = relax.min %i {axes = array<i64: 1>} : (!relax.tensor<[n, 8], i32>) -> !relax.tensor<[n], i32>
  %e = relax.prod %x {axes = array<i64: 1>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n], f32>
  %f = relax.prod %x {axes = array<i64: 0>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[8], f32>
  relax.return %a, %b, %c, %d, %e, %f : !relax.tensor<[n], f32>, !relax.tensor<[1, 8], f32>, !relax.tensor<[8], i32>, !relax.tensor<[n], i32>, !relax.tensor<[n], f32>, !relax.tensor<[8], f32>
}
