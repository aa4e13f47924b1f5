// Structure of the legalized trilu, pad, gather and scatter ops (the ONNX
// index and padding ops).
// RUN: relax-opt %s --relax-legalize-ops | FileCheck %s

// trilu compares j - i with the symbolic offset (a tir_var); pad reflects
// through the period 2 (n - 1) and leaves the unpadded dim alone; constant
// pad loads under an scf.if (an empty dim has nothing to clamp to);
// gather_nd loads each tuple position and counts negative ones from the end
// of its own dim; scatter_nd copies the data, then applies the updates in a
// serial loop in a block without iteration variables (opaque).
// CHECK-LABEL: relax.func @index_ops
// CHECK: relax.call_tir @T_trilu(%{{.*}}) tir_vars(#relax.shape<[k]>)
// CHECK: relax.assert_indices %{{.*}}, #relax.shape<[n, m]>, "relax.gather_nd" : !relax.tensor<[k, 2], i64>
// CHECK-NEXT: relax.call_tir @T_gather_nd
// CHECK: relax.assert_indices %{{.*}}, #relax.shape<[n, m]>, "relax.scatter_nd" : !relax.tensor<[k, 2], i64>
// CHECK-NEXT: relax.call_tir @T_scatter_nd
// CHECK-LABEL: tir.prim_func private @T_trilu(
// CHECK-SAME: op_pattern = #tir.op_pattern<injective>
// CHECK: tir.block "trilu" (%[[I:.*]] = %{{.*}}, %[[J:.*]] = %{{.*}}) kinds [spatial, spatial]
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[J]], %[[I]] : index
// CHECK-NEXT: %[[K:.*]] = tir.sym_var "k" : index
// CHECK: %[[K1:.*]] = arith.addi %[[K]], %c-1 : index
// CHECK-NEXT: %[[KEEP:.*]] = arith.cmpi sle, %[[D]], %[[K1]] : index
// CHECK-NEXT: %[[V:.*]] = tir.load
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.select %[[KEEP]], %[[V]], %[[Z]] : f32
// CHECK-LABEL: tir.prim_func private @T_pad(
// CHECK-SAME: !tir.buffer<[n + 3, m], f32>) attributes {op_pattern = #tir.op_pattern<injective>}
// CHECK: tir.block "pad" (%[[I:.*]] = %{{.*}}, %[[J:.*]] = %{{.*}}) kinds [spatial, spatial]
// CHECK: %[[S:.*]] = arith.subi %[[I]], %c1
// CHECK: %[[P:.*]] = arith.maxsi
// CHECK-NEXT: %[[R:.*]] = arith.remsi %[[S]], %[[P]] : index
// CHECK: %[[M:.*]] = arith.select
// CHECK-NEXT: %[[MIR:.*]] = arith.subi %[[P]], %[[M]] : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi slt, %[[M]], %{{.*}} : index
// CHECK-NEXT: %[[SRC:.*]] = arith.select %[[IN]], %[[M]], %[[MIR]] : index
// CHECK-NEXT: tir.load %{{.*}}[%[[SRC]], %[[J]]] : !tir.buffer<[n, m], f32>
// CHECK-LABEL: tir.prim_func private @T_pad_
// CHECK: %[[INSIDE:.*]] = arith.andi
// CHECK: scf.if %[[INSIDE]] -> (i32) {
// CHECK: tir.load
// CHECK: } else {
// CHECK: %[[C:.*]] = arith.constant -3 : i32
// CHECK: scf.yield %[[C]] : i32
// CHECK-LABEL: tir.prim_func private @T_gather_nd(
// CHECK: tir.block "gather_nd" (%[[P:.*]] = %{{.*}}) kinds [spatial]
// CHECK: %[[T0:.*]] = tir.load %{{.*}}[%[[P]], %c0{{.*}}] : !tir.buffer<[k, 2], i64>
// CHECK: tir.sym_var "n"
// CHECK: %[[I0:.*]] = arith.select
// CHECK: %[[T1:.*]] = tir.load %{{.*}}[%[[P]], %c1{{.*}}] : !tir.buffer<[k, 2], i64>
// CHECK: tir.sym_var "m"
// CHECK: %[[I1:.*]] = arith.select
// CHECK-NEXT: tir.load %{{.*}}[%[[I0]], %[[I1]]] : !tir.buffer<[n, m], f32>
// CHECK-LABEL: tir.prim_func private @T_scatter_nd(
// CHECK-SAME: op_pattern = #tir.op_pattern<opaque>
// CHECK: tir.block "scatter_nd_copy"
// CHECK: tir.block "scatter_nd" () kinds [] {
// CHECK: tir.for %[[P:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[U:.*]] = tir.load %{{.*}}[%[[P]]] : !tir.buffer<[k], f32>
// CHECK-NEXT: %[[OLD:.*]] = tir.load %[[OUT:.*]][%[[I0:.*]], %[[I1:.*]]] : !tir.buffer<[n, m], f32>
// CHECK-NEXT: %[[NEW:.*]] = arith.maximumf %[[OLD]], %[[U]] : f32
// CHECK-NEXT: tir.store %[[NEW]], %[[OUT]][%[[I0]], %[[I1]]] : !tir.buffer<[n, m], f32>
relax.func @index_ops(%x: !relax.tensor<[n, m], f32>, %i: !relax.tensor<[k, 2], i64>, %u: !relax.tensor<[k], f32>, %a: !relax.tensor<[n], i32>) -> (!relax.tensor<[n, m], f32>, !relax.tensor<[n + 3, m], f32>, !relax.tensor<[n + 2], i32>, !relax.tensor<[k], f32>, !relax.tensor<[n, m], f32>) {
  %t = relax.trilu %x {upper = false, k = #relax.expr<k - 1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %p = relax.pad %x {mode = "reflect", pad_before = #relax.shape<[1, 0]>, pad_after = #relax.shape<[2, 0]>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n + 3, m], f32>
  %c = relax.pad %a {pad_before = #relax.shape<[1]>, pad_after = #relax.shape<[1]>, value = -3.0 : f64} : (!relax.tensor<[n], i32>) -> !relax.tensor<[n + 2], i32>
  %g = relax.gather_nd %x, %i : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, 2], i64>) -> !relax.tensor<[k], f32>
  %s = relax.scatter_nd %x, %i, %u {reduction = "max"} : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, 2], i64>, !relax.tensor<[k], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %t, %p, %c, %g, %s : !relax.tensor<[n, m], f32>, !relax.tensor<[n + 3, m], f32>, !relax.tensor<[n + 2], i32>, !relax.tensor<[k], f32>, !relax.tensor<[n, m], f32>
}
