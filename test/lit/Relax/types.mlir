// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// Dims print in canonical form: `4 * n` and `n * 4` are one expression.
// CHECK-LABEL: relax.func @types
// CHECK-SAME: %{{.*}}: !relax.tensor<[n, 4], f32>
// CHECK-SAME: %{{.*}}: !relax.tensor<[n * 4, m], f16>
// CHECK-SAME: %{{.*}}: !relax.tensor<*, i64>
// CHECK-SAME: %{{.*}}: !relax.tensor<[?, 128], bf16>
// CHECK-SAME: %{{.*}}: !relax.tensor<[], f64>
// CHECK-SAME: %{{.*}}: !relax.shape<[n, m]>
// CHECK-SAME: %{{.*}}: !relax.shape<*>
// CHECK-SAME: %{{.*}}: !relax.object
// CHECK-SAME: %{{.*}}: !relax.prim<i64>
// CHECK-SAME: %{{.*}}: tuple<!relax.tensor<[n], i1>, !relax.tensor<[m], ui8>>
// CHECK-SAME: %{{.*}}: !relax.tensor<[n, m, 3], i8>
// CHECK-SAME: %{{.*}}: !relax.tensor<[n + 1, (m + 31) floordiv 32], i32>
relax.func @types(%a: !relax.tensor<[n, 4], f32>,
                  %b: !relax.tensor<[4 * n, m], f16>,
                  %c: !relax.tensor<*, i64>,
                  %d: !relax.tensor<[?, 128], bf16>,
                  %e: !relax.tensor<[], f64>,
                  %f: !relax.shape<[n, m]>,
                  %g: !relax.shape<*>,
                  %h: !relax.object,
                  %i: !relax.prim<i64>,
                  %j: tuple<!relax.tensor<[n], i1>, !relax.tensor<[m], ui8>>,
                  %k: !relax.tensor<[n, m, 3], i8>,
                  %l: !relax.tensor<[1 + n, (m + 31) floordiv 32], i32>) {
  relax.return
}

// Attributes carrying symbolic expressions.
// CHECK-LABEL: relax.func @attrs
// CHECK: relax.shape_expr #relax.shape<[n * 2, m]>
// CHECK-SAME: test.expr = #relax.expr<n - 1>
relax.func @attrs(%a: !relax.tensor<[n, m], f32>) -> !relax.shape<[n * 2, m]> {
  %s = relax.shape_expr #relax.shape<[2 * n, m]> {test.expr = #relax.expr<n - 1>}
  relax.return %s : !relax.shape<[n * 2, m]>
}
