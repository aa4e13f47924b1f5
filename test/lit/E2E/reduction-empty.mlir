// End-to-end: reductions over the symbolic axis when it is 0 at run time
// (n = 0) and when it is not (n = 5), against numpy: sum 0, prod 1, max
// -inf, min of i32 INT_MAX, mean and variance nan (numpy warns on stderr).
// rtol 1e-5, atol 1e-6.
// RUN: rm -rf %t && %python %S/ref.py %t/a "x.sum(axis=0)" "x.prod(axis=0)" "x.max(axis=0, initial=-np.inf)" "i.min(axis=0, initial=np.iinfo(np.int32).max)" "x.mean(axis=0)" "x.var(axis=0)" -- x:f32:0,8 i:i32:0,8 2>/dev/null
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 41 "x.sum(axis=0)" "x.prod(axis=0)" "x.max(axis=0, initial=-np.inf)" "i.min(axis=0, initial=np.iinfo(np.int32).max)" "x.mean(axis=0)" "x.var(axis=0)" -- x:f32:5,8 i:i32:5,8
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 6 outputs match

relax.func @main(%x: !relax.tensor<[n, 8], f32>, %i: !relax.tensor<[n, 8], i32>)
    -> (!relax.tensor<[8], f32>, !relax.tensor<[8], f32>, !relax.tensor<[8], f32>, !relax.tensor<[8], i32>, !relax.tensor<[8], f32>, !relax.tensor<[8], f32>) {
  %a = relax.sum %x {axes = array<i64: 0>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[8], f32>
  %b = relax.prod %x {axes = array<i64: 0>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[8], f32>
  %c = relax.max %x {axes = array<i64: 0>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[8], f32>
  %d = relax.min %i {axes = array<i64: 0>} : (!relax.tensor<[n, 8], i32>) -> !relax.tensor<[8], i32>
  %e = relax.mean %x {axes = array<i64: 0>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[8], f32>
  %f = relax.variance %x {axes = array<i64: 0>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[8], f32>
  relax.return %a, %b, %c, %d, %e, %f : !relax.tensor<[8], f32>, !relax.tensor<[8], f32>, !relax.tensor<[8], f32>, !relax.tensor<[8], i32>, !relax.tensor<[8], f32>, !relax.tensor<[8], f32>
}
