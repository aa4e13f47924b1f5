// End-to-end: relax.cumsum along the symbolic axis, along a constant axis,
// flattened ([n * 8]) and i32 -> i64 with dtype, for two runtime sizes of n,
// against numpy. f32 prefix sums of at most 520 values in [-1, 1):
// rtol 1e-5, atol 1e-4; integers exact.
// RUN: rm -rf %t && %python %S/ref.py %t/a "np.cumsum(x, axis=0)" "np.cumsum(x, axis=1)" "np.cumsum(x.astype(np.float64))" "np.cumsum(i, axis=1, dtype=np.int64)" -- x:f32:3,8 i:i32:3,8
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 17 "np.cumsum(x, axis=0)" "np.cumsum(x, axis=1)" "np.cumsum(x.astype(np.float64))" "np.cumsum(i, axis=1, dtype=np.int64)" -- x:f32:65,8 i:i32:65,8
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --rtol 1e-5 --atol 1e-4 | FileCheck %s
// CHECK: all 4 outputs match

relax.func @main(%x: !relax.tensor<[n, 8], f32>, %i: !relax.tensor<[n, 8], i32>)
    -> (!relax.tensor<[n, 8], f32>, !relax.tensor<[n, 8], f32>, !relax.tensor<[n * 8], f32>, !relax.tensor<[n, 8], i64>) {
  %a = relax.cumsum %x {axis = 0 : i64} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n, 8], f32>
  %b = relax.cumsum %x {axis = -1 : i64} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n, 8], f32>
  %c = relax.cumsum %x : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n * 8], f32>
  %d = relax.cumsum %i {axis = 1 : i64, dtype = i64} : (!relax.tensor<[n, 8], i32>) -> !relax.tensor<[n, 8], i64>
  relax.return %a, %b, %c, %d : !relax.tensor<[n, 8], f32>, !relax.tensor<[n, 8], f32>, !relax.tensor<[n * 8], f32>, !relax.tensor<[n, 8], i64>
}
