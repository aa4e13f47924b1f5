// End-to-end: relax.permute_dims, expand_dims, squeeze and broadcast_to
// with symbolic dims n and m, two runtime sizes, against numpy. Pure data
// movement: exact (rtol 0, atol 0).
// RUN: rm -rf %t && %python %S/ref.py %t/a "x.transpose(2, 0, 1)" "np.ascontiguousarray(x.transpose(2, 1, 0))" "x[None, :, :, :, None]" "u[:, 0, :]" "np.broadcast_to(u, (2, 3, 3, 4))" -- x:f32:3,5,4 u:f32:3,1,4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "x.transpose(2, 0, 1)" "np.ascontiguousarray(x.transpose(2, 1, 0))" "x[None, :, :, :, None]" "u[:, 0, :]" "np.broadcast_to(u, (2, 9, 3, 4))" -- x:f32:9,2,4 u:f32:9,1,4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 5 outputs match

relax.func @main(%x: !relax.tensor<[n, m, 4], f32>, %u: !relax.tensor<[n, 1, 4], f32>)
    -> (!relax.tensor<[4, n, m], f32>, !relax.tensor<[4, m, n], f32>,
        !relax.tensor<[1, n, m, 4, 1], f32>, !relax.tensor<[n, 4], f32>,
        !relax.tensor<[2, n, 3, 4], f32>) {
  %y0 = relax.permute_dims %x {axes = array<i64: 2, 0, 1>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[4, n, m], f32>
  %y1 = relax.permute_dims %x : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[4, m, n], f32>
  %y2 = relax.expand_dims %x {axes = array<i64: 0, -1>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[1, n, m, 4, 1], f32>
  %y3 = relax.squeeze %u {axes = array<i64: 1>} : (!relax.tensor<[n, 1, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %y4 = relax.broadcast_to %u {shape = #relax.shape<[2, n, 3, 4]>} : (!relax.tensor<[n, 1, 4], f32>) -> !relax.tensor<[2, n, 3, 4], f32>
  relax.return %y0, %y1, %y2, %y3, %y4 : !relax.tensor<[4, n, m], f32>, !relax.tensor<[4, m, n], f32>, !relax.tensor<[1, n, m, 4, 1], f32>, !relax.tensor<[n, 4], f32>, !relax.tensor<[2, n, 3, 4], f32>
}
