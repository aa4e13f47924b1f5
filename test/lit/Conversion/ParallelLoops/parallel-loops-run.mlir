// The runtime's thread pool runs the outlined loops (the default CPU route)
// with every iteration done once: y = relu(x + b) * x - mean over [n, 37]
// against numpy, on three threads so that chunk boundaries fall inside
// rows of the flattened two-dimensional loops of the linalg route, with
// min-parallel-work=0 so that even n = 2 is cut into chunks, and with n =
// 300 on the default route.
// RUN: rm -rf %t && %python -B %S/../../E2E/ref.py %t/big "np.maximum(x + b, 0) * x - x.mean(axis=1, keepdims=True)" -- x:f32:300,37 b:f32:37
// RUN: %python -B %S/../../E2E/ref.py %t/small "np.maximum(x + b, 0) * x - x.mean(axis=1, keepdims=True)" -- x:f32:2,37 b:f32:37
// RUN: relax-opt %s --relax-lower-to-cpu=via-linalg=true --mlir-print-ir-before=convert-parallel-loops-to-runtime -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINALG
// LINALG: scf.parallel (%{{.*}}, %{{.*}}) =
// RUN: env RELAX_NUM_THREADS=3 relax-run %s --input %t/big/in0.npy --input %t/big/in1.npy --expect %t/big/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: env RELAX_NUM_THREADS=3 relax-run --fuse %s --input %t/big/in0.npy --input %t/big/in1.npy --expect %t/big/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: env RELAX_NUM_THREADS=3 relax-run --via-linalg --min-parallel-work=0 %s --input %t/big/in0.npy --input %t/big/in1.npy --expect %t/big/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: env RELAX_NUM_THREADS=3 relax-run --via-linalg --min-parallel-work=0 %s --input %t/small/in0.npy --input %t/small/in1.npy --expect %t/small/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: env RELAX_NUM_THREADS=2 relax-run --min-parallel-work=0 %s --input %t/small/in0.npy --input %t/small/in1.npy --expect %t/small/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK: all 1 outputs match
relax.func @main(%x: !relax.tensor<[n, 37], f32>, %b: !relax.tensor<[37], f32>) -> !relax.tensor<[n, 37], f32> {
  %s = relax.add %x, %b : (!relax.tensor<[n, 37], f32>, !relax.tensor<[37], f32>) -> !relax.tensor<[n, 37], f32>
  %r = relax.relu %s : (!relax.tensor<[n, 37], f32>) -> !relax.tensor<[n, 37], f32>
  %p = relax.multiply %r, %x : (!relax.tensor<[n, 37], f32>, !relax.tensor<[n, 37], f32>) -> !relax.tensor<[n, 37], f32>
  %m = relax.mean %x {axes = array<i64: 1>, keepdims = true} : (!relax.tensor<[n, 37], f32>) -> !relax.tensor<[n, 1], f32>
  %y = relax.subtract %p, %m : (!relax.tensor<[n, 37], f32>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, 37], f32>
  relax.return %y : !relax.tensor<[n, 37], f32>
}
