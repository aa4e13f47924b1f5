// RUN: relax-opt --relax-fuse-ops --relax-verify-well-formed -split-input-file %s | FileCheck %s

// Fusion never moves a read of an input past the relax.call_tir_inplace
// that updates it (relax-fuse-ops-inplace-sink.mlir has the in-place call
// as a group's sink): exp(cache) must run
// before the update, so it is not merged into the add after it (the merged
// call would run at the add and read the updated cache). The chain after
// the update (add, then multiply) is still fused.
// CHECK-LABEL: relax.func @read_before_update
// CHECK: %[[E:.*]] = relax.call_tir @{{.*}}exp(%arg0)
// CHECK: %[[C:.*]] = relax.call_tir_inplace @inc(%arg0) inplace_indices([0])
// CHECK: relax.call_tir @fused_add_multiply(%[[E]], %[[C]])
relax.func @read_before_update(%cache: !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32> {
  %r = relax.dataflow -> !relax.tensor<[n, 4], f32> {
    %e = relax.exp %cache : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    %c = relax.call_tir_inplace @inc(%cache) inplace_indices([0]) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    %a = relax.add %e, %c : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    %m = relax.multiply %a, %a : (!relax.tensor<[n, 4], f32>, !relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    relax.output %m : !relax.tensor<[n, 4], f32>
  }
  relax.return %r : !relax.tensor<[n, 4], f32>
}
tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  tir.return
}
