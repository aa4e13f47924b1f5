// End-to-end: relax.argmax / relax.argmin (i64 results) along the constant
// axis, the symbolic axis (keepdims) and flattened, on f32 and on i32 with
// many ties (numpy returns the first extreme), for two runtime sizes of n.
// Exact: rtol 0, atol 0.
// RUN: rm -rf %t && %python %S/ref.py %t/a --int-range 0,3 "x.argmax(axis=1)" "x.argmin(axis=0)[None, :]" "x.argmax()" "i.argmax(axis=1)" "i.argmin(axis=0)" -- x:f32:3,8 i:i32:3,8
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 11 --int-range 0,3 "x.argmax(axis=1)" "x.argmin(axis=0)[None, :]" "x.argmax()" "i.argmax(axis=1)" "i.argmin(axis=0)" -- x:f32:65,8 i:i32:65,8
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 5 outputs match

relax.func @main(%x: !relax.tensor<[n, 8], f32>, %i: !relax.tensor<[n, 8], i32>)
    -> (!relax.tensor<[n], i64>, !relax.tensor<[1, 8], i64>, !relax.tensor<[], i64>, !relax.tensor<[n], i64>, !relax.tensor<[8], i64>) {
  %a = relax.argmax %x {axis = 1 : i64} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n], i64>
  %b = relax.argmin %x {axis = 0 : i64, keepdims = true} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[1, 8], i64>
  %c = relax.argmax %x : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[], i64>
  %d = relax.argmax %i {axis = -1 : i64} : (!relax.tensor<[n, 8], i32>) -> !relax.tensor<[n], i64>
  %e = relax.argmin %i {axis = 0 : i64} : (!relax.tensor<[n, 8], i32>) -> !relax.tensor<[8], i64>
  relax.return %a, %b, %c, %d, %e : !relax.tensor<[n], i64>, !relax.tensor<[1, 8], i64>, !relax.tensor<[], i64>, !relax.tensor<[n], i64>, !relax.tensor<[8], i64>
}
