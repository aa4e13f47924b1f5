// RUN: relax-opt %s --relax-legalize-ops | FileCheck %s
// Structure of the legalized reductions: kept dims are spatial loops (the
// outermost parallel), reduced dims reduce loops inside them, one block with
// spatial + reduce iteration variables and a tir.init; extents stay
// symbolic; identical ops share one prim_func.

// CHECK-LABEL: relax.func @reductions
// CHECK: relax.call_tir @T_sum(%arg0)
// CHECK: relax.call_tir @T_sum(%arg0)
// CHECK: relax.call_tir @T_softmax(%arg1)
// CHECK: relax.call_tir @T_rms_norm(%arg1, %arg2)
// CHECK: relax.call_tir @T_argmax(%arg0)
// CHECK: relax.call_tir @T_cumsum(%arg0)
// CHECK: relax.call_tir @T_variance(%arg0)
// CHECK: relax.call_tir @T_batch_norm(%arg3, %arg4, %arg4, %arg4, %arg4)

// CHECK-LABEL: tir.prim_func private @T_sum(
// CHECK-SAME: %{{.*}}: !tir.buffer<[n, 8], f32>, %[[Y:.*]]: !tir.buffer<[n], f32>) attributes {op_pattern = #tir.op_pattern<reduction>}
// CHECK: %[[N:.*]] = tir.sym_var "n" : index
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} kind = parallel {
// CHECK: tir.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: tir.block "sum" (%[[VI:.*]] = %[[I]], %{{.*}} = %[[K]]) kinds [spatial, reduce] {
// CHECK-NEXT: tir.init {
// CHECK: tir.store %{{.*}}, %[[Y]][%[[VI]]]
// CHECK-NOT: sum_empty
// CHECK: arith.addf
// CHECK-NOT: tir.prim_func private @T_sum_

// Softmax over the symbolic axis: max, exp-sum (both reductions into
// scratch buffers of the kept shape), then a spatial normalisation.
// CHECK-LABEL: tir.prim_func private @T_softmax(%{{.*}}: !tir.buffer<[2, s], f32>, %{{.*}}: !tir.buffer<[2, s], f32>) attributes {op_pattern = #tir.op_pattern<reduction>}
// CHECK: tir.alloc : !tir.buffer<[2], f32>
// CHECK: tir.alloc : !tir.buffer<[2], f32>
// CHECK: %[[S:.*]] = tir.sym_var "s" : index
// CHECK: kind = parallel
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[S]]
// CHECK: tir.block "softmax_maxelem" ({{.*}}) kinds [spatial, reduce]
// CHECK: arith.maximumf
// CHECK: tir.block "softmax_expsum" ({{.*}}) kinds [spatial, reduce]
// CHECK: math.exp
// CHECK: tir.block "softmax_norm" ({{.*}}) kinds [spatial, spatial]
// CHECK: arith.divf

// CHECK-LABEL: tir.prim_func private @T_rms_norm
// CHECK-SAME: op_pattern = #tir.op_pattern<reduction>
// CHECK: tir.block "rms_norm_sqsum" ({{.*}}) kinds [spatial, reduce]
// CHECK: tir.init
// The norms' sums may be reassociated (so LLVM vectorizes them).
// CHECK: arith.addf {{.*}} fastmath<reassoc>
// CHECK: tir.block "rms_norm" ({{.*}}) kinds [spatial, spatial]
// CHECK: math.rsqrt

// CHECK-LABEL: tir.prim_func private @T_argmax(%{{.*}}: !tir.buffer<[n, 8], f32>, %{{.*}}: !tir.buffer<[n], i64>) attributes {op_pattern = #tir.op_pattern<reduction>}
// CHECK: tir.alloc : !tir.buffer<[n], f32>
// CHECK: tir.block "argmax" ({{.*}}) kinds [spatial, reduce]
// CHECK: tir.init
// CHECK: arith.cmpf ogt
// CHECK: arith.select

// Scans are opaque: a serial loop nest inside the block.
// CHECK-LABEL: tir.prim_func private @T_cumsum(%{{.*}}: !tir.buffer<[n, 8], f32>, %{{.*}}: !tir.buffer<[n * 8], f32>) attributes {op_pattern = #tir.op_pattern<opaque>}
// CHECK: tir.block "cumsum" () kinds []
// CHECK-NOT: kind = parallel
// CHECK: scf.if

// Two-pass variance: sum, mean, squared deviations, divide. The reduced
// dim n may be 0 at run time, so the accumulators are first filled with 0.
// CHECK-LABEL: tir.prim_func private @T_variance
// CHECK: tir.block "variance_empty" ({{.*}}) kinds [spatial]
// CHECK: tir.block "variance_sum" ({{.*}}) kinds [spatial, reduce]
// CHECK: tir.block "variance_mean" ({{.*}}) kinds [spatial]
// CHECK: tir.block "variance_sqsum" ({{.*}}) kinds [spatial, reduce]
// CHECK: tir.block "variance_div" ({{.*}}) kinds [spatial]

// CHECK-LABEL: tir.prim_func private @T_batch_norm
// CHECK-SAME: op_pattern = #tir.op_pattern<broadcast>
// CHECK: tir.block "batch_norm" ({{.*}}) kinds [spatial, spatial, spatial]
relax.func @reductions(%x: !relax.tensor<[n, 8], f32>, %s: !relax.tensor<[2, s], f32>, %w: !relax.tensor<[s], f32>,
                       %b: !relax.tensor<[n, c, h], f32>, %p: !relax.tensor<[c], f32>)
    -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[2, s], f32>, !relax.tensor<[2, s], f32>, !relax.tensor<[n], i64>, !relax.tensor<[n * 8], f32>, !relax.tensor<[8], f32>, !relax.tensor<[n, c, h], f32>) {
  %a = relax.sum %x {axes = array<i64: 1>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n], f32>
  %a2 = relax.sum %x {axes = array<i64: 1>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n], f32>
  %c = relax.softmax %s : (!relax.tensor<[2, s], f32>) -> !relax.tensor<[2, s], f32>
  %d = relax.rms_norm %s, %w {axes = array<i64: -1>} : (!relax.tensor<[2, s], f32>, !relax.tensor<[s], f32>) -> !relax.tensor<[2, s], f32>
  %e = relax.argmax %x {axis = 1 : i64} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n], i64>
  %f = relax.cumsum %x : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[n * 8], f32>
  %v = relax.variance %x {axes = array<i64: 0>} : (!relax.tensor<[n, 8], f32>) -> !relax.tensor<[8], f32>
  %bn = relax.batch_norm %b, %p, %p, %p, %p : (!relax.tensor<[n, c, h], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>, !relax.tensor<[c], f32>) -> !relax.tensor<[n, c, h], f32>
  relax.return %a, %a2, %c, %d, %e, %f, %v, %bn : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[2, s], f32>, !relax.tensor<[2, s], f32>, !relax.tensor<[n], i64>, !relax.tensor<[n * 8], f32>, !relax.tensor<[8], f32>, !relax.tensor<[n, c, h], f32>
}
