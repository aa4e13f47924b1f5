// End-to-end: ui8 elementwise ops (computed on i8 bits with unsigned division,
// min/max, comparisons and casts; add/sub/mul wrap like numpy's uint8) on the
// CPU, [n, 4] against [4], two runtime sizes of the symbolic n, exact.
// RUN: rm -rf %t && %python %S/ref.py %t/a --int-range 1,256 "x+b" "x-b" "x*b" "x//b" "np.maximum(x,b)" "np.minimum(x,b)" "x<b" "x>=b" "x.astype(np.float32)" "x.astype(np.int32)" "(x.astype(np.int32)*3).astype(np.uint8)" -- x:ui8:3,4 b:ui8:4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/a/out8.npy --expect %t/a/out9.npy --expect %t/a/out10.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 7 --int-range 1,256 "x+b" "x-b" "x*b" "x//b" "np.maximum(x,b)" "np.minimum(x,b)" "x<b" "x>=b" "x.astype(np.float32)" "x.astype(np.int32)" "(x.astype(np.int32)*3).astype(np.uint8)" -- x:ui8:41,4 b:ui8:4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/b/out8.npy --expect %t/b/out9.npy --expect %t/b/out10.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 11 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], ui8>, %b: !relax.tensor<[4], ui8>)
    -> (!relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], ui8>) {
  %r0 = relax.add %x, %b : (!relax.tensor<[n, 4], ui8>, !relax.tensor<[4], ui8>) -> !relax.tensor<[n, 4], ui8>
  %r1 = relax.subtract %x, %b : (!relax.tensor<[n, 4], ui8>, !relax.tensor<[4], ui8>) -> !relax.tensor<[n, 4], ui8>
  %r2 = relax.multiply %x, %b : (!relax.tensor<[n, 4], ui8>, !relax.tensor<[4], ui8>) -> !relax.tensor<[n, 4], ui8>
  %r3 = relax.divide %x, %b : (!relax.tensor<[n, 4], ui8>, !relax.tensor<[4], ui8>) -> !relax.tensor<[n, 4], ui8>
  %r4 = relax.maximum %x, %b : (!relax.tensor<[n, 4], ui8>, !relax.tensor<[4], ui8>) -> !relax.tensor<[n, 4], ui8>
  %r5 = relax.minimum %x, %b : (!relax.tensor<[n, 4], ui8>, !relax.tensor<[4], ui8>) -> !relax.tensor<[n, 4], ui8>
  %r6 = relax.less %x, %b : (!relax.tensor<[n, 4], ui8>, !relax.tensor<[4], ui8>) -> !relax.tensor<[n, 4], i1>
  %r7 = relax.greater_equal %x, %b : (!relax.tensor<[n, 4], ui8>, !relax.tensor<[4], ui8>) -> !relax.tensor<[n, 4], i1>
  %r8 = relax.astype %x {dtype = f32} : (!relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n, 4], f32>
  %r9 = relax.astype %x {dtype = i32} : (!relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n, 4], i32>
  %c3 = relax.constant dense<3> : tensor<i32>
  %m = relax.multiply %r9, %c3 : (!relax.tensor<[n, 4], i32>, !relax.tensor<[], i32>) -> !relax.tensor<[n, 4], i32>
  %r10 = relax.astype %m {dtype = ui8} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], ui8>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10 : !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], ui8>
}
