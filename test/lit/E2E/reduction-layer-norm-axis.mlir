// End-to-end: ONNX LayerNormalization with its `axis` attribute is one
// relax.layer_norm with axes = [axis, ..., rank - 1] and Scale / B of the
// normalised shape input.shape[axis:]: axis 1 of NCHW [n, 3, h, 4] (gamma
// [3, h, 4], symbolic) and axis -2 of [n, h, 6] (axes [-2, -1], gamma
// [h, 6]), for two runtime sizes of (n, h), against numpy (float64
// reference, two-pass variance). rtol 1e-5, atol 1e-5.
// RUN: rm -rf %t && %python -B %S/ref.py %t/a "(x - x.mean((1, 2, 3), keepdims=True, dtype=np.float64)) / np.sqrt(x.var((1, 2, 3), keepdims=True, dtype=np.float64) + 1e-5) * g + b" "(z - z.mean((1, 2), keepdims=True, dtype=np.float64)) / np.sqrt(z.var((1, 2), keepdims=True, dtype=np.float64) + 1e-5) * k + c" -- x:f32:2,3,5,4 g:f32:3,5,4 b:f32:3,5,4 z:f32:2,5,6 k:f32:5,6 c:f32:5,6
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --input %t/a/in4.npy --input %t/a/in5.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python -B %S/ref.py %t/b --seed 37 "(x - x.mean((1, 2, 3), keepdims=True, dtype=np.float64)) / np.sqrt(x.var((1, 2, 3), keepdims=True, dtype=np.float64) + 1e-5) * g + b" "(z - z.mean((1, 2), keepdims=True, dtype=np.float64)) / np.sqrt(z.var((1, 2), keepdims=True, dtype=np.float64) + 1e-5) * k + c" -- x:f32:3,3,1,4 g:f32:3,1,4 b:f32:3,1,4 z:f32:3,1,6 k:f32:1,6 c:f32:1,6
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --input %t/b/in4.npy --input %t/b/in5.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK: all 2 outputs match

relax.func @main(%x: !relax.tensor<[n, 3, h, 4], f32>, %g: !relax.tensor<[3, h, 4], f32>, %b: !relax.tensor<[3, h, 4], f32>,
                 %z: !relax.tensor<[n, h, 6], f32>, %k: !relax.tensor<[h, 6], f32>, %c: !relax.tensor<[h, 6], f32>)
    -> (!relax.tensor<[n, 3, h, 4], f32>, !relax.tensor<[n, h, 6], f32>) {
  %0 = relax.layer_norm %x, %g, %b {axes = array<i64: 1, 2, 3>} : (!relax.tensor<[n, 3, h, 4], f32>, !relax.tensor<[3, h, 4], f32>, !relax.tensor<[3, h, 4], f32>) -> !relax.tensor<[n, 3, h, 4], f32>
  %1 = relax.layer_norm %z, %k, %c {axes = array<i64: -2, -1>} : (!relax.tensor<[n, h, 6], f32>, !relax.tensor<[h, 6], f32>, !relax.tensor<[h, 6], f32>) -> !relax.tensor<[n, h, 6], f32>
  relax.return %0, %1 : !relax.tensor<[n, 3, h, 4], f32>, !relax.tensor<[n, h, 6], f32>
}
