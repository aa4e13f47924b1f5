// End-to-end: relax.linear (x W^T + bias, with and without bias) with a
// symbolic batch n and output width m, two runtime sizes, against numpy.
// f32 accumulation over 16 terms: rtol 1e-4, atol 1e-5.
// relax-run offloads to the CPU BLAS by default; one run per file also
// checks the compiled loops (--dispatch-library=false).
// RUN: rm -rf %t && %python %S/ref.py %t/a "x @ w.T + c" "x @ w.T" -- x:f32:3,16 w:f32:5,16 c:f32:5
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "x @ w.T + c" "x @ w.T" -- x:f32:33,16 w:f32:17,16 c:f32:17
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run %s --dispatch-library=false --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: all 2 outputs match

relax.func @main(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[m, 16], f32>,
                 %c: !relax.tensor<[m], f32>)
    -> (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) {
  %y0 = relax.linear %x, %w, %c : (!relax.tensor<[n, 16], f32>, !relax.tensor<[m, 16], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
  %y1 = relax.linear %x, %w : (!relax.tensor<[n, 16], f32>, !relax.tensor<[m, 16], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %y0, %y1 : !relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>
}
