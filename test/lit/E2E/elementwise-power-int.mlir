// Integer power legalizes to math.ipowi, which --lower-to-cpu expands with
// convert-math-to-funcs (it used to fail to lower). Symbolic n, two sizes,
// against numpy (exact).
// RUN: rm -rf %t && %python %S/ref.py %t/a --int-range 0,5 "x**y" "(x.astype(np.int32)**y.astype(np.int32)).astype(np.int32)" -- x:i64:3,4 y:i64:4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 --int-range 0,5 "x**y" "(x.astype(np.int32)**y.astype(np.int32)).astype(np.int32)" -- x:i64:37,4 y:i64:4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 2 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], i64>, %y: !relax.tensor<[4], i64>)
    -> (!relax.tensor<[n, 4], i64>, !relax.tensor<[n, 4], i32>) {
  %p = relax.power %x, %y : (!relax.tensor<[n, 4], i64>, !relax.tensor<[4], i64>) -> !relax.tensor<[n, 4], i64>
  %x32 = relax.astype %x {dtype = i32} : (!relax.tensor<[n, 4], i64>) -> !relax.tensor<[n, 4], i32>
  %y32 = relax.astype %y {dtype = i32} : (!relax.tensor<[4], i64>) -> !relax.tensor<[4], i32>
  %q = relax.power %x32, %y32 : (!relax.tensor<[n, 4], i32>, !relax.tensor<[4], i32>) -> !relax.tensor<[n, 4], i32>
  relax.return %p, %q : !relax.tensor<[n, 4], i64>, !relax.tensor<[n, 4], i32>
}
