// RUN: relax-opt --convert-tir-to-scf --relax-lower-shapes %s | FileCheck %s

// Golden test of the host lowering of relax.while (numerics:
// E2E/control-flow-while.mlir). The initial value is copied into a buffer
// the loop owns; the header block's argument is the carried buffer (k bound
// from its dim each iteration); the iteration's new buffer is handed to the
// next iteration (or the exit) and the carried buffer it replaced is freed:
// a branch back, no recursion. A failed check inside the body frees the
// carried buffer (and what the iteration allocated).
// CHECK-LABEL: func.func @carry
// CHECK: %[[COPY:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK: memref.copy %arg0, %[[COPY]] {relax.buffer_copy}
// CHECK: cf.cond_br %{{.*}}, ^[[HEAD:bb[0-9]+]](%[[COPY]] : memref<?xf32>), ^[[EXIT:bb[0-9]+]](%[[COPY]] : memref<?xf32>)
// CHECK: ^[[HEAD]](%[[A:.*]]: memref<?xf32>):
// CHECK: memref.dim %[[A]]
// CHECK: %[[NEW:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK: call @double(%[[A]], %[[NEW]])
// CHECK: memref.dealloc %[[A]] : memref<?xf32>
// CHECK-NEXT: cf.cond_br %{{.*}}, ^[[HEAD]](%[[NEW]] : memref<?xf32>), ^[[EXIT]](%[[NEW]] : memref<?xf32>)
// CHECK: ^[[EXIT]](%[[R:.*]]: memref<?xf32>):
// CHECK: return %[[R]] : memref<?xf32>
// CHECK: ^bb{{[0-9]+}}:
// CHECK-NEXT: memref.dealloc %[[A]] : memref<?xf32>
// CHECK-NEXT: cf.br
relax.func @carry(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  %r = relax.while %c : !relax.tensor<[], i1> iter_args(%x : !relax.tensor<[n], f32>) -> !relax.tensor<[k], f32> {
  ^bb0(%a: !relax.tensor<[k], f32>):
    %y = relax.call_tir @double(%a) : (!relax.tensor<[k], f32>) -> !relax.tensor<[k * 2], f32>
    relax.loop_yield %c, %y : !relax.tensor<[], i1>, !relax.tensor<[k * 2], f32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}
tir.prim_func @double(%a: !tir.buffer<[k], f32>, %b: !tir.buffer<[k * 2], f32>) {
  tir.return
}
