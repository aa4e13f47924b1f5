// End-to-end: relax.resize2d (ONNX Resize on the last two dims of NCHW)
// against numpy (ref.py resize2d_ref, written from the ONNX formulas), with
// symbolic n, h, w at (n, h, w) = (1, 3, 2) and (2, 4, 5) and sizes derived
// from them as the importer writes scales (h * 2, h floordiv 2, w * 3):
// nearest in each nearest_mode and linear, in each coordinate transform
// (half_pixel, asymmetric, align_corners, pytorch_half_pixel, including an
// output dim of 1; asymmetric 2x puts both round_prefer modes on ties),
// with explicit `scales` where ONNX gives them. Nearest
// copies exactly; linear weights are computed in f32: rtol 1e-5, atol 1e-6.
// RUN: rm -rf %t && %python -B %S/ref.py %t/a "__import__('ref').resize2d_ref(x, (2 * x.shape[2], 2 * x.shape[3]))" "__import__('ref').resize2d_ref(x, (x.shape[2] // 2, 3 * x.shape[3]), mode='asymmetric', nearest_mode='floor', scales=(0.5, 3.0))" "__import__('ref').resize2d_ref(x, (2 * x.shape[2], 5), method='linear', mode='align_corners')" "__import__('ref').resize2d_ref(x, (3 * x.shape[2], x.shape[3] // 2), method='linear', mode='pytorch_half_pixel', scales=(3.0, 0.5))" "__import__('ref').resize2d_ref(x, (5, 2 * x.shape[3]), method='linear')" "__import__('ref').resize2d_ref(x, (x.shape[2] + 1, x.shape[3] - 1), nearest_mode='ceil')" "__import__('ref').resize2d_ref(x, (2 * x.shape[2], 2 * x.shape[3]), mode='asymmetric', nearest_mode='round_prefer_ceil')" "__import__('ref').resize2d_ref(x, (x.shape[2] + 2, 1), mode='align_corners', nearest_mode='round_prefer_ceil')" "__import__('ref').resize2d_ref(x, (2 * x.shape[2], 2 * x.shape[3]), mode='asymmetric')" -- x:f32:1,3,3,2
// RUN: relax-run %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/a/out8.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --expect %t/a/out8.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python -B %S/ref.py %t/b --seed 11 "__import__('ref').resize2d_ref(x, (2 * x.shape[2], 2 * x.shape[3]))" "__import__('ref').resize2d_ref(x, (x.shape[2] // 2, 3 * x.shape[3]), mode='asymmetric', nearest_mode='floor', scales=(0.5, 3.0))" "__import__('ref').resize2d_ref(x, (2 * x.shape[2], 5), method='linear', mode='align_corners')" "__import__('ref').resize2d_ref(x, (3 * x.shape[2], x.shape[3] // 2), method='linear', mode='pytorch_half_pixel', scales=(3.0, 0.5))" "__import__('ref').resize2d_ref(x, (5, 2 * x.shape[3]), method='linear')" "__import__('ref').resize2d_ref(x, (x.shape[2] + 1, x.shape[3] - 1), nearest_mode='ceil')" "__import__('ref').resize2d_ref(x, (2 * x.shape[2], 2 * x.shape[3]), mode='asymmetric', nearest_mode='round_prefer_ceil')" "__import__('ref').resize2d_ref(x, (x.shape[2] + 2, 1), mode='align_corners', nearest_mode='round_prefer_ceil')" "__import__('ref').resize2d_ref(x, (2 * x.shape[2], 2 * x.shape[3]), mode='asymmetric')" -- x:f32:2,3,4,5
// RUN: relax-run %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/b/out8.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --expect %t/b/out8.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 9 outputs match

relax.func @main(%x: !relax.tensor<[n, 3, h, w], f32>)
    -> (!relax.tensor<[n, 3, h * 2, w * 2], f32>,
        !relax.tensor<[n, 3, h floordiv 2, w * 3], f32>,
        !relax.tensor<[n, 3, h * 2, 5], f32>,
        !relax.tensor<[n, 3, h * 3, w floordiv 2], f32>,
        !relax.tensor<[n, 3, 5, w * 2], f32>,
        !relax.tensor<[n, 3, h + 1, w - 1], f32>,
        !relax.tensor<[n, 3, h * 2, w * 2], f32>,
        !relax.tensor<[n, 3, h + 2, 1], f32>,
        !relax.tensor<[n, 3, h * 2, w * 2], f32>) {
  %r0 = relax.resize2d %x {size = #relax.shape<[h * 2, w * 2]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h * 2, w * 2], f32>
  %r1 = relax.resize2d %x {coordinate_transformation_mode = "asymmetric", nearest_mode = "floor", scales = array<f64: 5.000000e-01, 3.000000e+00>, size = #relax.shape<[h floordiv 2, w * 3]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h floordiv 2, w * 3], f32>
  %r2 = relax.resize2d %x {coordinate_transformation_mode = "align_corners", method = "linear", size = #relax.shape<[h * 2, 5]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h * 2, 5], f32>
  %r3 = relax.resize2d %x {coordinate_transformation_mode = "pytorch_half_pixel", method = "linear", scales = array<f64: 3.000000e+00, 5.000000e-01>, size = #relax.shape<[h * 3, w floordiv 2]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h * 3, w floordiv 2], f32>
  %r4 = relax.resize2d %x {method = "linear", size = #relax.shape<[5, w * 2]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, 5, w * 2], f32>
  %r5 = relax.resize2d %x {nearest_mode = "ceil", size = #relax.shape<[h + 1, w - 1]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h + 1, w - 1], f32>
  %r6 = relax.resize2d %x {coordinate_transformation_mode = "asymmetric", nearest_mode = "round_prefer_ceil", size = #relax.shape<[h * 2, w * 2]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h * 2, w * 2], f32>
  %r7 = relax.resize2d %x {coordinate_transformation_mode = "align_corners", nearest_mode = "round_prefer_ceil", size = #relax.shape<[h + 2, 1]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h + 2, 1], f32>
  %r8 = relax.resize2d %x {coordinate_transformation_mode = "asymmetric", size = #relax.shape<[h * 2, w * 2]>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, h * 2, w * 2], f32>
  relax.return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8 : !relax.tensor<[n, 3, h * 2, w * 2], f32>, !relax.tensor<[n, 3, h floordiv 2, w * 3], f32>, !relax.tensor<[n, 3, h * 2, 5], f32>, !relax.tensor<[n, 3, h * 3, w floordiv 2], f32>, !relax.tensor<[n, 3, 5, w * 2], f32>, !relax.tensor<[n, 3, h + 1, w - 1], f32>, !relax.tensor<[n, 3, h * 2, w * 2], f32>, !relax.tensor<[n, 3, h + 2, 1], f32>, !relax.tensor<[n, 3, h * 2, w * 2], f32>
}
