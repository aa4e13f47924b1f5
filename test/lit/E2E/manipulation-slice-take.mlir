// End-to-end: relax.strided_slice (constant, negative and symbolic begin/end,
// strides 1 and 2) and relax.take (with and without axis, i64 and i32
// indices), symbolic n/k/j, two runtime sizes, against numpy. Exact
// (rtol 0, atol 0).
// RUN: rm -rf %t && %python %S/ref.py %t/a --int-range -3,6 "x[1:k.shape[0], :]" "x[:, 1:-1:2]" "x[:, ::-2]" "x[i]" "np.take(x, j, axis=1)" "np.take(x, j)" "x[i.shape[0]:]" -- x:f32:6,7 k:f32:4 i:i64:5 j:i32:3
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --expect %t/a/out6.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 --int-range -3,6 "x[1:k.shape[0], :]" "x[:, 1:-1:2]" "x[:, ::-2]" "x[i]" "np.take(x, j, axis=1)" "np.take(x, j)" "x[i.shape[0]:]" -- x:f32:11,7 k:f32:20 i:i64:2 j:i32:9
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --expect %t/b/out6.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 7 outputs match

relax.func @main(%x: !relax.tensor<[n, 7], f32>, %k: !relax.tensor<[k], f32>,
                 %i: !relax.tensor<[p], i64>, %j: !relax.tensor<[q], i32>)
    -> (!relax.tensor<[max(min(k, n) - min(n, 1), 0), 7], f32>,
        !relax.tensor<[n, 3], f32>, !relax.tensor<[n, 4], f32>,
        !relax.tensor<[p, 7], f32>, !relax.tensor<[n, q], f32>,
        !relax.tensor<[q], f32>, !relax.tensor<[n - min(n, p), 7], f32>) {
  %y0 = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[1]>, end = #relax.shape<[k]>} : (!relax.tensor<[n, 7], f32>) -> !relax.tensor<[max(min(k, n) - min(n, 1), 0), 7], f32>
  %y1 = relax.strided_slice %x {axes = array<i64: 1>, begin = #relax.shape<[1]>, end = #relax.shape<[-1]>, strides = array<i64: 2>} : (!relax.tensor<[n, 7], f32>) -> !relax.tensor<[n, 3], f32>
  %y2 = relax.strided_slice %x {axes = array<i64: 1>, begin = #relax.shape<[6]>, end = #relax.shape<[-8]>, strides = array<i64: -2>} : (!relax.tensor<[n, 7], f32>) -> !relax.tensor<[n, 4], f32>
  %y3 = relax.take %x, %i {axis = 0 : i64} : (!relax.tensor<[n, 7], f32>, !relax.tensor<[p], i64>) -> !relax.tensor<[p, 7], f32>
  %y4 = relax.take %x, %j {axis = 1 : i64} : (!relax.tensor<[n, 7], f32>, !relax.tensor<[q], i32>) -> !relax.tensor<[n, q], f32>
  %y5 = relax.take %x, %j : (!relax.tensor<[n, 7], f32>, !relax.tensor<[q], i32>) -> !relax.tensor<[q], f32>
  %y6 = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[p]>, end = #relax.shape<[n]>} : (!relax.tensor<[n, 7], f32>) -> !relax.tensor<[n - min(n, p), 7], f32>
  relax.return %y0, %y1, %y2, %y3, %y4, %y5, %y6 : !relax.tensor<[max(min(k, n) - min(n, 1), 0), 7], f32>, !relax.tensor<[n, 3], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[p, 7], f32>, !relax.tensor<[n, q], f32>, !relax.tensor<[q], f32>, !relax.tensor<[n - min(n, p), 7], f32>
}
