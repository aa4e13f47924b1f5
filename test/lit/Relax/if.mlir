// RUN: relax-opt %s -split-input-file | FileCheck %s
// RUN: relax-opt %s -split-input-file --mlir-print-op-generic | relax-opt -split-input-file | FileCheck %s
// RUN: relax-opt %s -split-input-file --relax-legalize-ops | FileCheck %s --check-prefix=LEGAL

// Branches of [n] and [n * 2] joined as [k]: the if binds k, later types
// use it. Branch ops are legalized like any other.
// CHECK-LABEL: relax.func @grow
// CHECK: %[[R:.*]] = relax.if %{{.*}} : !relax.tensor<[], i1> -> !relax.tensor<[k], f32> {
// CHECK:   relax.yield %{{.*}} : !relax.tensor<[n], f32>
// CHECK: } else {
// CHECK:   relax.yield %{{.*}} : !relax.tensor<[n * 2], f32>
// CHECK: }
// CHECK: relax.add %[[R]], %[[R]] : (!relax.tensor<[k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[k], f32>
// LEGAL-LABEL: relax.func @grow
// LEGAL: relax.if
// LEGAL: relax.call_tir @{{.*}}add
// LEGAL: } else {
// LEGAL: relax.call_tir @{{.*}}concat
relax.func @grow(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[k], f32> {
  %r = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[k], f32> {
    %y = relax.add %x, %x : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.yield %y : !relax.tensor<[n], f32>
  } else {
    %y = relax.concat %x, %x {axis = 0 : i64} : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n * 2], f32>
    relax.yield %y : !relax.tensor<[n * 2], f32>
  }
  %z = relax.add %r, %r : (!relax.tensor<[k], f32>, !relax.tensor<[k], f32>) -> !relax.tensor<[k], f32>
  relax.return %z : !relax.tensor<[k], f32>
}

// -----

// Less precise results (`?`, unknown rank), tuples, several results, a
// nested if, and an if with no results.
// CHECK-LABEL: relax.func @forms
// CHECK: relax.if %{{.*}} : !relax.tensor<[], i1> -> !relax.tensor<[?, 4], f32>, !relax.tensor<*, f32>, tuple<!relax.tensor<[n, 4], f32>>
// CHECK: relax.if %{{.*}} : !relax.tensor<[], i1> -> !relax.tensor<[n, 4], f32>
// CHECK: relax.if %{{.*}} : !relax.tensor<[], i1> {
relax.func @forms(%x: !relax.tensor<[n, 4], f32>, %c: !relax.tensor<[], i1>) -> !relax.tensor<[?, 4], f32> {
  %t = relax.tuple %x : !relax.tensor<[n, 4], f32>
  %a, %b, %u = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[?, 4], f32>, !relax.tensor<*, f32>, tuple<!relax.tensor<[n, 4], f32>> {
    %inner = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[n, 4], f32> {
      relax.yield %x : !relax.tensor<[n, 4], f32>
    } else {
      relax.yield %x : !relax.tensor<[n, 4], f32>
    }
    relax.yield %inner, %x, %t : !relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>, tuple<!relax.tensor<[n, 4], f32>>
  } else {
    %y = relax.reshape %x {shape = #relax.shape<[n * 4]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 4], f32>
    relax.yield %x, %y, %t : !relax.tensor<[n, 4], f32>, !relax.tensor<[n * 4], f32>, tuple<!relax.tensor<[n, 4], f32>>
  }
  relax.if %c : !relax.tensor<[], i1> {
    relax.yield
  } else {
    relax.yield
  }
  relax.return %a : !relax.tensor<[?, 4], f32>
}
