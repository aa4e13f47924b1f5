// End-to-end: y = exp(x) + b with b broadcast over the rows, on the CPU, for
// two runtime sizes of the symbolic n, against numpy.
// RUN: rm -rf %t && %python %S/ref.py %t/a "(np.exp(x) + b).astype(np.float32)" -- x:f32:7,4 b:f32:4
// RUN: relax-run %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/a/in0.npy --input %t/a/in1.npy --expect %t/a/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python %S/ref.py %t/b --seed 3 "(np.exp(x) + b).astype(np.float32)" -- x:f32:129,4 b:f32:4
// RUN: relax-run %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-run --fuse %s --input %t/b/in0.npy --input %t/b/in1.npy --expect %t/b/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 1 outputs match

relax.func @main(%x: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[4], f32>)
    -> !relax.tensor<[n, 4], f32> {
  %y = relax.dataflow -> !relax.tensor<[n, 4], f32> {
    %e = relax.exp %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    %s = relax.add %e, %b : (!relax.tensor<[n, 4], f32>, !relax.tensor<[4], f32>) -> !relax.tensor<[n, 4], f32>
    relax.output %s : !relax.tensor<[n, 4], f32>
  }
  relax.return %y : !relax.tensor<[n, 4], f32>
}
