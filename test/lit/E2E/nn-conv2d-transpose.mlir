// End-to-end: relax.conv2d_transpose (ONNX ConvTranspose, NCHW data,
// [c, o / groups, kh, kw] weight) on the CPU against numpy (ref.py
// conv2d_transpose_ref, a scatter-form reference checked to be the adjoint
// of conv2d_ref), symbolic n, h, w at (n, h, w) = (1, 3, 4) and (2, 5, 2):
// stride 2, pad 1, output_padding 1 (the 2x upsampling [n, 3, h * 2,
// w * 2]); 2 groups, dilation 2, asymmetric padding; strides (3, 2) with
// output_padding (2, 1). f32 accumulation over at most 36 terms: rtol 1e-4,
// atol 1e-5.
// RUN: rm -rf %t && %python -B %S/ref.py %t/a "__import__('ref').conv2d_transpose_ref(x, w1, strides=[2], padding=[1], output_padding=[1])" "__import__('ref').conv2d_transpose_ref(x, w2, padding=[1, 0, 2, 1], dilation=[2], groups=2)" "__import__('ref').conv2d_transpose_ref(x, w3, strides=[3, 2], output_padding=[2, 1])" -- x:f32:1,4,3,4 w1:f32:4,3,3,3 w2:f32:4,2,3,3 w3:f32:4,4,2,3
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python -B %S/ref.py %t/b --seed 5 "__import__('ref').conv2d_transpose_ref(x, w1, strides=[2], padding=[1], output_padding=[1])" "__import__('ref').conv2d_transpose_ref(x, w2, padding=[1, 0, 2, 1], dilation=[2], groups=2)" "__import__('ref').conv2d_transpose_ref(x, w3, strides=[3, 2], output_padding=[2, 1])" -- x:f32:2,4,5,2 w1:f32:4,3,3,3 w2:f32:4,2,3,3 w3:f32:4,4,2,3
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK: all 3 outputs match

relax.func @main(%x: !relax.tensor<[n, 4, h, w], f32>, %w1: !relax.tensor<[4, 3, 3, 3], f32>,
                 %w2: !relax.tensor<[4, 2, 3, 3], f32>, %w3: !relax.tensor<[4, 4, 2, 3], f32>)
    -> (!relax.tensor<[n, 3, h * 2, w * 2], f32>, !relax.tensor<[n, 4, h + 1, w + 3], f32>,
        !relax.tensor<[n, 4, h * 3 + 1, w * 2 + 2], f32>) {
  %y0 = relax.conv2d_transpose %x, %w1 {output_padding = array<i64: 1>, padding = array<i64: 1>, strides = array<i64: 2>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 3, h * 2, w * 2], f32>
  %y1 = relax.conv2d_transpose %x, %w2 {dilation = array<i64: 2>, groups = 2 : i64, padding = array<i64: 1, 0, 2, 1>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, 2, 3, 3], f32>) -> !relax.tensor<[n, 4, h + 1, w + 3], f32>
  %y2 = relax.conv2d_transpose %x, %w3 {output_padding = array<i64: 2, 1>, strides = array<i64: 3, 2>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, 4, 2, 3], f32>) -> !relax.tensor<[n, 4, h * 3 + 1, w * 2 + 2], f32>
  relax.return %y0, %y1, %y2 : !relax.tensor<[n, 3, h * 2, w * 2], f32>, !relax.tensor<[n, 4, h + 1, w + 3], f32>, !relax.tensor<[n, 4, h * 3 + 1, w * 2 + 2], f32>
}
