// RUN: relax-opt %s --relax-legalize-ops --convert-tir-to-scf --relax-lower-shapes --relax-externalize-params="min-bytes=1024 file=%t.params" | FileCheck %s

// A parameter of at least a page (4096 bytes) starts on a page of its own:
// the library loader makes the pages wholly inside it read-only once it is
// filled (Tools/library-readonly-params.test). Smaller ones keep the
// alignment they had: they never fill a page.
// CHECK-DAG: memref.global @{{__relax_param_[01]}} : memref<1024x2xf32> = uninitialized {alignment = 4096 : i64}
// CHECK-DAG: memref.global @{{__relax_param_[01]}} : memref<512xi32> = uninitialized {alignment = 64 : i64}
relax.func @main(%x: !relax.tensor<[n, 1024, 2], f32>, %i: !relax.tensor<[n, 512], i32>)
    -> (!relax.tensor<[n, 1024, 2], f32>, !relax.tensor<[n, 512], i32>) {
  %w = relax.constant dense<2.0> : tensor<1024x2xf32>
  %k = relax.constant dense<3> : tensor<512xi32>
  %y = relax.add %x, %w : (!relax.tensor<[n, 1024, 2], f32>, !relax.tensor<[1024, 2], f32>) -> !relax.tensor<[n, 1024, 2], f32>
  %j = relax.add %i, %k : (!relax.tensor<[n, 512], i32>, !relax.tensor<[512], i32>) -> !relax.tensor<[n, 512], i32>
  relax.return %y, %j : !relax.tensor<[n, 1024, 2], f32>, !relax.tensor<[n, 512], i32>
}
