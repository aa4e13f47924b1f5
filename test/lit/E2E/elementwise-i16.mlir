// End-to-end: i16 elementwise ops on the CPU (signed: comparisons, min/max
// and sign-extending casts; add/sub/mul wrap like numpy's int16) over the
// whole i16 range, with i32 -> i16 / ui16 narrowing. [n, 4] against [4], two
// runtime sizes of the symbolic n, exact against numpy.
// RUN: rm -rf %t && %python %S/ref.py %t/a --int-range -32768,32768 "x+b" "x-b" "x*b" "np.maximum(x,b)" "np.minimum(x,b)" "x<b" "x>=b" "np.where(x<b,x,b)" "x.astype(np.float32)" "x.astype(np.float32).astype(np.int16)" "x.astype(np.int32)" "(x.astype(np.int32)*3).astype(np.int16)" "(x.astype(np.int32)*3).astype(np.uint16)" -- x:i16:3,4 b:i16:4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/a/out8.npy --expect %t/a/out9.npy --expect %t/a/out10.npy --expect %t/a/out11.npy --expect %t/a/out12.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 9 --int-range -32768,32768 "x+b" "x-b" "x*b" "np.maximum(x,b)" "np.minimum(x,b)" "x<b" "x>=b" "np.where(x<b,x,b)" "x.astype(np.float32)" "x.astype(np.float32).astype(np.int16)" "x.astype(np.int32)" "(x.astype(np.int32)*3).astype(np.int16)" "(x.astype(np.int32)*3).astype(np.uint16)" -- x:i16:41,4 b:i16:4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/b/out8.npy --expect %t/b/out9.npy --expect %t/b/out10.npy --expect %t/b/out11.npy --expect %t/b/out12.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 13 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], i16>, %b: !relax.tensor<[4], i16>)
    -> (!relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], ui16>) {
  %r0 = relax.add %x, %b : (!relax.tensor<[n, 4], i16>, !relax.tensor<[4], i16>) -> !relax.tensor<[n, 4], i16>
  %r1 = relax.subtract %x, %b : (!relax.tensor<[n, 4], i16>, !relax.tensor<[4], i16>) -> !relax.tensor<[n, 4], i16>
  %r2 = relax.multiply %x, %b : (!relax.tensor<[n, 4], i16>, !relax.tensor<[4], i16>) -> !relax.tensor<[n, 4], i16>
  %r3 = relax.maximum %x, %b : (!relax.tensor<[n, 4], i16>, !relax.tensor<[4], i16>) -> !relax.tensor<[n, 4], i16>
  %r4 = relax.minimum %x, %b : (!relax.tensor<[n, 4], i16>, !relax.tensor<[4], i16>) -> !relax.tensor<[n, 4], i16>
  %r5 = relax.less %x, %b : (!relax.tensor<[n, 4], i16>, !relax.tensor<[4], i16>) -> !relax.tensor<[n, 4], i1>
  %r6 = relax.greater_equal %x, %b : (!relax.tensor<[n, 4], i16>, !relax.tensor<[4], i16>) -> !relax.tensor<[n, 4], i1>
  %r7 = relax.where %r5, %x, %b : (!relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i16>, !relax.tensor<[4], i16>) -> !relax.tensor<[n, 4], i16>
  %r8 = relax.astype %x {dtype = f32} : (!relax.tensor<[n, 4], i16>) -> !relax.tensor<[n, 4], f32>
  %r9 = relax.astype %r8 {dtype = i16} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i16>
  %r10 = relax.astype %x {dtype = i32} : (!relax.tensor<[n, 4], i16>) -> !relax.tensor<[n, 4], i32>
  %c3 = relax.constant dense<3> : tensor<i32>
  %m = relax.multiply %r10, %c3 : (!relax.tensor<[n, 4], i32>, !relax.tensor<[], i32>) -> !relax.tensor<[n, 4], i32>
  %r11 = relax.astype %m {dtype = i16} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i16>
  %r12 = relax.astype %m {dtype = ui16} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], ui16>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12 : !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i16>, !relax.tensor<[n, 4], ui16>
}
