// End-to-end: relax.reshape (linear-index remapping with symbolic
// floordiv/mod) and relax.flatten, for two runtime sizes of n, against
// numpy. Pure data movement: exact (rtol 0, atol 0).
// RUN: rm -rf %t && %python %S/ref.py %t/a "x.reshape(-1, 24)" "x.reshape(2, -1, 3)" "x.reshape(-1)" "x.reshape(4, -1).T.reshape(-1)" -- x:f32:3,4,6
// RUN: relax-run %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "x.reshape(-1, 24)" "x.reshape(2, -1, 3)" "x.reshape(-1)" "x.reshape(4, -1).T.reshape(-1)" -- x:f32:10,4,6
// RUN: relax-run %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 4 outputs match

relax.func @main(%x: !relax.tensor<[n, 4, 6], f32>)
    -> (!relax.tensor<[n, 24], f32>, !relax.tensor<[2, n * 4, 3], f32>,
        !relax.tensor<[n * 24], f32>, !relax.tensor<[n * 24], f32>) {
  %y0 = relax.reshape %x {shape = #relax.shape<[n, 24]>} : (!relax.tensor<[n, 4, 6], f32>) -> !relax.tensor<[n, 24], f32>
  %y1 = relax.reshape %x {shape = #relax.shape<[2, n * 4, 3]>} : (!relax.tensor<[n, 4, 6], f32>) -> !relax.tensor<[2, n * 4, 3], f32>
  %y2 = relax.flatten %x : (!relax.tensor<[n, 4, 6], f32>) -> !relax.tensor<[n * 24], f32>
  %r = relax.reshape %x {shape = #relax.shape<[4, n * 6]>} : (!relax.tensor<[n, 4, 6], f32>) -> !relax.tensor<[4, n * 6], f32>
  %t = relax.permute_dims %r : (!relax.tensor<[4, n * 6], f32>) -> !relax.tensor<[n * 6, 4], f32>
  %y3 = relax.reshape %t {shape = #relax.shape<[-1]>} : (!relax.tensor<[n * 6, 4], f32>) -> !relax.tensor<[n * 24], f32>
  relax.return %y0, %y1, %y2, %y3 : !relax.tensor<[n, 24], f32>, !relax.tensor<[2, n * 4, 3], f32>, !relax.tensor<[n * 24], f32>, !relax.tensor<[n * 24], f32>
}
