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
// sum becomes one local scalar per row.
// CHECK-LABEL: tir.prim_func private @T_softmax
// CHECK: %[[MAX:.*]] = tir.alloc : !tir.buffer<[n], f32>
// CHECK: tir.block "softmax_maxelem"
// CHECK: tir.for %[[I:.*]] = %{{.*}} kind = parallel {
// CHECK-NEXT: %[[SUM:.*]] = tir.alloc : !tir.buffer<[1], f32, local>
// CHECK: tir.block "softmax_expsum" (%{{.*}} = %[[I]],
// CHECK: tir.block "softmax_norm" (%{{.*}} = %[[I]],
// CHECK-NEXT: tir.load %[[MAX]]
// CHECK-NEXT: tir.load %[[SUM]]
// CHECK: tir.return
relax.func @softmax(%x: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
  %p = relax.softmax %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  relax.return %p : !relax.tensor<[n, m], f32>
}
