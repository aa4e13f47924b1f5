// End-to-end: relax.matmul on the CPU against numpy, two runtime sizes each.
// 2-D [n, 16] x [16, m], batched [b, s, 8] x [8, m] (rhs broadcast over the
// batch), attention-style [b, 2, s, 8] x [b, 2, 8, t], and 1-D operands
// ([n, 16] x [16] and [16] x [16, m]). f32 accumulation over k <= 16:
// rtol 1e-4, atol 1e-5.
// relax-run offloads to the CPU BLAS by default; one run per file also
// checks the compiled loops (--dispatch-library=false).
// RUN: rm -rf %t && %python %S/ref.py %t/a "x @ w" "p @ w[:8]" "q @ k" "x @ v" "v @ w" -- x:f32:3,16 w:f32:16,5 p:f32:2,3,8 q:f32:2,2,3,8 k:f32:2,2,8,4 v:f32:16
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "x @ w" "p @ w[:8]" "q @ k" "x @ v" "v @ w" -- x:f32:33,16 w:f32:16,17 p:f32:3,5,8 q:f32:3,2,5,8 k:f32:3,2,8,9 v:f32:16
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run %s --dispatch-library=false --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: all 5 outputs match

relax.func @main(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[16, m], f32>,
                 %p: !relax.tensor<[b, s, 8], f32>, %q: !relax.tensor<[b, 2, s, 8], f32>,
                 %k: !relax.tensor<[b, 2, 8, t], f32>, %v: !relax.tensor<[16], f32>)
    -> (!relax.tensor<[n, m], f32>, !relax.tensor<[b, s, m], f32>,
        !relax.tensor<[b, 2, s, t], f32>, !relax.tensor<[n], f32>,
        !relax.tensor<[m], f32>) {
  %y0 = relax.matmul %x, %w : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16, m], f32>) -> !relax.tensor<[n, m], f32>
  %w8 = relax.strided_slice %w {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[8]>} : (!relax.tensor<[16, m], f32>) -> !relax.tensor<[8, m], f32>
  %y1 = relax.matmul %p, %w8 : (!relax.tensor<[b, s, 8], f32>, !relax.tensor<[8, m], f32>) -> !relax.tensor<[b, s, m], f32>
  %y2 = relax.matmul %q, %k : (!relax.tensor<[b, 2, s, 8], f32>, !relax.tensor<[b, 2, 8, t], f32>) -> !relax.tensor<[b, 2, s, t], f32>
  %y3 = relax.matmul %x, %v : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16], f32>) -> !relax.tensor<[n], f32>
  %y4 = relax.matmul %v, %w : (!relax.tensor<[16], f32>, !relax.tensor<[16, m], f32>) -> !relax.tensor<[m], f32>
  relax.return %y0, %y1, %y2, %y3, %y4 : !relax.tensor<[n, m], f32>, !relax.tensor<[b, s, m], f32>, !relax.tensor<[b, 2, s, t], f32>, !relax.tensor<[n], f32>, !relax.tensor<[m], f32>
}
