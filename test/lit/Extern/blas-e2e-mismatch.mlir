// The contraction dims are separate variables (k, j): dispatch asserts that
// they agree (relax.assert_dims before the library call), and the failed
// check reaches relax-run (non-zero exit, message naming the function, the
// op and the dims).
//
// RUN: %python %S/Inputs/gen_matmul_npy.py %t
// RUN: relax-opt %s --relax-dispatch-library > %t/dispatched.mlir
// RUN: FileCheck %s --check-prefix=IR < %t/dispatched.mlir
// IR: relax.assert_dims #relax.expr<k> "eq" #relax.expr<j>, "relax.matmul", "contraction dim"
// IR-NEXT: relax.call_dps_packed
// RUN: ! relax-run %t/dispatched.mlir --input %t/a.npy --input %t/b_bad.npy 2> %t/err
// RUN: FileCheck %s < %t/err
// CHECK: relax-run: error: main: relax.matmul at dispatched.mlir:{{[0-9]+}}:{{[0-9]+}}: contraction dim: expected k == j, got k = 7 and j = 6
//
// The library checks again (it is also called from C): without the
// assertion its own error reaches relax-run.
// RUN: grep -v relax.assert_dims %t/dispatched.mlir > %t/unchecked.mlir
// RUN: ! relax-run %t/unchecked.mlir --input %t/a.npy --input %t/b_bad.npy 2> %t/err2
// RUN: FileCheck %s --check-prefix=LIB < %t/err2
// LIB: relax_blas_matmul_f32: A is [5, 7] and B is [6, 3]: inner dims differ (7 vs 6)
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
