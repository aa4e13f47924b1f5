// Structure of the legalized matmul/linear: an output loop nest (outermost
// parallel) plus a serial k loop around one block whose k var is `reduce`,
// a tir.init writing the start value, symbolic extents from tir.sym_var,
// op_pattern out_ewise_fusable.
// RUN: relax-opt %s --relax-legalize-ops | FileCheck %s

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
