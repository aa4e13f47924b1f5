// RUN: relax-opt %s -split-input-file | FileCheck %s
// RUN: relax-opt %s -split-input-file --mlir-print-op-generic | relax-opt -split-input-file | FileCheck %s
// RUN: relax-opt %s -split-input-file --canonicalize --cse | FileCheck %s --check-prefix=KEEP

// A KV cache append: result 0 is input 0 updated in place, result 1 a
// fresh output; the callee takes the inputs, then the fresh output, then
// the tir_vars. Symbolic s and pos.
// CHECK-LABEL: relax.func @append
// CHECK: relax.call_tir_inplace @kv_append(%{{.*}}, %{{.*}}) inplace_indices([0, -1]) tir_vars(#relax.shape<[pos]>) : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>) -> (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>)
// Not pure: canonicalization and CSE keep an unused in-place call (it may
// update the caller's buffer).
// KEEP-LABEL: relax.func @append
// KEEP: relax.call_tir_inplace @kv_append
// KEEP: relax.call_tir_inplace @kv_append
relax.func @append(%cache: !relax.tensor<[1, h, m, d], f32>,
                   %k: !relax.tensor<[1, h, s, d], f32>,
                   %other: !relax.tensor<[1, h, m, d], f32>,
                   %ps: !relax.shape<[pos]>) -> !relax.tensor<[1, h, m, d], f32> {
  %c, %k2 = relax.call_tir_inplace @kv_append(%cache, %k) inplace_indices([0, -1]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>)
        -> (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>)
  %u, %u2 = relax.call_tir_inplace @kv_append(%other, %k) inplace_indices([0, -1]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>)
        -> (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>)
  relax.return %c : !relax.tensor<[1, h, m, d], f32>
}
tir.prim_func private @kv_append(%cache: !tir.buffer<[1, h, m, d], f32>,
                                 %k: !tir.buffer<[1, h, s, d], f32>,
                                 %k2: !tir.buffer<[1, h, s, d], f32>,
                                 %pos: index {tir.var = "pos"}) {
  tir.return
}

// -----

// Allowed in a dataflow region; the other branch of a relax.if may read
// the updated input (it never runs after the update), and reads before
// the call are fine.
// CHECK-LABEL: relax.func @placement
// CHECK: relax.dataflow
// CHECK: relax.call_tir_inplace @inc(%{{.*}}) inplace_indices([0])
// CHECK: relax.if
// CHECK: relax.call_tir_inplace @inc(%{{.*}}) inplace_indices([0])
relax.func @placement(%x: !relax.tensor<[n], f32>, %c: !relax.tensor<[], i1>)
    -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) {
  %r = relax.dataflow -> !relax.tensor<[n], f32> {
    %e = relax.exp %x : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %i = relax.call_tir_inplace @inc(%e) inplace_indices([0]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.output %i : !relax.tensor<[n], f32>
  }
  %s = relax.if %c : !relax.tensor<[], i1> -> !relax.tensor<[n], f32> {
    %i = relax.call_tir_inplace @inc(%r) inplace_indices([0]) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.yield %i : !relax.tensor<[n], f32>
  } else {
    relax.yield %r : !relax.tensor<[n], f32>
  }
  relax.return %s, %x : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
}
tir.prim_func private @inc(%x: !tir.buffer<[n], f32>) {
  tir.return
}
