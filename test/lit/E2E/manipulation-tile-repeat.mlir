// End-to-end: relax.tile and relax.repeat (with and without axis), symbolic
// n, two runtime sizes, against numpy. Exact (rtol 0, atol 0).
// RUN: rm -rf %t && %python %S/ref.py %t/a "np.tile(x, (2, 1, 3))" "np.repeat(x, 3, axis=0)" "np.repeat(x, 2)" -- x:f32:3,4
// RUN: relax-run %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "np.tile(x, (2, 1, 3))" "np.repeat(x, 3, axis=0)" "np.repeat(x, 2)" -- x:f32:8,4
// RUN: relax-run %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 3 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], f32>)
    -> (!relax.tensor<[2, n, 12], f32>, !relax.tensor<[n * 3, 4], f32>,
        !relax.tensor<[n * 8], f32>) {
  %y0 = relax.tile %x {repeats = array<i64: 2, 1, 3>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[2, n, 12], f32>
  %y1 = relax.repeat %x {axis = 0 : i64, repeats = 3 : i64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 3, 4], f32>
  %y2 = relax.repeat %x {repeats = 2 : i64} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 8], f32>
  relax.return %y0, %y1, %y2 : !relax.tensor<[2, n, 12], f32>, !relax.tensor<[n * 3, 4], f32>, !relax.tensor<[n * 8], f32>
}
