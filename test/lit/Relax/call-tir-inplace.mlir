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

// -----

// Storage, not syntax (StorageRoot.h): a parameter reached through a
// relax.call that returns it, or through a tuple, is still the caller's
// buffer and may be updated in place (the KV-cache contract); so may the
// fresh buffer a callee returns. One field of a tuple parameter updated,
// the other read after the update: they are different buffers.
// CHECK-LABEL: relax.func @storage_roots
// CHECK-COUNT-3: relax.call_tir_inplace @inc
// CHECK: relax.call @bump
relax.func @storage_roots(%x: !relax.tensor<[n, 4], f32>,
                          %kv: tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>)
    -> (!relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>, !relax.tensor<[n, 4], f32>) {
  %f = relax.call @fresh(%x) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %r = relax.call @id(%x) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %a = relax.call_tir_inplace @inc(%r) inplace_indices([0]) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %k = relax.tuple_get_item %kv[0] : tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>
  %b = relax.call_tir_inplace @inc(%k) inplace_indices([0]) : (!relax.tensor<[m, 4], f32>) -> !relax.tensor<[m, 4], f32>
  %v = relax.tuple_get_item %kv[1] : tuple<!relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>>
  %c = relax.call_tir_inplace @inc(%f) inplace_indices([0]) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  %d = relax.call @bump(%c) : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
  relax.return %a, %b, %v, %d : !relax.tensor<[n, 4], f32>, !relax.tensor<[m, 4], f32>, !relax.tensor<[m, 4], f32>, !relax.tensor<[n, 4], f32>
}
relax.func private @id(%p: !relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32> {
  relax.return %p : !relax.tensor<[k, 4], f32>
}
relax.func private @fresh(%p: !relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32> {
  %e = relax.exp %p : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
  relax.return %e : !relax.tensor<[k, 4], f32>
}
relax.func private @bump(%p: !relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32> {
  %i = relax.call_tir_inplace @inc(%p) inplace_indices([0]) : (!relax.tensor<[k, 4], f32>) -> !relax.tensor<[k, 4], f32>
  relax.return %i : !relax.tensor<[k, 4], f32>
}
tir.prim_func private @inc(%x: !tir.buffer<[n, 4], f32>) {
  tir.return
}
