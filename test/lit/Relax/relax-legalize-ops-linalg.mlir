// Structure of the legalized matmul/linear: an output loop nest (outermost
// parallel) plus a serial k loop around one block whose k var is `reduce`,
// a tir.init writing the start value, symbolic extents from tir.sym_var,
// op_pattern out_ewise_fusable.
// RUN: relax-opt %s --relax-legalize-ops | FileCheck %s
// RUN: relax-opt %s --relax-legalize-ops | FileCheck %s --check-prefix=EINSUM

// CHECK-LABEL: relax.func @matmul
// CHECK: relax.call_tir @T_matmul(%{{.*}}, %{{.*}}) : (!relax.tensor<[1, n, k], f32>, !relax.tensor<[c, k, m], f32>) -> !relax.tensor<[c, n, m], f32>
// CHECK: relax.call_tir @T_matmul_1(
// CHECK-LABEL: relax.func @linear
// CHECK: relax.call_tir @T_linear(

// Batch dim 1 of the lhs broadcasts (reads index 0); k comes from the lhs.
// CHECK-LABEL: tir.prim_func private @T_matmul(
// CHECK-SAME: !tir.buffer<[1, n, k], f32>, %{{.*}}: !tir.buffer<[c, k, m], f32>, %[[OUT:.*]]: !tir.buffer<[c, n, m], f32>)
// CHECK-SAME: op_pattern = #tir.op_pattern<out_ewise_fusable>
// CHECK-DAG: %[[C:.*]] = tir.sym_var "c"
// CHECK-DAG: %[[K:.*]] = tir.sym_var "k"
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %[[C]] step %{{.*}} kind = parallel {
// CHECK: tir.for
// CHECK: tir.for
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[K]] step %{{.*}} {
// CHECK: tir.block "T_matmul" (%[[VB:.*]] = %[[I]], %[[VN:.*]] = %{{.*}}, %[[VM:.*]] = %{{.*}}, %[[VK:.*]] = %{{.*}}) kinds [spatial, spatial, spatial, reduce]
// CHECK-NEXT: tir.init {
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: tir.store %[[ZERO]], %[[OUT]][%[[VB]], %[[VN]], %[[VM]]]
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: tir.load %{{.*}}[%[[C0]], %[[VN]], %[[VK]]] : !tir.buffer<[1, n, k], f32>
// CHECK: tir.load %{{.*}}[%[[VB]], %[[VK]], %[[VM]]] : !tir.buffer<[c, k, m], f32>
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tir.store

// out_dtype = f32 on f16 operands: widen before multiplying.
// CHECK-LABEL: tir.prim_func private @T_matmul_1(
// CHECK: kinds [spatial, spatial, reduce]
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32

// linear: the init stores the bias; W is read transposed.
// CHECK-LABEL: tir.prim_func private @T_linear(
// CHECK-SAME: %[[X:[a-z0-9]+]]: !tir.buffer<[n, 16], f32>, %[[W:[a-z0-9]+]]: !tir.buffer<[32, 16], f32>, %[[B:[a-z0-9]+]]: !tir.buffer<[32], f32>, %[[Y:[a-z0-9]+]]: !tir.buffer<[n, 32], f32>)
// CHECK-SAME: op_pattern = #tir.op_pattern<out_ewise_fusable>
// CHECK: tir.block "T_linear" (%[[VI:.*]] = %{{.*}}, %[[VJ:.*]] = %{{.*}}, %[[VR:.*]] = %{{.*}}) kinds [spatial, spatial, reduce]
// CHECK-NEXT: tir.init {
// CHECK-NEXT: %[[BV:.*]] = tir.load %[[B]][%[[VJ]]]
// CHECK-NEXT: tir.store %[[BV]], %[[Y]][%[[VI]], %[[VJ]]]
// CHECK: tir.load %[[X]][%[[VI]], %[[VR]]]
// CHECK: tir.load %[[W]][%[[VJ]], %[[VR]]]

relax.func @matmul(%a: !relax.tensor<[1, n, k], f32>, %b: !relax.tensor<[c, k, m], f32>, %h: !relax.tensor<[n, k], f16>, %w: !relax.tensor<[k, m], f16>) -> (!relax.tensor<[c, n, m], f32>, !relax.tensor<[n, m], f32>) {
  %y = relax.matmul %a, %b : (!relax.tensor<[1, n, k], f32>, !relax.tensor<[c, k, m], f32>) -> !relax.tensor<[c, n, m], f32>
  %z = relax.matmul %h, %w {out_dtype = f32} : (!relax.tensor<[n, k], f16>, !relax.tensor<[k, m], f16>) -> !relax.tensor<[n, m], f32>
  relax.return %y, %z : !relax.tensor<[c, n, m], f32>, !relax.tensor<[n, m], f32>
}

relax.func @linear(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[32, 16], f32>, %bias: !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32> {
  %y = relax.linear %x, %w, %bias : (!relax.tensor<[n, 16], f32>, !relax.tensor<[32, 16], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32>
  relax.return %y : !relax.tensor<[n, 32], f32>
}

// einsum: one nest over the output dims then the summed labels around one
// block; an ellipsis dim of 1 reads index 0, a repeated label reads the
// diagonal, a transpose stores through permuted indices. The kind is
// out_ewise_fusable for a product of operands summed together, reduction
// for one summed operand, injective without a sum.
// EINSUM-LABEL: relax.func @einsum
// EINSUM: relax.call_tir @T_einsum(%{{.*}}, %{{.*}}) : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[1, k, m], f32>) -> !relax.tensor<[b, n, m], f32>
// EINSUM: relax.call_tir @T_einsum_1(
// EINSUM: relax.call_tir @T_einsum_2(
// EINSUM: relax.call_tir @T_einsum_3(
// EINSUM-LABEL: tir.prim_func private @T_einsum(
// EINSUM-SAME: %[[A:.*]]: !tir.buffer<[b, n, k], f32>, %[[C:.*]]: !tir.buffer<[1, k, m], f32>, %[[OUT:.*]]: !tir.buffer<[b, n, m], f32>)
// EINSUM-SAME: op_pattern = #tir.op_pattern<out_ewise_fusable>
// EINSUM-DAG: %[[B:.*]] = tir.sym_var "b"
// EINSUM-DAG: %[[K:.*]] = tir.sym_var "k"
// EINSUM: tir.for %{{.*}} = %{{.*}} to %[[B]] step %{{.*}} kind = parallel {
// EINSUM: tir.for %{{.*}} = %{{.*}} to %[[K]] step %{{.*}} {
// EINSUM: tir.block "einsum" (%[[VB:.*]] = %{{.*}}, %[[VI:.*]] = %{{.*}}, %[[VK:.*]] = %{{.*}}, %[[VJ:.*]] = %{{.*}}) kinds [spatial, spatial, spatial, reduce]
// EINSUM-NEXT: tir.init {
// EINSUM: tir.store %{{.*}}, %[[OUT]][%[[VB]], %[[VI]], %[[VK]]]
// EINSUM: tir.load %[[A]][%[[VB]], %[[VI]], %[[VJ]]]
// EINSUM: tir.load %[[C]][%{{.*}}, %[[VJ]], %[[VK]]]
// EINSUM: arith.mulf
// EINSUM: arith.addf
// EINSUM-LABEL: tir.prim_func private @T_einsum_1(
// EINSUM-SAME: op_pattern = #tir.op_pattern<injective>
// EINSUM: tir.block "einsum" (%[[D:.*]] = %{{.*}}) kinds [spatial]
// EINSUM-NEXT: tir.load %{{.*}}[%[[D]], %[[D]]] : !tir.buffer<[n, n], f32>
// EINSUM-LABEL: tir.prim_func private @T_einsum_2(
// EINSUM-SAME: op_pattern = #tir.op_pattern<injective>
// EINSUM: tir.block "einsum" (%[[I:.*]] = %{{.*}}, %[[J:.*]] = %{{.*}}) kinds [spatial, spatial]
// EINSUM-NEXT: %[[V:.*]] = tir.load %{{.*}}[%[[J]], %[[I]]] : !tir.buffer<[k, m], f32>
// EINSUM-NEXT: tir.store %[[V]], %{{.*}}[%[[I]], %[[J]]] : !tir.buffer<[m, k], f32>
// EINSUM-LABEL: tir.prim_func private @T_einsum_3(
// EINSUM-SAME: op_pattern = #tir.op_pattern<reduction>
// EINSUM: tir.block "einsum" ({{.*}}) kinds [spatial, reduce]
relax.func @einsum(%a: !relax.tensor<[b, n, k], f32>, %c: !relax.tensor<[1, k, m], f32>, %s: !relax.tensor<[n, n], f32>, %t: !relax.tensor<[k, m], f32>)
    -> (!relax.tensor<[b, n, m], f32>, !relax.tensor<[n], f32>, !relax.tensor<[m, k], f32>, !relax.tensor<[n], f32>) {
  %0 = relax.einsum %a, %c {equation = "...ij,...jk->...ik"} : (!relax.tensor<[b, n, k], f32>, !relax.tensor<[1, k, m], f32>) -> !relax.tensor<[b, n, m], f32>
  %1 = relax.einsum %s {equation = "ii->i"} : (!relax.tensor<[n, n], f32>) -> !relax.tensor<[n], f32>
  %2 = relax.einsum %t {equation = "ij->ji"} : (!relax.tensor<[k, m], f32>) -> !relax.tensor<[m, k], f32>
  %3 = relax.einsum %s {equation = "ij->i"} : (!relax.tensor<[n, n], f32>) -> !relax.tensor<[n], f32>
  relax.return %0, %1, %2, %3 : !relax.tensor<[b, n, m], f32>, !relax.tensor<[n], f32>, !relax.tensor<[m, k], f32>, !relax.tensor<[n], f32>
}
