// End-to-end: ui16 elementwise ops on the CPU, computed on i16 bits with
// unsigned division, min/max, comparisons, casts and power (exponents with
// the top bit set included); add/sub/mul wrap like numpy's uint16. [n, 4]
// against [4], values over the whole ui16 range (1 to 2^16 - 1), two runtime
// sizes of the symbolic n, exact against numpy.
// RUN: rm -rf %t && %python %S/ref.py %t/a --int-range 1,65536 "x+b" "x-b" "x*b" "x//b" "np.maximum(x,b)" "np.minimum(x,b)" "x<b" "x>=b" "np.where(x<b,x,b)" "x**b" "x.astype(np.float64)" "x.astype(np.float64).astype(np.uint16)" "(x.astype(np.int64)*3).astype(np.uint16)" -- x:ui16:3,4 b:ui16:4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/a/out8.npy --expect %t/a/out9.npy --expect %t/a/out10.npy --expect %t/a/out11.npy --expect %t/a/out12.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 7 --int-range 1,65536 "x+b" "x-b" "x*b" "x//b" "np.maximum(x,b)" "np.minimum(x,b)" "x<b" "x>=b" "np.where(x<b,x,b)" "x**b" "x.astype(np.float64)" "x.astype(np.float64).astype(np.uint16)" "(x.astype(np.int64)*3).astype(np.uint16)" -- x:ui16:41,4 b:ui16:4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/b/out8.npy --expect %t/b/out9.npy --expect %t/b/out10.npy --expect %t/b/out11.npy --expect %t/b/out12.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 13 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], ui16>, %b: !relax.tensor<[4], ui16>)
    -> (!relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], f64>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>) {
  %r0 = relax.add %x, %b : (!relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], ui16>
  %r1 = relax.subtract %x, %b : (!relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], ui16>
  %r2 = relax.multiply %x, %b : (!relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], ui16>
  %r3 = relax.divide %x, %b : (!relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], ui16>
  %r4 = relax.maximum %x, %b : (!relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], ui16>
  %r5 = relax.minimum %x, %b : (!relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], ui16>
  %r6 = relax.less %x, %b : (!relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], i1>
  %r7 = relax.greater_equal %x, %b : (!relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], i1>
  %r8 = relax.where %r6, %x, %b : (!relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], ui16>
  %r9 = relax.power %x, %b : (!relax.tensor<[n, 4], ui16>, !relax.tensor<[4], ui16>) -> !relax.tensor<[n, 4], ui16>
  %r10 = relax.astype %x {dtype = f64} : (!relax.tensor<[n, 4], ui16>) -> !relax.tensor<[n, 4], f64>
  %r11 = relax.astype %r10 {dtype = ui16} : (!relax.tensor<[n, 4], f64>) -> !relax.tensor<[n, 4], ui16>
  %w = relax.astype %x {dtype = i64} : (!relax.tensor<[n, 4], ui16>) -> !relax.tensor<[n, 4], i64>
  %c3 = relax.constant dense<3> : tensor<i64>
  %m = relax.multiply %w, %c3 : (!relax.tensor<[n, 4], i64>, !relax.tensor<[], i64>) -> !relax.tensor<[n, 4], i64>
  %r12 = relax.astype %m {dtype = ui16} : (!relax.tensor<[n, 4], i64>) -> !relax.tensor<[n, 4], ui16>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12 : !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], f64>, !relax.tensor<[n, 4], ui16>, !relax.tensor<[n, 4], ui16>
}
