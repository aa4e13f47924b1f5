// RUN: relax-opt --relax-verify-well-formed %s | FileCheck %s
// RUN: relax-opt --mlir-very-unsafe-disable-verifier-on-parsing --relax-verify-well-formed %s | FileCheck %s

// Well-formed functions pass unchanged: variables bound by parameter dims
// (in any parameter, for uses in earlier ones too) or by a match_cast
// before their uses, in dataflow regions, shape attributes and tuple types
// included. Failing inputs: relax-verify-well-formed-invalid.mlir.

// n is bound by y although x, which uses it, comes first.
// CHECK-LABEL: relax.func @param_order(
// CHECK-SAME: %{{.*}}: !relax.tensor<[n + 1], f32>, %{{.*}}: !relax.tensor<[n], f32>) -> !relax.tensor<[n + 1], f32>
// CHECK: relax.return
relax.func @param_order(%x: !relax.tensor<[n + 1], f32>, %y: !relax.tensor<[n], f32>) -> !relax.tensor<[n + 1], f32> {
  relax.return %x : !relax.tensor<[n + 1], f32>
}

// k and m are bound by the match_cast inside the dataflow region and used
// after it, in a result type, a shape attribute and a tuple.
// CHECK-LABEL: relax.func @match_cast_binds(
// CHECK: %[[D:.*]] = relax.dataflow -> !relax.tensor<[k, m], f32>
// CHECK: relax.match_cast %{{.*}} : !relax.tensor<*, f32> to !relax.tensor<[k, m], f32>
// CHECK: relax.reshape %[[D]] {shape = #relax.shape<[k * m]>}
// CHECK: relax.shape_expr #relax.shape<[m, k + 1]>
// CHECK: relax.tuple
// CHECK: relax.return
relax.func @match_cast_binds(%x: !relax.tensor<*, f32>)
    -> tuple<!relax.tensor<[k * m], f32>, !relax.tensor<[k, m], f32>> {
  %0 = relax.dataflow -> !relax.tensor<[k, m], f32> {
    %c = relax.match_cast %x : !relax.tensor<*, f32> to !relax.tensor<[k, m], f32>
    relax.output %c : !relax.tensor<[k, m], f32>
  }
  %r = relax.reshape %0 {shape = #relax.shape<[k * m]>} : (!relax.tensor<[k, m], f32>) -> !relax.tensor<[k * m], f32>
  %s = relax.shape_expr #relax.shape<[m, k + 1]>
  %t = relax.tuple %r, %0 : !relax.tensor<[k * m], f32>, !relax.tensor<[k, m], f32>
  relax.return %t : tuple<!relax.tensor<[k * m], f32>, !relax.tensor<[k, m], f32>>
}
