// End-to-end: 2-D pooling (NCHW) on the CPU against numpy (ref.py
// pool2d_ref / adaptive_avg_pool2d_ref), symbolic n, c, h, w at
// (n, c, h, w) = (1, 2, 7, 9) and (2, 3, 10, 6). max_pool2d 3x3 stride 2
// pad 1 and 2x2 stride 2 ceil_mode (odd sizes leave a partial last window);
// avg_pool2d 3x3 stride 2 pad 1 and 2x3 with asymmetric padding (padding
// is not counted: count_include_pad = false); adaptive_avg_pool2d to 3x2
// (overlapping windows), to the input size (no output_size) and
// global_avg_pool2d. rtol 1e-5, atol 1e-6.
// RUN: rm -rf %t && %python -B %S/ref.py %t/a "__import__('ref').pool2d_ref(x, [3], [2], [1])" "__import__('ref').pool2d_ref(x, [2], [2], ceil_mode=True)" "__import__('ref').pool2d_ref(x, [3], [2], [1], kind='avg')" "__import__('ref').pool2d_ref(x, [2, 3], padding=[0, 1, 1, 0], kind='avg')" "__import__('ref').adaptive_avg_pool2d_ref(x, [3, 2])" "__import__('ref').adaptive_avg_pool2d_ref(x, [1, 1])" "__import__('ref').adaptive_avg_pool2d_ref(x)" -- x:f32:1,2,7,9
// RUN: relax-run %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python -B %S/ref.py %t/b --seed 3 "__import__('ref').pool2d_ref(x, [3], [2], [1])" "__import__('ref').pool2d_ref(x, [2], [2], ceil_mode=True)" "__import__('ref').pool2d_ref(x, [3], [2], [1], kind='avg')" "__import__('ref').pool2d_ref(x, [2, 3], padding=[0, 1, 1, 0], kind='avg')" "__import__('ref').adaptive_avg_pool2d_ref(x, [3, 2])" "__import__('ref').adaptive_avg_pool2d_ref(x, [1, 1])" "__import__('ref').adaptive_avg_pool2d_ref(x)" -- x:f32:2,3,10,6
// RUN: relax-run %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 7 outputs match

relax.func @main(%x: !relax.tensor<[n, c, h, w], f32>)
    -> (!relax.tensor<[n, c, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>,
        !relax.tensor<[n, c, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>,
        !relax.tensor<[n, c, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>,
        !relax.tensor<[n, c, h, w - 1], f32>,
        !relax.tensor<[n, c, 3, 2], f32>,
        !relax.tensor<[n, c, 1, 1], f32>,
        !relax.tensor<[n, c, h, w], f32>) {
  %y0 = relax.max_pool2d %x {pool_size = array<i64: 3>, strides = array<i64: 2>, padding = array<i64: 1>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %y1 = relax.max_pool2d %x {pool_size = array<i64: 2>, strides = array<i64: 2>, ceil_mode = true} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %y2 = relax.avg_pool2d %x {pool_size = array<i64: 3>, strides = array<i64: 2>, padding = array<i64: 1>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %y3 = relax.avg_pool2d %x {pool_size = array<i64: 2, 3>, padding = array<i64: 0, 1, 1, 0>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h, w - 1], f32>
  %y4 = relax.adaptive_avg_pool2d %x {output_size = array<i64: 3, 2>} : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 3, 2], f32>
  %y5 = relax.global_avg_pool2d %x : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, 1, 1], f32>
  %y6 = relax.adaptive_avg_pool2d %x : (!relax.tensor<[n, c, h, w], f32>) -> !relax.tensor<[n, c, h, w], f32>
  relax.return %y0, %y1, %y2, %y3, %y4, %y5, %y6 : !relax.tensor<[n, c, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, c, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, c, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, c, h, w - 1], f32>, !relax.tensor<[n, c, 3, 2], f32>, !relax.tensor<[n, c, 1, 1], f32>, !relax.tensor<[n, c, h, w], f32>
}
