// RUN: relax-opt --relax-fuse-ops --tir-cpu-default-schedule %s | FileCheck %s

// The CPU default schedule on fused programs with symbolic dims.

// matmul + bias + gelu: the epilogue nest moves into the matmul's parallel
// row loop, and the matmul result shrinks from [n, k] to one row of local
// scratch ([1, k], k symbolic) per iteration.
// CHECK-LABEL: tir.prim_func private @fused_matmul_add_gelu
// CHECK-NOT: tir.alloc
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = parallel {
// CHECK-NEXT: %[[ROW:.*]] = tir.alloc : !tir.buffer<[1, k], f32, local>
// The row is zeroed first, then the reduction loop (16) runs around the loop
// over the row's k contiguous columns (i, k, j instead of i, j, k), which
// vectorises.
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[K:[^ ]*]] step
// CHECK-NEXT: tir.block "T_matmul_init"
// CHECK: tir.for %{{.*}} = %{{.*}} to %c16{{.*}} step
// CHECK-NEXT: tir.for %{{.*}} = %{{.*}} to %[[K]] step
// CHECK-NEXT: tir.block "T_matmul" (%{{.*}} = %[[I]],
// CHECK: tir.store %{{.*}}, %[[ROW]][%[[Z:.*]], %{{.*}}]
// CHECK: tir.block "T_gelu" (%{{.*}} = %[[I]],
// CHECK-NEXT: tir.load %[[ROW]][%[[Z]], %{{.*}}]
// CHECK: tir.return
relax.func @mm_bias_gelu(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[16, k], f32>,
                         %b: !relax.tensor<[k], f32>) -> !relax.tensor<[n, k], f32> {
  %mm = relax.matmul %x, %w : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16, k], f32>) -> !relax.tensor<[n, k], f32>
  %a = relax.add %mm, %b : (!relax.tensor<[n, k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[n, k], f32>
  %g = relax.gelu %a : (!relax.tensor<[n, k], f32>) -> !relax.tensor<[n, k], f32>
  relax.return %g : !relax.tensor<[n, k], f32>
}

// Softmax: the row maximum is read by two later nests (the exp-sum and the
// normalisation), so it stays a whole [n] buffer; the row sum has one
// reader, so the normalisation moves into the exp-sum's row loop and the
// sum becomes one local scalar per row. Both row reductions accumulate in
// 16 f32 lanes (64 bytes, laneReduction): a loop over the m div 16 steps
// around a loop over the lanes, the remainder into lane 0, then lanes 1 to
// 15 folded into lane 0 and stored.
// CHECK-LABEL: tir.prim_func private @T_softmax
// CHECK: %[[MAX:.*]] = tir.alloc : !tir.buffer<[n], f32>
// CHECK: tir.for %[[R:.*]] = %{{.*}} kind = parallel {
// CHECK: %[[LANES:.*]] = tir.alloc : !tir.buffer<[16], f32, local>
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: tir.store %[[NEGINF]], %[[LANES]][%{{.*}}]
// CHECK: %[[STEPS:.*]] = arith.divui %[[M:.*]], %[[C16:.*]] : index
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %[[STEPS]] step
// CHECK: %[[BASE:.*]] = arith.muli %[[J]], %[[C16]]
// CHECK: tir.for %[[L:.*]] = %{{.*}} to %[[C16]] step
// CHECK-NEXT: %[[K:.*]] = arith.addi %[[BASE]], %[[L]]
// CHECK-NEXT: tir.block "softmax_maxelem_lanes" (%{{.*}} = %[[R]], %[[KV:.*]] = %[[K]]) kinds [spatial, reduce] {
// CHECK-NEXT: %[[OLD:.*]] = tir.load %[[LANES]][%[[L]]]
// CHECK-NEXT: %[[X:.*]] = tir.load %arg0[%{{.*}}, %[[KV]]]
// CHECK-NEXT: %[[NEW:.*]] = arith.maximumf %[[OLD]], %[[X]]
// CHECK-NEXT: tir.store %[[NEW]], %[[LANES]][%[[L]]]
// CHECK: %[[DONE:.*]] = arith.muli %[[STEPS]], %[[C16]]
// CHECK: tir.for %[[T:.*]] = %[[DONE]] to %[[M]] step
// CHECK-NEXT: tir.block "softmax_maxelem_lanes" (%{{.*}} = %[[R]], %{{.*}} = %[[T]])
// CHECK-NEXT: tir.load %[[LANES]][%[[Z:.*]]]
// CHECK: tir.for %[[F:.*]] = %{{.*}} to %[[C16]] step
// CHECK-NEXT: %[[A:.*]] = tir.load %[[LANES]][%[[Z]]]
// CHECK-NEXT: %[[B:.*]] = tir.load %[[LANES]][%[[F]]]
// CHECK-NEXT: %[[AB:.*]] = arith.maximumf %[[A]], %[[B]]
// CHECK-NEXT: tir.store %[[AB]], %[[LANES]][%[[Z]]]
// CHECK: %[[ROWMAX:.*]] = tir.load %[[LANES]][%[[Z]]]
// CHECK-NEXT: tir.store %[[ROWMAX]], %[[MAX]][%[[R]]]
// CHECK: tir.for %[[I:.*]] = %{{.*}} kind = parallel {
// CHECK-NEXT: %[[SUM:.*]] = tir.alloc : !tir.buffer<[1], f32, local>
// CHECK: %[[SUMLANES:.*]] = tir.alloc : !tir.buffer<[16], f32, local>
// CHECK: tir.block "softmax_expsum_lanes" (%{{.*}} = %[[I]],
// CHECK: arith.addf
// CHECK: tir.store %{{.*}}, %[[SUM]]
// CHECK: tir.block "softmax_norm" (%{{.*}} = %[[I]],
// CHECK-NEXT: tir.load %[[MAX]]
// CHECK-NEXT: tir.load %[[SUM]]
// CHECK: tir.return
relax.func @softmax(%x: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
  %p = relax.softmax %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %p : !relax.tensor<[n, m], f32>
}
