// End-to-end: relax.full, zeros, ones, full_like, zeros_like, ones_like and
// arange with symbolic shapes/bounds, two runtime sizes, against numpy.
// Exact (rtol 0, atol 0).
// RUN: rm -rf %t && %python %S/ref.py %t/a "np.full((x.shape[0], 2 * x.shape[1]), 1.5, np.float32)" "np.zeros(x.shape[0], np.int32)" "np.ones((x.shape[0], 3), np.float32)" "np.full_like(x, -2.25)" "np.zeros_like(x)" "np.ones_like(x, dtype=np.int64)" "np.arange(0, x.shape[0], 2, dtype=np.int64)" "np.arange(x.shape[1], x.shape[0] + 5, 1, dtype=np.float32)" -- x:f32:3,2
// RUN: relax-run %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --expect %t/a/out7.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "np.full((x.shape[0], 2 * x.shape[1]), 1.5, np.float32)" "np.zeros(x.shape[0], np.int32)" "np.ones((x.shape[0], 3), np.float32)" "np.full_like(x, -2.25)" "np.zeros_like(x)" "np.ones_like(x, dtype=np.int64)" "np.arange(0, x.shape[0], 2, dtype=np.int64)" "np.arange(x.shape[1], x.shape[0] + 5, 1, dtype=np.float32)" -- x:f32:10,3
// RUN: relax-run %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --expect %t/b/out7.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 8 outputs match

relax.func @main(%x: !relax.tensor<[n, m], f32>)
    -> (!relax.tensor<[n, m * 2], f32>, !relax.tensor<[n], i32>,
        !relax.tensor<[n, 3], f32>, !relax.tensor<[n, m], f32>,
        !relax.tensor<[n, m], f32>, !relax.tensor<[n, m], i64>,
        !relax.tensor<[(n + 1) floordiv 2], i64>,
        !relax.tensor<[max(n + 5 - m, 0)], f32>) {
  %y0 = relax.full {dtype = f32, shape = #relax.shape<[n, m * 2]>, value = 1.5 : f64} : !relax.tensor<[n, m * 2], f32>
  %y1 = relax.zeros {dtype = i32, shape = #relax.shape<[n]>} : !relax.tensor<[n], i32>
  %y2 = relax.ones {dtype = f32, shape = #relax.shape<[n, 3]>} : !relax.tensor<[n, 3], f32>
  %y3 = relax.full_like %x {value = -2.25 : f64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %y4 = relax.zeros_like %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %y5 = relax.ones_like %x {dtype = i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], i64>
  %y6 = relax.arange {dtype = i64, end = #relax.expr<n>, start = #relax.expr<0>, step = #relax.expr<2>} : !relax.tensor<[(n + 1) floordiv 2], i64>
  %y7 = relax.arange {dtype = f32, end = #relax.expr<n + 5>, start = #relax.expr<m>, step = #relax.expr<1>} : !relax.tensor<[max(n + 5 - m, 0)], f32>
  relax.return %y0, %y1, %y2, %y3, %y4, %y5, %y6, %y7 : !relax.tensor<[n, m * 2], f32>, !relax.tensor<[n], i32>, !relax.tensor<[n, 3], f32>, !relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>, !relax.tensor<[n, m], i64>, !relax.tensor<[(n + 1) floordiv 2], i64>, !relax.tensor<[max(n + 5 - m, 0)], f32>
}
