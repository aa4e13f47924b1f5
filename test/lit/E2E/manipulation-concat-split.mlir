// End-to-end: relax.concat (one loop nest per input writing its slice at a
// symbolic offset) and relax.split (sections and symbolic indices), with
// symbolic n, m, k and two runtime sizes, against numpy. Exact (rtol 0,
// atol 0).
// RUN: rm -rf %t && %python %S/ref.py %t/a "np.concatenate([a, b, a], 0)" "np.concatenate([a, c], 1)" "c[:, :3]" "c[:, 3:]" "a[:k.shape[0]]" "a[k.shape[0]:]" -- a:f32:3,4 b:f32:5,4 c:f32:3,6 k:f32:2
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --input %t/a/in2.npy --input %t/a/in3.npy --expect %t/a/out0.npy --expect %t/a/out1.npy --expect %t/a/out2.npy --expect %t/a/out3.npy --expect %t/a/out4.npy --expect %t/a/out5.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "np.concatenate([a, b, a], 0)" "np.concatenate([a, c], 1)" "c[:, :3]" "c[:, 3:]" "a[:k.shape[0]]" "a[k.shape[0]:]" -- a:f32:7,4 b:f32:2,4 c:f32:7,6 k:f32:5
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --rtol 0 --atol 0 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --input %t/b/in2.npy --input %t/b/in3.npy --expect %t/b/out0.npy --expect %t/b/out1.npy --expect %t/b/out2.npy --expect %t/b/out3.npy --expect %t/b/out4.npy --expect %t/b/out5.npy --rtol 0 --atol 0 | FileCheck %s
// CHECK: all 6 outputs match

relax.func @main(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[m, 4], f32>,
                 %c: !relax.tensor<[n, 6], f32>, %k: !relax.tensor<[k], f32>)
    -> (!relax.tensor<[n * 2 + m, 4], f32>, !relax.tensor<[n, 10], f32>,
        !relax.tensor<[n, 3], f32>, !relax.tensor<[n, 3], f32>,
        !relax.tensor<[k, 4], f32>, !relax.tensor<[n - k, 4], f32>) {
  %y0 = relax.concat %a, %b, %a {axis = 0 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 2 + m, 4], f32>
  %y1 = relax.concat %a, %c {axis = -1 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 6], f32>) -> !relax.tensor<[n, 10], f32>
  %s:2 = relax.split %c {axis = 1 : i64, sections = 2 : i64} : (!relax.tensor<[n, 6], f32>) -> (!relax.tensor<[n, 3], f32>, !relax.tensor<[n, 3], f32>)
  %t:2 = relax.split %a {indices = #relax.shape<[k]>} : (!relax.tensor<[n, 4], f32>) -> (!relax.tensor<[k, 4], f32>, !relax.tensor<[n - k, 4], f32>)
  relax.return %y0, %y1, %s#0, %s#1, %t#0, %t#1 : !relax.tensor<[n * 2 + m, 4], f32>, !relax.tensor<[n, 10], f32>, !relax.tensor<[n, 3], f32>, !relax.tensor<[n, 3], f32>, !relax.tensor<[k, 4], f32>, !relax.tensor<[n - k, 4], f32>
}
