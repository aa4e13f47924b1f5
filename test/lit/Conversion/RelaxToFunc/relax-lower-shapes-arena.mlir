// RUN: relax-opt %s --relax-plan-memory --relax-lower-shapes | FileCheck %s
// RUN: relax-opt %s --relax-plan-memory --relax-lower-shapes=reuse-arena=false | FileCheck %s --check-prefix=ALLOC

// Carrying out a memory plan: the arena is taken once the parameters are
// checked, from the runtime's per-function cache (keyed by a private
// global) and at least at its bound (n <= 1000: 2 slots of
// ceil(16 n / 64) * 64 bytes -> 32000); planned buffers are views at their
// offsets; the returned buffer is allocated; the arena goes back to the
// cache at the return and on every failure exit after it was taken.
relax.func @main(%x: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    attributes {sym_bounds = {n = array<i64: 1, 1000>}} {
  %a = relax.call_tir @k(%x) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %b = relax.call_tir @k(%a) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %c = relax.call_tir @k(%b) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %c : !relax.tensor<[n, 4], f32>
}
func.func private @k(memref<?x4xf32>, memref<?x4xf32>)

// CHECK-DAG: func.func private @relax_rt_workspace_release(!llvm.ptr, memref<?xi8>) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @relax_rt_workspace_acquire(!llvm.ptr, i64, i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
// CHECK-DAG: llvm.mlir.global internal @[[KEY:__relax_arena_key_[0-9]+]](0 : i8)
// CHECK-LABEL: func.func @main(
// CHECK: %[[N:.*]] = memref.dim %arg0, %c0
// CHECK: cf.cond_br %{{.*}}, ^[[EXIT:.*]], ^
// CHECK: %[[XS:.*]] = memref.cast %arg0 : memref<?x?xf32> to memref<?x4xf32>
// CHECK: cf.cond_br %{{.*}}, ^[[EXIT]], ^
// CHECK: %[[K:.*]] = llvm.mlir.addressof @[[KEY]] : !llvm.ptr
// CHECK: %[[ARENA:.*]] = call @relax_rt_workspace_acquire(%[[K]], %{{.*}}, %c32000_i64)
// CHECK: memref.extract_aligned_pointer_as_index %[[ARENA]]
// CHECK: cf.cond_br %{{.*}}, ^[[EXIT]], ^
// CHECK: cf.cond_br %{{.*}}, ^[[RELEASE:.*]], ^
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%{{.*}}][%[[N]]] : memref<?xi8> to memref<?x4xf32>
// CHECK: call @k(%[[XS]], %[[A]])
// CHECK: %[[B:.*]] = memref.view %[[ARENA]][%{{.*}}][%[[N]]] : memref<?xi8> to memref<?x4xf32>
// CHECK: call @k(%[[A]], %[[B]])
// CHECK: %[[C:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK: call @k(%[[B]], %[[C]])
// CHECK-NEXT: call @relax_rt_workspace_release(%[[K]], %[[ARENA]])
// CHECK-NEXT: return %[[C]]
// CHECK: ^[[EXIT]]:
// CHECK: ub.poison
// CHECK: ^[[RELEASE]]:
// CHECK-NEXT: call @relax_rt_workspace_release(%[[K]], %[[ARENA]])
// CHECK-NEXT: cf.br ^[[EXIT]]

// Without the cache (the GPU pipeline, where convert-host-memory-to-gpu
// makes the arena a device allocation): a plain allocation per call.
// ALLOC-NOT: relax_rt_workspace
// ALLOC: %[[ARENA:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi8>
// ALLOC: memref.view %[[ARENA]]
// ALLOC: memref.dealloc %[[ARENA]] : memref<?xi8>
// ALLOC-NEXT: return
