// End-to-end: relax.conv2d (NCHW / OIHW) on the CPU against numpy
// (ref.py conv2d_ref), symbolic n, h, w at (n, h, w) = (1, 5, 6) and
// (2, 8, 7): [n, 3, h, w] with a 3x3 kernel, pad 1, stride 1 and 2; and a
// grouped (2 groups), dilated (2), pad 2 conv. f32 accumulation over at
// most 27 terms: rtol 1e-4, atol 1e-5.
// relax-run offloads to the CPU BLAS by default; one run per file also
// checks the compiled loops (--dispatch-library=false).
// RUN: rm -rf %t && %python -B %S/ref.py %t/a "__import__('ref').conv2d_ref(x, w1, padding=[1])" "__import__('ref').conv2d_ref(x, w1, strides=[2], padding=[1])" "__import__('ref').conv2d_ref(x2, w2, padding=[2], dilation=[2], groups=2)" -- x:f32:1,3,5,6 w1:f32:4,3,3,3 x2:f32:1,4,5,6 w2:f32:6,2,3,3
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python -B %S/ref.py %t/b --seed 3 "__import__('ref').conv2d_ref(x, w1, padding=[1])" "__import__('ref').conv2d_ref(x, w1, strides=[2], padding=[1])" "__import__('ref').conv2d_ref(x2, w2, padding=[2], dilation=[2], groups=2)" -- x:f32:2,3,8,7 w1:f32:4,3,3,3 x2:f32:2,4,8,7 w2:f32:6,2,3,3
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run %s --dispatch-library=false --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: all 3 outputs match

relax.func @main(%x: !relax.tensor<[n, 3, h, w], f32>, %w1: !relax.tensor<[4, 3, 3, 3], f32>,
                 %x2: !relax.tensor<[n, 4, h, w], f32>, %w2: !relax.tensor<[6, 2, 3, 3], f32>)
    -> (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[n, 4, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>,
        !relax.tensor<[n, 6, h, w], f32>) {
  %y0 = relax.conv2d %x, %w1 {padding = array<i64: 1>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 4, h, w], f32>
  %y1 = relax.conv2d %x, %w1 {padding = array<i64: 1>, strides = array<i64: 2>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 4, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %y2 = relax.conv2d %x2, %w2 {padding = array<i64: 2>, dilation = array<i64: 2>, groups = 2} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[6, 2, 3, 3], f32>) -> !relax.tensor<[n, 6, h, w], f32>
  relax.return %y0, %y1, %y2 : !relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[n, 4, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, 6, h, w], f32>
}
