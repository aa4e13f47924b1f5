// End-to-end: every elementwise unary op, clip, astype and logical_not on the CPU.
// Two runtime sizes of the symbolic n, against numpy; --rtol 1e-5 --atol 1e-6.
// RUN: rm -rf %t && %python %S/ref.py %t/a "(np.exp(x)).astype(np.float32)" "(np.tanh(x)).astype(np.float32)" "(sigmoid(x)).astype(np.float32)" "(0.5*x*(1+erf(x/np.sqrt(2)))).astype(np.float32)" "(0.5*x*(1+np.tanh(np.sqrt(2/np.pi)*(x+0.044715*x**3)))).astype(np.float32)" "(x*sigmoid(x)).astype(np.float32)" "(erf(x)).astype(np.float32)" "(np.sin(x)).astype(np.float32)" "(np.cos(x)).astype(np.float32)" "(np.maximum(x,0)).astype(np.float32)" "(-x).astype(np.float32)" "(np.abs(x)).astype(np.float32)" "(np.floor(x4)).astype(np.float32)" "(np.ceil(x4)).astype(np.float32)" "(np.round(x4)).astype(np.float32)" "np.clip(x,-0.25,0.5)" "(x4).astype(np.int32)" "x.astype(np.float16)" "~m" -- x:f32:3,4 x4:f32:3,4 m:i1:3,4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/a/out8.npy --expect %t/a/out9.npy --expect %t/a/out10.npy --expect %t/a/out11.npy --expect %t/a/out12.npy --expect %t/a/out13.npy --expect %t/a/out14.npy --expect %t/a/out15.npy --expect %t/a/out16.npy --expect %t/a/out17.npy --expect %t/a/out18.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 5 "(np.exp(x)).astype(np.float32)" "(np.tanh(x)).astype(np.float32)" "(sigmoid(x)).astype(np.float32)" "(0.5*x*(1+erf(x/np.sqrt(2)))).astype(np.float32)" "(0.5*x*(1+np.tanh(np.sqrt(2/np.pi)*(x+0.044715*x**3)))).astype(np.float32)" "(x*sigmoid(x)).astype(np.float32)" "(erf(x)).astype(np.float32)" "(np.sin(x)).astype(np.float32)" "(np.cos(x)).astype(np.float32)" "(np.maximum(x,0)).astype(np.float32)" "(-x).astype(np.float32)" "(np.abs(x)).astype(np.float32)" "(np.floor(x4)).astype(np.float32)" "(np.ceil(x4)).astype(np.float32)" "(np.round(x4)).astype(np.float32)" "np.clip(x,-0.25,0.5)" "(x4).astype(np.int32)" "x.astype(np.float16)" "~m" -- x:f32:65,4 x4:f32:65,4 m:i1:65,4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/b/out8.npy --expect %t/b/out9.npy --expect %t/b/out10.npy --expect %t/b/out11.npy --expect %t/b/out12.npy --expect %t/b/out13.npy --expect %t/b/out14.npy --expect %t/b/out15.npy --expect %t/b/out16.npy --expect %t/b/out17.npy --expect %t/b/out18.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 19 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], f32>, %x4: !relax.tensor<[n, 4], f32>, %m: !relax.tensor<[n, 4], i1>)
    -> (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], f16>, !relax.tensor<[n, 4], i1>) {
  %r0 = relax.exp %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r1 = relax.tanh %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r2 = relax.sigmoid %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r3 = relax.gelu %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r4 = relax.gelu_tanh %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r5 = relax.silu %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r6 = relax.erf %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r7 = relax.sin %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r8 = relax.cos %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r9 = relax.relu %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r10 = relax.negative %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r11 = relax.abs %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r12 = relax.floor %x4 : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r13 = relax.ceil %x4 : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r14 = relax.round %x4 : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r15 = relax.clip %x {max = 0.5 : f64, min = -0.25 : f64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r16 = relax.astype %x4 {dtype = i32} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], i32>
  %r17 = relax.astype %x {dtype = f16} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f16>
  %r18 = relax.logical_not %m : (!relax.tensor<[n, 4], i1>) -> !relax.tensor<[n, 4], i1>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16, %r17, %r18 : !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], i32>, !relax.tensor<[n, 4], f16>, !relax.tensor<[n, 4], i1>
}
