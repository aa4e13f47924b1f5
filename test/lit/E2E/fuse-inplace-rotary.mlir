// Fusion into relax.call_tir_inplace end to end: a rotary-like chain on new
// keys feeding an in-place append into a KV cache [1, m, h, 8] at rows
// pos .. pos + s - 1, with m, h, s and pos symbolic (pos read from a tensor
// with tensor_to_shape), run with and without --fuse against numpy
// (rope_append_ref.py). Arithmetic is compared with rtol 1e-6; @roll only
// moves and negates values and is compared exactly. Prefill (s = 3 at
// pos = 2 of m = 8, h = 2) and a decode step (s = 1 at the last row, h = 3).
// RUN: %python %S/rope_append_ref.py %t/prefill 2 8 3 2
// RUN: %python %S/rope_append_ref.py %t/decode 3 8 1 7
// RUN: relax-run %s --entry rope_append --input %t/prefill/cache.npy --input %t/prefill/qk.npy --input %t/prefill/cos.npy --input %t/prefill/sin.npy --input %t/prefill/pos.npy --expect %t/prefill/rope.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry rotary_append --input %t/prefill/cache.npy --input %t/prefill/qk.npy --input %t/prefill/cos.npy --input %t/prefill/sin.npy --input %t/prefill/pos.npy --expect %t/prefill/rotary.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry append_fresh --input %t/prefill/cache.npy --input %t/prefill/qk.npy --input %t/prefill/cos.npy --input %t/prefill/sin.npy --input %t/prefill/pos.npy --expect %t/prefill/fresh_cache.npy --expect %t/prefill/fresh_k2.npy --expect %t/prefill/fresh_kc.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=THREE
// RUN: relax-run %s --entry roll --input %t/prefill/cache.npy --expect %t/prefill/roll.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run --fuse %s --entry rope_append --input %t/prefill/cache.npy --input %t/prefill/qk.npy --input %t/prefill/cos.npy --input %t/prefill/sin.npy --input %t/prefill/pos.npy --expect %t/prefill/rope.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run --fuse %s --entry rotary_append --input %t/prefill/cache.npy --input %t/prefill/qk.npy --input %t/prefill/cos.npy --input %t/prefill/sin.npy --input %t/prefill/pos.npy --expect %t/prefill/rotary.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run --fuse %s --entry append_fresh --input %t/prefill/cache.npy --input %t/prefill/qk.npy --input %t/prefill/cos.npy --input %t/prefill/sin.npy --input %t/prefill/pos.npy --expect %t/prefill/fresh_cache.npy --expect %t/prefill/fresh_k2.npy --expect %t/prefill/fresh_kc.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=THREE
// RUN: relax-run --fuse %s --entry roll --input %t/prefill/cache.npy --expect %t/prefill/roll.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry rope_append --input %t/decode/cache.npy --input %t/decode/qk.npy --input %t/decode/cos.npy --input %t/decode/sin.npy --input %t/decode/pos.npy --expect %t/decode/rope.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry rotary_append --input %t/decode/cache.npy --input %t/decode/qk.npy --input %t/decode/cos.npy --input %t/decode/sin.npy --input %t/decode/pos.npy --expect %t/decode/rotary.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry append_fresh --input %t/decode/cache.npy --input %t/decode/qk.npy --input %t/decode/cos.npy --input %t/decode/sin.npy --input %t/decode/pos.npy --expect %t/decode/fresh_cache.npy --expect %t/decode/fresh_k2.npy --expect %t/decode/fresh_kc.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=THREE
// RUN: relax-run %s --entry roll --input %t/decode/cache.npy --expect %t/decode/roll.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run --fuse %s --entry rope_append --input %t/decode/cache.npy --input %t/decode/qk.npy --input %t/decode/cos.npy --input %t/decode/sin.npy --input %t/decode/pos.npy --expect %t/decode/rope.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run --fuse %s --entry rotary_append --input %t/decode/cache.npy --input %t/decode/qk.npy --input %t/decode/cos.npy --input %t/decode/sin.npy --input %t/decode/pos.npy --expect %t/decode/rotary.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run --fuse %s --entry append_fresh --input %t/decode/cache.npy --input %t/decode/qk.npy --input %t/decode/cos.npy --input %t/decode/sin.npy --input %t/decode/pos.npy --expect %t/decode/fresh_cache.npy --expect %t/decode/fresh_k2.npy --expect %t/decode/fresh_kc.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=THREE
// RUN: relax-run --fuse %s --entry roll --input %t/decode/cache.npy --expect %t/decode/roll.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// The linalg route, and the fused program's scratch unplanned.
// RUN: relax-run --fuse %s --via-linalg --entry rotary_append --input %t/prefill/cache.npy --input %t/prefill/qk.npy --input %t/prefill/cos.npy --input %t/prefill/sin.npy --input %t/prefill/pos.npy --expect %t/prefill/rotary.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run --fuse %s --plan-memory=false --entry rotary_append --input %t/decode/cache.npy --input %t/decode/qk.npy --input %t/decode/cos.npy --input %t/decode/sin.npy --input %t/decode/pos.npy --expect %t/decode/rotary.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// The keys plus a relax.view of the cache's first s rows: the view shares
// the cache's storage, so the add stays out of the append's group (merged,
// its inlined read of row j would follow the write of row j at pos <= j:
// prefill writes rows 2..4 and reads rows 0..2).
// RUN: relax-run %s --entry view_read --input %t/prefill/cache.npy --input %t/prefill/qk.npy --input %t/prefill/pos.npy --expect %t/prefill/view.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run --fuse %s --entry view_read --input %t/prefill/cache.npy --input %t/prefill/qk.npy --input %t/prefill/pos.npy --expect %t/prefill/view.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run --fuse %s --entry view_read --input %t/decode/cache.npy --input %t/decode/qk.npy --input %t/decode/pos.npy --expect %t/decode/view.npy --rtol 1e-6 --atol 0 | FileCheck %s --check-prefix=ONE
// ONE: all 1 outputs match
// THREE: all 3 outputs match

