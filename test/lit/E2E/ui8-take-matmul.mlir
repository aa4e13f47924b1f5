// ui8 operands of take (indices) and matmul: their loads are computed on
// as i8 bits with unsigned index/extension casts (the legalization used to
// emit arith ops on ui8 values, which do not verify). Symbolic n and k, two
// sizes (the second with ui8 values up to 255), exact against numpy.
// RUN: rm -rf %t && %python %S/ref.py %t/a --int-range 0,4 "x[i]" "a.astype(np.int32) @ b.astype(np.int32)" -- x:f32:4,3 i:ui8:5 a:ui8:4,3 b:ui8:3,2
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 2 --int-range 0,256 "x[i]" "a.astype(np.int32) @ b.astype(np.int32)" -- x:f32:256,3 i:ui8:9 a:ui8:256,3 b:ui8:3,2
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 2 outputs match
relax.func @main(%x: !relax.tensor<[n, 3], f32>, %i: !relax.tensor<[k], ui8>, %a: !relax.tensor<[n, 3], ui8>, %b: !relax.tensor<[3, 2], ui8>) -> (!relax.tensor<[k, 3], f32>, !relax.tensor<[n, 2], i32>) {
  %y = relax.take %x, %i {axis = 0 : i64} : (!relax.tensor<[n, 3], f32>, !relax.tensor<[k], ui8>) -> !relax.tensor<[k, 3], f32>
  %m = relax.matmul %a, %b {out_dtype = i32} : (!relax.tensor<[n, 3], ui8>, !relax.tensor<[3, 2], ui8>) -> !relax.tensor<[n, 2], i32>
  relax.return %y, %m : !relax.tensor<[k, 3], f32>, !relax.tensor<[n, 2], i32>
}
