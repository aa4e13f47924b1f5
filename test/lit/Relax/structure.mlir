// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// CHECK-LABEL: relax.func @dataflow
// CHECK-SAME: attributes {sym_bounds = {n = array<i64: 1, 4096>}}
// CHECK: %[[R:.*]] = relax.dataflow -> !relax.tensor<[n, 4], f32> {
// CHECK:   %[[E:.*]] = relax.exp %{{.*}} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK:   relax.output %[[E]] : !relax.tensor<[n, 4], f32>
// CHECK: }
// CHECK: relax.return %[[R]]
relax.func @dataflow(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    attributes {sym_bounds = {n = array<i64: 1, 4096>}} {
  %r = relax.dataflow -> !relax.tensor<[n, 4], f32> {
    %e = relax.exp %x : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    relax.output %e : !relax.tensor<[n, 4], f32>
  }
  relax.return %r : !relax.tensor<[n, 4], f32>
}

// match_cast binds n and m from an unknown-rank tensor; later ops use them.
// CHECK-LABEL: relax.func @match_cast
// CHECK: %[[C:.*]] = relax.match_cast %{{.*}} : !relax.tensor<*, f32> to !relax.tensor<[n, m], f32>
// CHECK: relax.shape_of %[[C]] : !relax.tensor<[n, m], f32>
relax.func @match_cast(%x: !relax.tensor<*, f32>) -> !relax.shape<[n, m]> {
  %c = relax.match_cast %x : !relax.tensor<*, f32> to !relax.tensor<[n, m], f32>
  %s = relax.shape_of %c : !relax.tensor<[n, m], f32>
  relax.return %s : !relax.shape<[n, m]>
}

// CHECK-LABEL: relax.func @tuples
// CHECK: %[[T:.*]] = relax.tuple %{{.*}}, %{{.*}} : !relax.tensor<[n], f32>, !relax.tensor<[m], f32>
// CHECK: relax.tuple_get_item %[[T]][1] : tuple<!relax.tensor<[n], f32>, !relax.tensor<[m], f32>>
relax.func @tuples(%a: !relax.tensor<[n], f32>, %b: !relax.tensor<[m], f32>)
    -> !relax.tensor<[m], f32> {
  %t = relax.tuple %a, %b : !relax.tensor<[n], f32>, !relax.tensor<[m], f32>
  %x = relax.tuple_get_item %t[1] : tuple<!relax.tensor<[n], f32>, !relax.tensor<[m], f32>>
  relax.return %x : !relax.tensor<[m], f32>
}

// CHECK-LABEL: relax.func @calls
// CHECK: relax.call @dataflow(%{{.*}}) : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
// CHECK: relax.call_tir @add_one(%{{.*}}) : (!relax.tensor<[k], f32>) -> !relax.tensor<[k], f32>
// CHECK: relax.call_tir @pad(%{{.*}}) tir_vars(#relax.shape<[k + 1]>) : (!relax.tensor<[k], f32>) -> !relax.tensor<[k + 1], f32>
// CHECK: relax.call_dps_packed @ext_copy(%{{.*}}) : (!relax.tensor<[k], f32>) -> !relax.tensor<[k], f32>
// CHECK: relax.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
relax.func @calls(%x: !relax.tensor<[k, 4], f32>, %v: !relax.tensor<[k], f32>)
    -> !relax.tensor<[k, 4], f32> {
  %y = relax.call @dataflow(%x) : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
  %z = relax.call_tir @add_one(%v) : (!relax.tensor<[k], f32>) -> !relax.tensor<[k], f32>
  %p = relax.call_tir @pad(%v) tir_vars(#relax.shape<[k + 1]>) : (!relax.tensor<[k], f32>) -> !relax.tensor<[k + 1], f32>
  %w = relax.call_dps_packed @ext_copy(%v) : (!relax.tensor<[k], f32>) -> !relax.tensor<[k], f32>
  %c = relax.constant dense<[1.0, 2.0]> : tensor<2xf32>
  relax.return %y : !relax.tensor<[k, 4], f32>
}

tir.prim_func @add_one(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[n], f32>) {
  tir.return
}
tir.prim_func @pad(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[m], f32>, %m: index) {
  tir.return
}
extern.func private @ext_copy(!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
    attributes {link_name = "relax_copy", num_outputs = 1 : i64}
