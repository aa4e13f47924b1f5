// RUN: relax-opt %s --convert-tir-to-scf | FileCheck %s
// tir.vector_load / tir.vector_store become vector.load / vector.store with
// the proven alignment, on the buffer's 1-D view at the row-major position
// of the indices (the lanes may run on into the next row). A 1-D buffer is
// used as it is; a buffer with a static 0 dim and a dynamic one collapses to
// a dynamic 1-D memref.
// CHECK-LABEL: func.func @vector_access
// CHECK-SAME: (%[[W:.*]]: memref<?x?xf32>, %[[O:.*]]: memref<?xf32>, %[[Z:.*]]: memref<0x?xf32>)
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: %[[K:.*]] = memref.dim %[[W]], %{{.*}}
// CHECK: %[[ROW:.*]] = arith.muli %[[C1]], %[[K]]
// CHECK: %[[POS:.*]] = arith.addi %[[ROW]], %[[C2]]
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[W]] {{\[\[}}0, 1]] : memref<?x?xf32> into memref<?xf32>
// CHECK: %[[V:.*]] = vector.load %[[FLAT]][%[[POS]]] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
// CHECK: vector.store %[[V]], %[[O]][%[[C2]]] : memref<?xf32>, vector<4xf32>
// CHECK: memref.collapse_shape %[[Z]] {{\[\[}}0, 1]] : memref<0x?xf32> into memref<?xf32>
// CHECK: vector.store %[[V]], %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<?xf32>, vector<4xf32>
tir.prim_func @vector_access(%w: !tir.buffer<[n, k], f32>, %o: !tir.buffer<[m], f32>, %z: !tir.buffer<[0, j], f32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = tir.vector_load %w[%c1, %c2] {alignment = 16 : i64} : !tir.buffer<[n, k], f32> -> vector<4xf32>
  tir.vector_store %v, %o[%c2] : vector<4xf32>, !tir.buffer<[m], f32>
  tir.vector_store %v, %z[%c1, %c2] {alignment = 16 : i64} : vector<4xf32>, !tir.buffer<[0, j], f32>
  tir.return
}
