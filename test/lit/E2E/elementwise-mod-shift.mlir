// End-to-end: relax.floor_mod / relax.fmod (numpy np.mod / np.fmod; integer
// x mod 0 = 0 and INT_MIN mod -1 = 0, never a trap), relax.left_shift /
// relax.right_shift (numpy: the amount read as unsigned, amounts >= the bit
// width shift everything out, signed right shifts are arithmetic) and
// relax.isnan / relax.isinf, on signed, unsigned and float dtypes, two
// runtime sizes of the symbolic n, against numpy. Integers and i1 compare
// exactly; floats with rtol = atol = 1e-6 (the remainders are exact in
// float arithmetic, the tolerance only covers the sign of zero).
// Operands in [-5, 5) so zero and -1 divisors occur (ui8 sees 0..4 and
// 251..255); shift amounts b * 9 reach below 0 and above 31.
// RUN: rm -rf %t && %python %S/ref.py %t/a --int-range -5,5 "np.mod(a, b)" "np.fmod(a, b)" "np.mod(np.full_like(b, -2**31), b)" "np.fmod(np.full_like(b, -2**31).astype(np.int64), b).astype(np.int32)" "np.mod(x, y)" "np.fmod(x, y)" "np.mod(u, v)" "np.fmod(u, v)" "np.left_shift(a, b * 9)" "np.right_shift(a, b * 9)" "np.left_shift(u, v)" "np.right_shift(u, v)" "np.isnan(np.log(x))" "np.isinf(x / np.floor(x))" -- a:i32:3,4 b:i32:3,4 x:f32:3,4 y:f32:4 u:ui8:3 v:ui8:3
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/a/out8.npy --expect %t/a/out9.npy --expect %t/a/out10.npy --expect %t/a/out11.npy --expect %t/a/out12.npy --expect %t/a/out13.npy --rtol 1e-6 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/a/out8.npy --expect %t/a/out9.npy --expect %t/a/out10.npy --expect %t/a/out11.npy --expect %t/a/out12.npy --expect %t/a/out13.npy --rtol 1e-6 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 7 --int-range -5,5 "np.mod(a, b)" "np.fmod(a, b)" "np.mod(np.full_like(b, -2**31), b)" "np.fmod(np.full_like(b, -2**31).astype(np.int64), b).astype(np.int32)" "np.mod(x, y)" "np.fmod(x, y)" "np.mod(u, v)" "np.fmod(u, v)" "np.left_shift(a, b * 9)" "np.right_shift(a, b * 9)" "np.left_shift(u, v)" "np.right_shift(u, v)" "np.isnan(np.log(x))" "np.isinf(x / np.floor(x))" -- a:i32:37,4 b:i32:37,4 x:f32:37,4 y:f32:4 u:ui8:37 v:ui8:37
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/b/out8.npy --expect %t/b/out9.npy --expect %t/b/out10.npy --expect %t/b/out11.npy --expect %t/b/out12.npy --expect %t/b/out13.npy --rtol 1e-6 --atol 1e-6 | FileCheck %s
// CHECK: all 14 outputs match

relax.func @main(%a: !relax.tensor<[n, 4], i32>, %b: !relax.tensor<[n, 4], i32>, %x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[4], f32>,
                 %u: !relax.tensor<[n], ui8>, %v: !relax.tensor<[n], ui8>)
    -> (!relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>) {
  %r0 = relax.floor_mod %a, %b : (!relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
  %r1 = relax.fmod %a, %b : (!relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
  %min32 = relax.constant dense<-2147483648> : tensor<i32>
  %r2 = relax.floor_mod %min32, %b : (!relax.tensor<[], i32>, !relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
  %r3 = relax.fmod %min32, %b : (!relax.tensor<[], i32>, !relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
  %r4 = relax.floor_mod %x, %y : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %r5 = relax.fmod %x, %y : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %r6 = relax.floor_mod %u, %v : (!relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>) -> !relax.tensor<[n], ui8>
  %r7 = relax.fmod %u, %v : (!relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>) -> !relax.tensor<[n], ui8>
  %nine = relax.constant dense<9> : tensor<i32>
  %s = relax.multiply %b, %nine : (!relax.tensor<[n, 4], i32>, !relax.tensor<[], i32>) -> !relax.tensor<[n, 4], i32>
  %r8 = relax.left_shift %a, %s : (!relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
  %r9 = relax.right_shift %a, %s : (!relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
  %r10 = relax.left_shift %u, %v : (!relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>) -> !relax.tensor<[n], ui8>
  %r11 = relax.right_shift %u, %v : (!relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>) -> !relax.tensor<[n], ui8>
  %l = relax.log %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r12 = relax.isnan %l : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
  %f = relax.floor %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %q = relax.divide %x, %f : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r13 = relax.isinf %q : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13 : !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n], ui8>, !relax.tensor<[n], ui8>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>
}
