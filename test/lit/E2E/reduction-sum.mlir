// End-to-end: relax.sum over the symbolic axis, a constant axis (keepdims),
// every axis and no axis (axes = []), in f32 and i32, plus max over
// every axis with keepdims, for two runtime sizes of n, against numpy.
// f32 sums of at most 8 * 65 values in [-1, 1): rtol 1e-5, atol 1e-5.
// RUN: rm -rf %t && %python %S/ref.py %t/a "x.sum(axis=1)" "x.sum(axis=0, keepdims=True)" "x.sum()" "i.sum(axis=0).astype(np.int32)" "x" "x.max(keepdims=True)" -- x:f32:3,8 i:i32:3,8
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "x.sum(axis=1)" "x.sum(axis=0, keepdims=True)" "x.sum()" "i.sum(axis=0).astype(np.int32)" "x" "x.max(keepdims=True)" -- x:f32:65,8 i:i32:65,8
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK: all 6 outputs match

relax.func @main(%x: !relax.tensor<[n, 8], f32>, %i: !relax.tensor<[n, 8], i32>)
    -> (!relax.tensor<[n], f32>, !relax.tensor<[1, 8], f32>, !relax.tensor<[], f32>, !relax.tensor<[8], i32>,
        !relax.tensor<[n, 8], f32>, !relax.tensor<[1, 1], f32>) {
  %a = relax.sum %x {axes = array<i64: 1>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n], f32>
  %b = relax.sum %x {axes = array<i64: 0>, keepdims = true} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[1, 8], f32>
  %c = relax.sum %x : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[], f32>
  %d = relax.sum %i {axes = array<i64: -2>} : (!relax.tensor<[n, 8], i32>) -> !relax.tensor<[8], i32>
  %e = relax.sum %x {axes = array<i64>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n, 8], f32>
  %f = relax.max %x {keepdims = true} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[1, 1], f32>
  relax.return %a, %b, %c, %d, %e, %f : !relax.tensor<[n], f32>, !relax.tensor<[1, 8], f32>, !relax.tensor<[], f32>, !relax.tensor<[8], i32>, !relax.tensor<[n, 8], f32>, !relax.tensor<[1, 1], f32>
}
