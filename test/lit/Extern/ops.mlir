// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// Declarations: tensors with symbolic dims (ranked or not) and prim inputs.
// CHECK-LABEL: extern.func private @gemm(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>, !relax.tensor<[m, n], f32>)
// CHECK-SAME: attributes {link_name = "relax_blas_matmul_f32", num_outputs = 1 : i64}
extern.func private @gemm(!relax.tensor<[m, k], f32>, !relax.tensor<[k, n], f32>,
                          !relax.tensor<[m, n], f32>)
    attributes {link_name = "relax_blas_matmul_f32", num_outputs = 1 : i64}

// CHECK-LABEL: extern.func private @scale(!relax.tensor<*, f16>, !relax.prim<f32>, !relax.tensor<[n * 2, 4], f16>)
extern.func private @scale(!relax.tensor<*, f16>, !relax.prim<f32>,
                           !relax.tensor<[n * 2, 4], f16>)
    attributes {link_name = "my_scale", num_outputs = 1 : i64}

// Two outputs, no inputs.
// CHECK-LABEL: extern.func private @two_outputs(!relax.tensor<[4], i32>, !relax.tensor<[?], i64>)
// CHECK-SAME: num_outputs = 2
extern.func private @two_outputs(!relax.tensor<[4], i32>, !relax.tensor<[?], i64>)
    attributes {link_name = "two_outputs", num_outputs = 2 : i64}

// Graph-level call.
// CHECK-LABEL: relax.func @graph
// CHECK: relax.call_dps_packed @gemm(%{{.*}}, %{{.*}}) : (!relax.tensor<[n, 8], f32>, !relax.tensor<[8, 3], f32>) -> !relax.tensor<[n, 3], f32>
relax.func @graph(%a: !relax.tensor<[n, 8], f32>, %b: !relax.tensor<[8, 3], f32>)
    -> !relax.tensor<[n, 3], f32> {
  %c = relax.call_dps_packed @gemm(%a, %b)
      : (!relax.tensor<[n, 8], f32>, !relax.tensor<[8, 3], f32>) -> !relax.tensor<[n, 3], f32>
  relax.return %c : !relax.tensor<[n, 3], f32>
}

// Lower-level calls on memrefs: dynamic, static and strided.
// CHECK-LABEL: func.func @lowered
// CHECK-SAME: (%[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>
// CHECK: extern.call @gemm(%[[A]], %[[B]] : memref<?x?xf32>, memref<?x?xf32>) outs(%[[C]] : memref<?x?xf32>)
// CHECK: extern.call @gemm(%{{.*}}, %{{.*}} : memref<2x3xf32>, memref<3x?xf32>) outs(%{{.*}} : memref<2x?xf32, strided<[?, 1], offset: ?>>)
// CHECK: extern.call @scale(%{{.*}}, %{{.*}} : memref<*xf16>, f32) outs(%{{.*}} : memref<6x4xf16>)
// CHECK: extern.call @two_outputs() outs(%{{.*}}, %{{.*}} : memref<4xi32>, memref<?xi64>)
func.func @lowered(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>,
                   %s: memref<2x3xf32>, %t: memref<3x?xf32>,
                   %u: memref<2x?xf32, strided<[?, 1], offset: ?>>,
                   %x: memref<*xf16>, %f: f32, %y: memref<6x4xf16>,
                   %i: memref<4xi32>, %j: memref<?xi64>) {
  extern.call @gemm(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  extern.call @gemm(%s, %t : memref<2x3xf32>, memref<3x?xf32>)
      outs(%u : memref<2x?xf32, strided<[?, 1], offset: ?>>)
  extern.call @scale(%x, %f : memref<*xf16>, f32) outs(%y : memref<6x4xf16>)
  extern.call @two_outputs() outs(%i, %j : memref<4xi32>, memref<?xi64>)
  return
}
