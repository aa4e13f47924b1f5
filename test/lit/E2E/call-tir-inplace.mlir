// relax.call_tir_inplace end to end: a KV cache [1, h, m, d] gets new keys
// [1, h, s, d] written at rows pos .. pos + s - 1 in place, with s and pos
// symbolic (pos read from a tensor with tensor_to_shape), against numpy
// (kv_tuple_ref.py; exact: the values are only moved). Prefill (s = 3 at
// pos = 2), a decode step at the last row (s = 1, pos = 7), an in-place
// call with a fresh second output, and the in-place update of an
// intermediate (planned in the arena) with and without the memory plan.
// A write past the end is a run-time error, not a corrupted heap.
// RUN: %python %S/kv_tuple_ref.py kv %t/prefill 2 8 4 3 2
// RUN: %python %S/kv_tuple_ref.py kv %t/decode 2 8 4 1 7
// RUN: relax-run %s --entry append --input %t/prefill/cache.npy --input %t/prefill/k.npy --input %t/prefill/pos.npy --expect %t/prefill/appended.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry append --input %t/decode/cache.npy --input %t/decode/k.npy --input %t/decode/pos.npy --expect %t/decode/appended.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry append_fresh --input %t/prefill/cache.npy --input %t/prefill/k.npy --input %t/prefill/pos.npy --expect %t/prefill/appended.npy --expect %t/prefill/k2.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=TWO
// RUN: relax-run %s --entry append_intermediate --input %t/prefill/cache.npy --input %t/prefill/k.npy --input %t/prefill/pos.npy --expect %t/prefill/intermediate.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry append_intermediate --plan-memory=false --input %t/decode/cache.npy --input %t/decode/k.npy --input %t/decode/pos.npy --expect %t/decode/intermediate.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry append_intermediate --fuse --input %t/decode/cache.npy --input %t/decode/k.npy --input %t/decode/pos.npy --expect %t/decode/intermediate.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry append --input %t/prefill/cache.npy --input %t/prefill/k.npy --input %t/decode/pos.npy > %t.fail1 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=PAST < %t.fail1
// RUN: %python -c "import numpy as np; np.save('%t/late.npy', np.array([6], dtype=np.int64))"
// RUN: relax-run %s --entry append --input %t/prefill/cache.npy --input %t/prefill/k.npy --input %t/late.npy > %t.fail2 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=PAST < %t.fail2
// ONE: all 1 outputs match
// TWO: all 2 outputs match
// PAST: error: append: kv_append at {{.*}}:{{[0-9]+}}:{{[0-9]+}}: rows written: expected pos + s <= m, got pos + s = {{(10|9)}} and m = 8

// cache[:, :, pos : pos + s, :] = k, in place.
tir.prim_func private @kv_append(%cache: !tir.buffer<[1, h, m, d], f32>,
                                 %k: !tir.buffer<[1, h, s, d], f32>,
                                 %pos: index {tir.var = "pos"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = tir.sym_var "h" : index
  %s = tir.sym_var "s" : index
  %d = tir.sym_var "d" : index
  tir.for %i = %c0 to %h step %c1 {
    tir.for %j = %c0 to %s step %c1 {
      tir.for %l = %c0 to %d step %c1 {
        tir.block "append" (%vi = %i, %vj = %j, %vl = %l) kinds [spatial, spatial, spatial] {
          %x = tir.load %k[%c0, %vi, %vj, %vl] : !tir.buffer<[1, h, s, d], f32>
          %p = tir.sym_var "pos" : index
          %row = arith.addi %p, %vj : index
          tir.store %x, %cache[%c0, %vi, %row, %vl] : !tir.buffer<[1, h, m, d], f32>
        }
      }
    }
  }
  tir.return
}

// The same, and a fresh output k * 2.
tir.prim_func private @kv_append_double(%cache: !tir.buffer<[1, h, m, d], f32>,
                                        %k: !tir.buffer<[1, h, s, d], f32>,
                                        %k2: !tir.buffer<[1, h, s, d], f32>,
                                        %pos: index {tir.var = "pos"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %h = tir.sym_var "h" : index
  %s = tir.sym_var "s" : index
  %d = tir.sym_var "d" : index
  tir.for %i = %c0 to %h step %c1 {
    tir.for %j = %c0 to %s step %c1 {
      tir.for %l = %c0 to %d step %c1 {
        tir.block "append" (%vi = %i, %vj = %j, %vl = %l) kinds [spatial, spatial, spatial] {
          %x = tir.load %k[%c0, %vi, %vj, %vl] : !tir.buffer<[1, h, s, d], f32>
          %p = tir.sym_var "pos" : index
          %row = arith.addi %p, %vj : index
          tir.store %x, %cache[%c0, %vi, %row, %vl] : !tir.buffer<[1, h, m, d], f32>
          %y = arith.mulf %x, %two : f32
          tir.store %y, %k2[%c0, %vi, %vj, %vl] : !tir.buffer<[1, h, s, d], f32>
        }
      }
    }
  }
  tir.return
}

relax.func @append(%cache: !relax.tensor<[1, h, m, d], f32>,
                   %k: !relax.tensor<[1, h, s, d], f32>,
                   %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, h, m, d], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %c = relax.call_tir_inplace @kv_append(%cache, %k) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>) -> !relax.tensor<[1, h, m, d], f32>
  relax.return %c : !relax.tensor<[1, h, m, d], f32>
}

relax.func @append_fresh(%cache: !relax.tensor<[1, h, m, d], f32>,
                         %k: !relax.tensor<[1, h, s, d], f32>,
                         %pt: !relax.tensor<[1], i64>)
    -> (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>) {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %c, %k2 = relax.call_tir_inplace @kv_append_double(%cache, %k) inplace_indices([0, -1]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>)
        -> (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>)
  relax.return %c, %k2 : !relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>
}

// The updated buffer is an intermediate: the plan keeps its slot alive
// through the in-place result's last reader, so %z (same size, created
// while %c is live) gets a slot of its own. Returns
// (cache + 1 with k written) + cache * 2.
relax.func @append_intermediate(%cache: !relax.tensor<[1, h, m, d], f32>,
                                %k: !relax.tensor<[1, h, s, d], f32>,
                                %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, h, m, d], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %one = relax.constant dense<1.0> : tensor<f32>
  %a = relax.add %cache, %one : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[1, h, m, d], f32>
  %c = relax.call_tir_inplace @kv_append(%a, %k) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, s, d], f32>) -> !relax.tensor<[1, h, m, d], f32>
  %z = relax.add %cache, %cache : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, m, d], f32>) -> !relax.tensor<[1, h, m, d], f32>
  %e = relax.add %c, %z : (!relax.tensor<[1, h, m, d], f32>, !relax.tensor<[1, h, m, d], f32>) -> !relax.tensor<[1, h, m, d], f32>
  relax.return %e : !relax.tensor<[1, h, m, d], f32>
}
