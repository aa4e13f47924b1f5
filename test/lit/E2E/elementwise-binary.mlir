// End-to-end: every broadcasting binary op, comparisons, logical ops and where on the CPU ([n, 4] against [4]).
// Two runtime sizes of the symbolic n, against numpy; --rtol 1e-5 --atol 1e-6.
// RUN: rm -rf %t && %python %S/ref.py %t/a "(x+b).astype(np.float32)" "(x-b).astype(np.float32)" "(x*b).astype(np.float32)" "(x/b).astype(np.float32)" "(np.maximum(x,b)).astype(np.float32)" "(np.minimum(x,b)).astype(np.float32)" "x==y" "x!=y" "x<b" "x<=y" "x>b" "x>=b" "m & k" "m | k" "np.where(m,x,b)" -- x:f32:3,4 y:f32:3,4 b:f32:4 m:i1:3,4 k:i1:3,4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/a/out8.npy --expect %t/a/out9.npy --expect %t/a/out10.npy --expect %t/a/out11.npy --expect %t/a/out12.npy --expect %t/a/out13.npy --expect %t/a/out14.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 5 "(x+b).astype(np.float32)" "(x-b).astype(np.float32)" "(x*b).astype(np.float32)" "(x/b).astype(np.float32)" "(np.maximum(x,b)).astype(np.float32)" "(np.minimum(x,b)).astype(np.float32)" "x==y" "x!=y" "x<b" "x<=y" "x>b" "x>=b" "m & k" "m | k" "np.where(m,x,b)" -- x:f32:65,4 y:f32:65,4 b:f32:4 m:i1:65,4 k:i1:65,4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/b/out8.npy --expect %t/b/out9.npy --expect %t/b/out10.npy --expect %t/b/out11.npy --expect %t/b/out12.npy --expect %t/b/out13.npy --expect %t/b/out14.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 15 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], f32>, %y: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], f32>, %m: !relax.tensor<[n, 4], i1>, %k: !relax.tensor<[n, 4], i1>)
    -> (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], f32>) {
  %r0 = relax.add %x, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %r1 = relax.subtract %x, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %r2 = relax.multiply %x, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %r3 = relax.divide %x, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %r4 = relax.maximum %x, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %r5 = relax.minimum %x, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  %r6 = relax.equal %x, %y : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
  %r7 = relax.not_equal %x, %y : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
  %r8 = relax.less %x, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], i1>
  %r9 = relax.less_equal %x, %y : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i1>
  %r10 = relax.greater %x, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], i1>
  %r11 = relax.greater_equal %x, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], i1>
  %r12 = relax.logical_and %m, %k : (!relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>) -> !relax.tensor<[n, 4], i1>
  %r13 = relax.logical_or %m, %k : (!relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>) -> !relax.tensor<[n, 4], i1>
  %r14 = relax.where %m, %x, %b : (!relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14 : !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], i1>, !relax.tensor<[n, 4], f32>
}
