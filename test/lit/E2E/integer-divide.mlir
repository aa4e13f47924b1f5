// End-to-end: integer divide is defined for every operand pair (docs/relax.md,
// "Integer dtypes"): x / 0 = 0 and INT_MIN / -1 = INT_MIN (wraps), as numpy
// does, and signed division truncates toward zero; before, a zero divisor
// or INT_MIN / -1 killed relax-run with SIGFPE. Divisors in [-3, 3) (so 0
// and -1 occur; unsigned dtypes see 0 and 2^N - 3..2^N - 1), INT_MIN
// numerators from constants, signed and unsigned dtypes, two runtime sizes of
// the symbolic n, exact against numpy.
// RUN: rm -rf %t && %python %S/ref.py %t/a --int-range -3,3 "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(x,b)" "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(np.full_like(b,-2**31),b)" "u//v" "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(p,q)" "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(np.full_like(q,-2**63),q)" "w//z" "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(np.int8(-128)*np.ones_like(s),s)" -- x:i32:3,4 b:i32:3,4 u:ui8:3,4 v:ui8:3,4 p:i64:3,4 q:i64:3,4 w:ui64:3,4 z:ui64:3,4 s:i8:3,4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --input %t/a/in6.npy --input %t/a/in7.npy --input %t/a/in8.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 5 --int-range -3,3 "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(x,b)" "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(np.full_like(b,-2**31),b)" "u//v" "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(p,q)" "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(np.full_like(q,-2**63),q)" "w//z" "(lambda p,q:np.where((p%%q!=0)&((p<0)!=(q<0)),p//q+1,p//q))(np.int8(-128)*np.ones_like(s),s)" -- x:i32:41,4 b:i32:41,4 u:ui8:41,4 v:ui8:41,4 p:i64:41,4 q:i64:41,4 w:ui64:41,4 z:ui64:41,4 s:i8:41,4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --input %t/b/in6.npy --input %t/b/in7.npy --input %t/b/in8.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 7 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], i32>, %b: !relax.tensor<[n, 4], i32>,
                 %u: !relax.tensor<[n, 4], ui8>, %v: !relax.tensor<[n, 4], ui8>,
                 %p: !relax.tensor<[n, 4], i64>, %q: !relax.tensor<[n, 4], i64>,
                 %w: !relax.tensor<[n, 4], ui64>, %z: !relax.tensor<[n, 4], ui64>,
                 %s: !relax.tensor<[n, 4], i8>)
    -> (!relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], i64>, !relax.tensor<[n, 4], i64>, !relax.tensor<[n, 4], ui64>, !relax.tensor<[n, 4], i8>) {
  %r0 = relax.divide %x, %b : (!relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
  %min32 = relax.constant dense<-2147483648> : tensor<i32>
  %r1 = relax.divide %min32, %b : (!relax.tensor<[], i32>, !relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
  %r2 = relax.divide %u, %v : (!relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], ui8>) -> !relax.tensor<[n, 4], ui8>
  %r3 = relax.divide %p, %q : (!relax.tensor<[n, 4], i64>, !relax.tensor<[n, 4], i64>) -> !relax.tensor<[n, 4], i64>
  %min64 = relax.constant dense<-9223372036854775808> : tensor<i64>
  %r4 = relax.divide %min64, %q : (!relax.tensor<[], i64>, !relax.tensor<[n, 4], i64>) -> !relax.tensor<[n, 4], i64>
  %r5 = relax.divide %w, %z : (!relax.tensor<[n, 4], ui64>, !relax.tensor<[n, 4], ui64>) -> !relax.tensor<[n, 4], ui64>
  %min8 = relax.constant dense<-128> : tensor<i8>
  %r6 = relax.divide %min8, %s : (!relax.tensor<[], i8>, !relax.tensor<[n, 4], i8>) -> !relax.tensor<[n, 4], i8>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], ui8>, !relax.tensor<[n, 4], i64>, !relax.tensor<[n, 4], i64>, !relax.tensor<[n, 4], ui64>, !relax.tensor<[n, 4], i8>
}
