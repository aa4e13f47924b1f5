// The contraction dims are separate variables (k, j): shape lowering cannot
// check that they agree, the library does, and its error reaches relax-run
// (non-zero exit, message naming the function and the dims).
//
// RUN: %python %S/Inputs/gen_matmul_npy.py %t
// RUN: relax-opt %s --relax-dispatch-library > %t/dispatched.mlir
// RUN: ! relax-run %t/dispatched.mlir --input %t/a.npy --input %t/b_bad.npy 2> %t/err
// RUN: FileCheck %s < %t/err
// CHECK: relax_blas_matmul_f32: A is [5, 7] and B is [6, 3]: inner dims differ (7 vs 6)
//
// With agreeing dims the same module runs and matches the reference.
// RUN: relax-run %t/dispatched.mlir --input %t/a.npy --input %t/b.npy \
// RUN:   --expect %t/c.npy | FileCheck %s --check-prefix=OK
// OK: all 1 outputs match

relax.func @main(%a: !relax.tensor<[n, k], f32>, %b: !relax.tensor<[j, m], f32>)
    -> !relax.tensor<[n, m], f32> {
  %c = relax.matmul %a, %b : (!relax.tensor<[n, k], f32>, !relax.tensor<[j, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %c : !relax.tensor<[n, m], f32>
}