tir.prim_func private @kv_append(%cache: !tir.buffer<[1, m, h, d], f32>,
                                 %k: !tir.buffer<[1, s, h, d], f32>,
                                 %pos: index {tir.var = "pos"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = tir.sym_var "h" : index
  %s = tir.sym_var "s" : index
  %d = tir.sym_var "d" : index
  tir.for %j = %c0 to %s step %c1 {
    tir.for %i = %c0 to %h step %c1 {
      tir.for %l = %c0 to %d step %c1 {
        tir.block "append" (%vj = %j, %vi = %i, %vl = %l) kinds [spatial, spatial, spatial] {
          %x = tir.load %k[%c0, %vj, %vi, %vl] : !tir.buffer<[1, s, h, d], f32>
          %p = tir.sym_var "pos" : index
          %row = arith.addi %p, %vj : index
          tir.store %x, %cache[%c0, %row, %vi, %vl] : !tir.buffer<[1, m, h, d], f32>
        }
      }
    }
  }
  tir.return
}

tir.prim_func private @kv_append_double(%cache: !tir.buffer<[1, m, h, d], f32>,
                                        %k: !tir.buffer<[1, s, h, d], f32>,
                                        %k2: !tir.buffer<[1, s, h, d], f32>,
                                        %pos: index {tir.var = "pos"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %h = tir.sym_var "h" : index
  %s = tir.sym_var "s" : index
  %d = tir.sym_var "d" : index
  tir.for %j = %c0 to %s step %c1 {
    tir.for %i = %c0 to %h step %c1 {
      tir.for %l = %c0 to %d step %c1 {
        tir.block "append" (%vj = %j, %vi = %i, %vl = %l) kinds [spatial, spatial, spatial] {
          %x = tir.load %k[%c0, %vj, %vi, %vl] : !tir.buffer<[1, s, h, d], f32>
          %p = tir.sym_var "pos" : index
          %row = arith.addi %p, %vj : index
          tir.store %x, %cache[%c0, %row, %vi, %vl] : !tir.buffer<[1, m, h, d], f32>
          %y = arith.mulf %x, %two : f32
          tir.store %y, %k2[%c0, %vj, %vi, %vl] : !tir.buffer<[1, s, h, d], f32>
        }
      }
    }
  }
  tir.return
}

// dst[0, (r + 1) mod m, i, l] = src[0, r, i, l] (rows rolled down by one),
// in increasing r: computing src from dst inside this loop would read rows
// already rolled.
tir.prim_func private @roll_rows(%dst: !tir.buffer<[1, m, h, d], f32>,
                                 %src: !tir.buffer<[1, m, h, d], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tir.sym_var "m" : index
  %h = tir.sym_var "h" : index
  %d = tir.sym_var "d" : index
  tir.for %r = %c0 to %m step %c1 {
    tir.for %i = %c0 to %h step %c1 {
      tir.for %l = %c0 to %d step %c1 {
        tir.block "roll" (%vr = %r, %vi = %i, %vl = %l) kinds [spatial, spatial, spatial] {
          %x = tir.load %src[%c0, %vr, %vi, %vl] : !tir.buffer<[1, m, h, d], f32>
          %r1 = arith.addi %vr, %c1 : index
          %mm = tir.sym_var "m" : index
          %next = arith.remui %r1, %mm : index
          tir.store %x, %dst[%c0, %next, %vi, %vl] : !tir.buffer<[1, m, h, d], f32>
        }
      }
    }
  }
  tir.return
}

relax.func @rope_append(%cache: !relax.tensor<[1, m, h, 8], f32>,
                        %qk: !relax.tensor<[1, s, h, 16], f32>,
                        %cos: !relax.tensor<[1, s, 1, 8], f32>,
                        %sin: !relax.tensor<[1, s, 1, 8], f32>,
                        %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, m, h, 8], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %k = relax.strided_slice %qk {axes = array<i64: 3>, begin = #relax.shape<[8]>, end = #relax.shape<[16]>} : (!relax.tensor<[1, s, h, 16], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %neg = relax.negative %k : (!relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %kc = relax.multiply %k, %cos : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %ks = relax.multiply %neg, %sin : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %kr = relax.add %kc, %ks : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c = relax.call_tir_inplace @kv_append(%cache, %kr) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  relax.return %c : !relax.tensor<[1, m, h, 8], f32>
}

// The Llama generator's rotary (transformers' rotate_half): k * cos +
// concat(-k[..., 4:], k[..., :4]) * sin, the keys sliced from a fused
// projection.
relax.func @rotary_append(%cache: !relax.tensor<[1, m, h, 8], f32>,
                          %qk: !relax.tensor<[1, s, h, 16], f32>,
                          %cos: !relax.tensor<[1, s, 1, 8], f32>,
                          %sin: !relax.tensor<[1, s, 1, 8], f32>,
                          %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, m, h, 8], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %k = relax.strided_slice %qk {axes = array<i64: 3>, begin = #relax.shape<[8]>, end = #relax.shape<[16]>} : (!relax.tensor<[1, s, h, 16], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %lo = relax.strided_slice %k {axes = array<i64: 3>, begin = #relax.shape<[0]>, end = #relax.shape<[4]>} : (!relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 4], f32>
  %hi = relax.strided_slice %k {axes = array<i64: 3>, begin = #relax.shape<[4]>, end = #relax.shape<[8]>} : (!relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 4], f32>
  %neg = relax.negative %hi : (!relax.tensor<[1, s, h, 4], f32>) -> !relax.tensor<[1, s, h, 4], f32>
  %rot = relax.concat %neg, %lo {axis = 3 : i64} : (!relax.tensor<[1, s, h, 4], f32>, !relax.tensor<[1, s, h, 4], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %kc = relax.multiply %k, %cos : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %ks = relax.multiply %rot, %sin : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %kr = relax.add %kc, %ks : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c = relax.call_tir_inplace @kv_append(%cache, %kr) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  relax.return %c : !relax.tensor<[1, m, h, 8], f32>
}

// Fresh outputs: the in-place callee's own (kr * 2) and a member's value
// that leaves the group (k * cos).
relax.func @append_fresh(%cache: !relax.tensor<[1, m, h, 8], f32>,
                         %qk: !relax.tensor<[1, s, h, 16], f32>,
                         %cos: !relax.tensor<[1, s, 1, 8], f32>,
                         %sin: !relax.tensor<[1, s, 1, 8], f32>,
                         %pt: !relax.tensor<[1], i64>)
    -> (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %k = relax.strided_slice %qk {axes = array<i64: 3>, begin = #relax.shape<[8]>, end = #relax.shape<[16]>} : (!relax.tensor<[1, s, h, 16], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %kc = relax.multiply %k, %cos : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %kr = relax.add %kc, %k : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c, %k2 = relax.call_tir_inplace @kv_append_double(%cache, %kr) inplace_indices([0, -1]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>)
        -> (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>)
  relax.return %c, %k2, %kc : !relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>
}

// A producer reading the updated cache stays apart: the read and the
// update never share a program (GroupOps.cpp, readsUpdatedInput).
relax.func @roll(%cache: !relax.tensor<[1, m, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32> {
  %n = relax.negative %cache : (!relax.tensor<[1, m, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  %c = relax.call_tir_inplace @roll_rows(%cache, %n) inplace_indices([0])
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, m, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  relax.return %c : !relax.tensor<[1, m, h, 8], f32>
}

relax.func @view_read(%cache: !relax.tensor<[1, m, h, 8], f32>,
                      %qk: !relax.tensor<[1, s, h, 16], f32>,
                      %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, m, h, 8], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %k = relax.strided_slice %qk {axes = array<i64: 3>, begin = #relax.shape<[8]>, end = #relax.shape<[16]>} : (!relax.tensor<[1, s, h, 16], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %v = relax.view %cache : !relax.tensor<[1, m, h, 8], f32> to !relax.tensor<[1, s, h, 8], f32>
  %kr = relax.add %k, %v : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c = relax.call_tir_inplace @kv_append(%cache, %kr) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  relax.return %c : !relax.tensor<[1, m, h, 8], f32>
}
