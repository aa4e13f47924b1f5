// End to end through the CPU BLAS binding: dispatch matmul and linear to the
// runtime's relax_blas_* functions, JIT-run them on .npy inputs and compare
// against a double-precision reference.
//
// RUN: %python %S/Inputs/gen_matmul_npy.py %t
// RUN: relax-opt %s --relax-dispatch-library > %t/dispatched.mlir
// RUN: relax-run %t/dispatched.mlir --input %t/a.npy --input %t/b.npy \
// RUN:   --input %t/x.npy --input %t/w.npy --expect %t/c.npy --expect %t/y.npy \
// RUN:   | FileCheck %s
// CHECK: all 2 outputs match

relax.func @main(%a: !relax.tensor<[n, k], f32>, %b: !relax.tensor<[k, m], f32>,
                 %x: !relax.tensor<[s, n, k], f64>, %w: !relax.tensor<[m, k], f64>)
    -> (!relax.tensor<[n, m], f32>, !relax.tensor<[s, n, m], f64>) {
  %c = relax.matmul %a, %b : (!relax.tensor<[n, k], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[n, m], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[s, n, k], f64>, !relax.tensor<[m, k], f64>) -> !relax.tensor<[s, n, m], f64>
  relax.return %c, %y : !relax.tensor<[n, m], f32>, !relax.tensor<[s, n, m], f64>
}
