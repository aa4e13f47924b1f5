// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// CHECK-LABEL: relax.func @sum
// CHECK: relax.sum %{{.*}} {axes = array<i64: 1>, keepdims = true} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, 1, 4], f32>
// CHECK: relax.sum %{{.*}} {axes = array<i64: 1>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, 4], f32>
// CHECK: relax.sum %{{.*}} {axes = array<i64: -1, 0>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[m], f32>
// CHECK: relax.sum %{{.*}} {axes = array<i64>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, m, 4], f32>
// CHECK: relax.sum %{{.*}} {axes = array<i64: 0>} : (!relax.tensor<[n * 2 + 1, ?], f32>) -> !relax.tensor<[?], f32>
relax.func @sum(%x: !relax.tensor<[n, m, 4], f32>, %y: !relax.tensor<[2 * n + 1, ?], f32>) {
  %0 = relax.sum %x {axes = array<i64: 1>, keepdims = true} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, 1, 4], f32>
  %1 = relax.sum %x {axes = array<i64: 1>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %2 = relax.sum %x {axes = array<i64: -1, 0>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[m], f32>
  %3 = relax.sum %x {axes = array<i64>} : (!relax.tensor<[n, m, 4], f32>) -> !relax.tensor<[n, m, 4], f32>
  %4 = relax.sum %y {axes = array<i64: 0>} : (!relax.tensor<[2 * n + 1, ?], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// Absent axes reduce everything; keepdims keeps every dim as 1.
// CHECK-LABEL: relax.func @mean_all
// CHECK: relax.mean %{{.*}} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[], f32>
// CHECK: relax.mean %{{.*}} {keepdims = true} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[1, 1], f32>
// CHECK: relax.mean %{{.*}} {axes = array<i64: 0>} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
relax.func @mean_all(%x: !relax.tensor<[n, m], f32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.mean %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[], f32>
  %1 = relax.mean %x {keepdims = true} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[1, 1], f32>
  %2 = relax.mean %u {axes = array<i64: 0>} : (!relax.tensor<*, f32>) -> !relax.tensor<*, f32>
  relax.return
}

// CHECK-LABEL: relax.func @others
// CHECK: relax.max %{{.*}} {axes = array<i64: -1>} : (!relax.tensor<[b, n * 4], f16>) -> !relax.tensor<[b], f16>
// CHECK: relax.min %{{.*}} {axes = array<i64: 0>, keepdims = true} : (!relax.tensor<[b, n * 4], f16>) -> !relax.tensor<[1, n * 4], f16>
// CHECK: relax.prod %{{.*}} {axes = array<i64: 1>} : (!relax.tensor<[b, n * 4], i32>) -> !relax.tensor<[b], i32>
// CHECK: relax.variance %{{.*}} {axes = array<i64: 1>, keepdims = true} : (!relax.tensor<[b, n * 4], f16>) -> !relax.tensor<[b, 1], f16>
relax.func @others(%s: !relax.tensor<[n], f16>, %x: !relax.tensor<[b, n * 4], f16>, %i: !relax.tensor<[b, n * 4], i32>) {
  %0 = relax.max %x {axes = array<i64: -1>} : (!relax.tensor<[b, n * 4], f16>) -> !relax.tensor<[b], f16>
  %1 = relax.min %x {axes = array<i64: 0>, keepdims = true} : (!relax.tensor<[b, n * 4], f16>) -> !relax.tensor<[1, n * 4], f16>
  %2 = relax.prod %i {axes = array<i64: 1>} : (!relax.tensor<[b, n * 4], i32>) -> !relax.tensor<[b], i32>
  %3 = relax.variance %x {axes = array<i64: 1>, keepdims = true} : (!relax.tensor<[b, n * 4], f16>) -> !relax.tensor<[b, 1], f16>
  relax.return
}

// The declared type may leave inferred dims as `?`.
// CHECK-LABEL: relax.func @declared_unknown
// CHECK: relax.sum %{{.*}} {axes = array<i64: 0>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[?], f32>
relax.func @declared_unknown(%x: !relax.tensor<[n, m], f32>) {
  %0 = relax.sum %x {axes = array<i64: 0>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[?], f32>
  relax.return
}

// CHECK-LABEL: relax.func @arg_reduce
// CHECK: relax.argmax %{{.*}} {axis = -1 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], i64>
// CHECK: relax.argmin %{{.*}} {axis = 0 : i64, keepdims = true} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[1, m], i64>
// CHECK: relax.argmax %{{.*}} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[], i64>
// CHECK: relax.argmin %{{.*}} {keepdims = true} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[1, 1], i64>
// CHECK: relax.argmax %{{.*}} {axis = 3 : i64} : (!relax.tensor<*, f32>) -> !relax.tensor<*, i64>
relax.func @arg_reduce(%x: !relax.tensor<[n, m], f32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.argmax %x {axis = -1 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], i64>
  %1 = relax.argmin %x {axis = 0 : i64, keepdims = true} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[1, m], i64>
  %2 = relax.argmax %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[], i64>
  %3 = relax.argmin %x {keepdims = true} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[1, 1], i64>
  %4 = relax.argmax %u {axis = 3 : i64} : (!relax.tensor<*, f32>) -> !relax.tensor<*, i64>
  relax.return
}

// CHECK-LABEL: relax.func @softmax
// CHECK: relax.softmax %{{.*}} : (!relax.tensor<[b, n, n + 1], f32>) -> !relax.tensor<[b, n, n + 1], f32>
// CHECK: relax.softmax %{{.*}} {axis = 1 : i64} : (!relax.tensor<[b, n, n + 1], f32>) -> !relax.tensor<[b, n, n + 1], f32>
// CHECK: relax.log_softmax %{{.*}} {axis = -3 : i64} : (!relax.tensor<[b, n, n + 1], f32>) -> !relax.tensor<[b, n, n + 1], f32>
// CHECK: relax.log_softmax %{{.*}} : (!relax.tensor<*, f16>) -> !relax.tensor<*, f16>
relax.func @softmax(%x: !relax.tensor<[b, n, n + 1], f32>, %u: !relax.tensor<*, f16>) {
  %0 = relax.softmax %x : (!relax.tensor<[b, n, n + 1], f32>) -> !relax.tensor<[b, n, n + 1], f32>
  %1 = relax.softmax %x {axis = 1 : i64} : (!relax.tensor<[b, n, n + 1], f32>) -> !relax.tensor<[b, n, n + 1], f32>
  %2 = relax.log_softmax %x {axis = -3 : i64} : (!relax.tensor<[b, n, n + 1], f32>) -> !relax.tensor<[b, n, n + 1], f32>
  %3 = relax.log_softmax %u : (!relax.tensor<*, f16>) -> !relax.tensor<*, f16>
  relax.return
}

// CHECK-LABEL: relax.func @cumsum
// CHECK: relax.cumsum %{{.*}} {axis = 1 : i64} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
// CHECK: relax.cumsum %{{.*}} {axis = -2 : i64, dtype = i64} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i64>
// CHECK: relax.cumsum %{{.*}} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n * 4], i32>
// CHECK: relax.cumsum %{{.*}} : (!relax.tensor<*, f32>) -> !relax.tensor<[?], f32>
relax.func @cumsum(%x: !relax.tensor<[n, 4], i32>, %u: !relax.tensor<*, f32>) {
  %0 = relax.cumsum %x {axis = 1 : i64} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i32>
  %1 = relax.cumsum %x {axis = -2 : i64, dtype = i64} : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n, 4], i64>
  %2 = relax.cumsum %x : (!relax.tensor<[n, 4], i32>) -> !relax.tensor<[n * 4], i32>
  %3 = relax.cumsum %u : (!relax.tensor<*, f32>) -> !relax.tensor<[?], f32>
  relax.return
}
