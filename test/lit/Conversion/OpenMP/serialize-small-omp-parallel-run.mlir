// Both sides of the run-time decision compute the same thing: a row softmax
// over [n, 256] with n = 300 (about 300 x 256 x 10 operations: the team
// forks) and n = 2 (the region runs on the calling thread), two OpenMP
// threads, against numpy; and n = 2 again with min-parallel-work=0, which
// forks for every loop. The lowered module holds the if clause. (The
// pipelines' openmp option: by default the runtime's pool runs the loops,
// Conversion/ParallelLoops.)
// RUN: relax-opt %s --relax-lower-to-cpu=openmp=true | FileCheck %s --check-prefix=IR
// IR: omp.parallel if(
// RUN: rm -rf %t && %python -B %S/../../E2E/ref.py %t/big "softmax(x, 1)" -- x:f32:300,256
// RUN: env OMP_NUM_THREADS=2 relax-run --openmp %s --input %t/big/in0.npy --expect %t/big/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 relax-run --openmp --fuse %s --input %t/big/in0.npy --expect %t/big/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: %python -B %S/../../E2E/ref.py %t/small "softmax(x, 1)" -- x:f32:2,256
// RUN: env OMP_NUM_THREADS=2 relax-run --openmp %s --input %t/small/in0.npy --expect %t/small/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 relax-run --openmp %s --min-parallel-work=0 --input %t/small/in0.npy --expect %t/small/out0.npy --rtol 1e-5 --atol 1e-6 | FileCheck %s
// RUN: relax-opt %s "--relax-lower-to-cpu=min-parallel-work=0 openmp=true" | FileCheck %s --check-prefix=ALWAYS
// ALWAYS: omp.parallel if(%{{.*}})
// CHECK: all 1 outputs match
relax.func @main(%x: !relax.tensor<[n, 256], f32>) -> !relax.tensor<[n, 256], f32> {
  %y = relax.softmax %x {axis = -1} : (!relax.tensor<[n, 256], f32>) -> !relax.tensor<[n, 256], f32>
  relax.return %y : !relax.tensor<[n, 256], f32>
}
