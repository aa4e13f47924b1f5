// End-to-end: relax.matmul on i32 (exact) and on f16 operands accumulated
// into f32 via out_dtype (rtol 1e-4, atol 1e-5 against an f32 numpy
// product of the same f16 values), symbolic n and m, two runtime sizes.
// RUN: rm -rf %t && %python %S/ref.py %t/a "a @ b" "x.astype(np.float32) @ w.astype(np.float32)" -- a:i32:3,8 b:i32:8,5 x:f16:3,8 w:f16:8,5
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "a @ b" "x.astype(np.float32) @ w.astype(np.float32)" -- a:i32:33,8 b:i32:8,17 x:f16:33,8 w:f16:8,17
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: all 2 outputs match

relax.func @main(%a: !relax.tensor<[n, 8], i32>, %b: !relax.tensor<[8, m], i32>,
                 %x: !relax.tensor<[n, 8], f16>, %w: !relax.tensor<[8, m], f16>)
    -> (!relax.tensor<[n, m], i32>, !relax.tensor<[n, m], f32>) {
  %y0 = relax.matmul %a, %b : (!relax.tensor<[n, 8], i32>, !relax.tensor<[8, m], i32>) -> !relax.tensor<[n, m], i32>
  %y1 = relax.matmul %x, %w {out_dtype = f32} : (!relax.tensor<[n, 8], f16>, !relax.tensor<[8, m], f16>) -> !relax.tensor<[n, m], f32>
  relax.return %y0, %y1 : !relax.tensor<[n, m], i32>, !relax.tensor<[n, m], f32>
}
