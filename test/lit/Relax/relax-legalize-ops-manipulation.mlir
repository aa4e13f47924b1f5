// Structure of the legalized manipulation ops: spatial-only blocks,
// outermost loop parallel, symbolic extents, op_pattern injective. reshape
// remaps through the flat index (muli/addi, then remui/divui over the input
// dims); concat writes each input's slice with its own loop nest at a
// symbolic offset; strided_slice gets its symbolic begin through tir_vars.
// RUN: relax-opt %s --relax-legalize-ops | FileCheck %s

// CHECK-LABEL: relax.func @slice
// CHECK: relax.call_tir @T_strided_slice(%{{.*}}) tir_vars(#relax.shape<[j, k]>)

// CHECK-LABEL: tir.prim_func private @T_reshape(
// CHECK-SAME: %[[X:[a-z0-9]+]]: !tir.buffer<[n, 6], f32>, %[[Y:[a-z0-9]+]]: !tir.buffer<[n * 2, 3], f32>)
// CHECK-SAME: op_pattern = #tir.op_pattern<injective>
// CHECK: %[[N2:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %[[N2]] step %{{.*}} kind = parallel {
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: tir.block "T_reshape" (%[[VI:.*]] = %[[I]], %[[VJ:.*]] = %[[J]]) kinds [spatial, spatial] {
// CHECK: %[[R:.*]] = arith.muli %[[VI]], %{{.*}} : index
// CHECK: %[[F:.*]] = arith.addi %[[R]], %[[VJ]] : index
// CHECK: %[[LO:.*]] = arith.remui %[[F]], %{{.*}} : index
// CHECK: %[[HI:.*]] = arith.divui %[[F]], %{{.*}} : index
// CHECK: %[[V:.*]] = tir.load %[[X]][%[[HI]], %[[LO]]]
// CHECK: tir.store %[[V]], %[[Y]][%[[VI]], %[[VJ]]]

// CHECK-LABEL: tir.prim_func private @T_concat(
// CHECK-SAME: op_pattern = #tir.op_pattern<injective>
// CHECK: %[[N:.*]] = tir.sym_var "n"
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} kind = parallel {
// CHECK: tir.block "T_concat_0" (%[[A0:.*]] = %{{.*}}, %[[A1:.*]] = %{{.*}}) kinds [spatial, spatial]
// CHECK: tir.store %{{.*}}, %{{.*}}[%[[A0]], %[[A1]]] : !tir.buffer<[m + n, 4], f32>
// CHECK: %[[M:.*]] = tir.sym_var "m"
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[M]] step %{{.*}} kind = parallel {
// CHECK: tir.block "T_concat_1" (%[[B0:.*]] = %{{.*}}, %[[B1:.*]] = %{{.*}}) kinds [spatial, spatial]
// CHECK: %[[OFF:.*]] = tir.sym_var "n"
// CHECK: %[[ROW:.*]] = arith.addi %[[B0]], %[[OFF]] : index
// CHECK: tir.store %{{.*}}, %{{.*}}[%[[ROW]], %[[B1]]] : !tir.buffer<[m + n, 4], f32>

// CHECK-LABEL: tir.prim_func private @T_strided_slice(
// CHECK-SAME: %{{.*}}: index {tir.var = "j"}, %{{.*}}: index {tir.var = "k"})
// CHECK-SAME: op_pattern = #tir.op_pattern<injective>
// CHECK: tir.block "T_strided_slice" (%[[S0:.*]] = %{{.*}}, %[[S1:.*]] = %{{.*}}) kinds [spatial, spatial]
// CHECK: %[[BJ:.*]] = tir.sym_var "j"
// CHECK: %[[BN:.*]] = tir.sym_var "n"
// CHECK: %[[BEGIN:.*]] = arith.minsi %[[BJ]], %[[BN]] : index
// CHECK: %[[IDX:.*]] = arith.addi %[[S0]], %[[BEGIN]] : index
// CHECK: tir.load %{{.*}}[%[[IDX]], %[[S1]]]

relax.func @reshape(%x: !relax.tensor<[n, 6], f32>) -> !relax.tensor<[n * 2, 3], f32> {
  %y = relax.reshape %x {shape = #relax.shape<[n * 2, 3]>} : (!relax.tensor<[n, 6], f32>) -> !relax.tensor<[n * 2, 3], f32>
  relax.return %y : !relax.tensor<[n * 2, 3], f32>
}

relax.func @concat(%a: !relax.tensor<[n, 4], f32>, %b: !relax.tensor<[m, 4], f32>) -> !relax.tensor<[n + m, 4], f32> {
  %y = relax.concat %a, %b {axis = 0 : i64} : (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>) -> !relax.tensor<[n + m, 4], f32>
  relax.return %y : !relax.tensor<[n + m, 4], f32>
}

relax.func @slice(%x: !relax.tensor<[n, 4], f32>, %s: !relax.shape<[j, k]>) -> !relax.tensor<[max(min(k, n) - min(j, n), 0), 4], f32> {
  %y = relax.strided_slice %x {axes = array<i64: 0>, begin = #relax.shape<[j]>, end = #relax.shape<[k]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[max(min(k, n) - min(j, n), 0), 4], f32>
  relax.return %y : !relax.tensor<[max(min(k, n) - min(j, n), 0), 4], f32>
}
