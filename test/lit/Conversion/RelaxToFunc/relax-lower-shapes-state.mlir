// RUN: relax-opt --convert-tir-to-scf --relax-lower-shapes -split-input-file %s | FileCheck %s

// Golden tests of the host lowering of tuples across functions, in-place
// calls and relax.if. Numerics: E2E/tuple-params.mlir,
// E2E/call-tir-inplace.mlir, E2E/control-flow-if.mlir.

// A tuple parameter is its leaves; a tuple result of relax.call comes back
// as leaves and tuple_get_item picks one.
// CHECK-LABEL: func.func @tuple_call
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[B:.*]]: memref<?xf32>) -> memref<?xf32>
// CHECK: %[[R:.*]]:2 = call @pair(%[[A]]) : (memref<?xf32>) -> (memref<?xf32>, memref<?xf32>)
// CHECK: return %[[R]]#1 : memref<?xf32>
relax.func private @pair(%x: !relax.tensor<[n], f32>) -> tuple<!relax.tensor<[n], f32>, !relax.tensor<[n], f32>> {
  %t = relax.tuple %x, %x : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
  relax.return %t : tuple<!relax.tensor<[n], f32>, !relax.tensor<[n], f32>>
}
relax.func @tuple_call(%p: tuple<!relax.tensor<[n], f32>, !relax.tensor<[m], f32>>) -> !relax.tensor<[n], f32> {
  %x = relax.tuple_get_item %p[0] : tuple<!relax.tensor<[n], f32>, !relax.tensor<[m], f32>>
  %t = relax.call @pair(%x) : (!relax.tensor<[n], f32>) -> tuple<!relax.tensor<[n], f32>, !relax.tensor<[n], f32>>
  %y = relax.tuple_get_item %t[1] : tuple<!relax.tensor<[n], f32>, !relax.tensor<[n], f32>>
  relax.return %y : !relax.tensor<[n], f32>
}

// -----

// The updated input is passed as it is, nothing is allocated for it, and
// the result is the argument (the caller's buffer).
// CHECK-LABEL: func.func @inplace
// CHECK-SAME: (%[[X:.*]]: memref<?xf32>) -> memref<?xf32>
// CHECK-NOT: memref.alloc
// CHECK: call @inc(%[[X]]) : (memref<?xf32>) -> ()
// CHECK-NEXT: return %[[X]]
tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) {
  tir.return
}
relax.func @inplace(%x: !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32> {
  %i = relax.call_tir_inplace @inc(%x) inplace_indices([0]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
  relax.return %i : !relax.tensor<[n], f32>
}

// -----

// The condition is read from a host staging copy; each branch is a block,
// joined at a block whose argument is the result. A yielded argument is
// copied (relax.buffer_copy: a device-to-device copy on the GPU), so the
// result is always a buffer the function owns; k is bound from the
// result's dim after the join.
// CHECK-LABEL: func.func @branch
// CHECK: memref.alloc() {relax.host_staging} : memref<i1>
// CHECK: %[[C:.*]] = memref.load
// CHECK: cf.cond_br %[[C]], ^[[THEN:.*]], ^[[ELSE:.*]]
// CHECK: ^[[THEN]]:
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK: memref.copy %{{.*}}, %[[T]] {relax.buffer_copy}
// CHECK: cf.br ^[[JOIN:.*]](%[[T]] : memref<?xf32>)
// CHECK: ^[[ELSE]]:
// CHECK: cf.br ^[[JOIN]](%{{.*}} : memref<?xf32>)
// CHECK: ^[[JOIN]](%[[R:.*]]: memref<?xf32>):
// CHECK: memref.dim %[[R]]
// CHECK: return %[[R]]
relax.func @branch(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[k], f32> {
    relax.yield %x : !relax.tensor<[n], f32>
  } else {
    relax.yield %x : !relax.tensor<[n], f32>
  }
  relax.return %r : !relax.tensor<[k], f32>
}
