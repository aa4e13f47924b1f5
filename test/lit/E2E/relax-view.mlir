// relax.view end to end: the valid rows of a KV cache [1, m, h, d] that an
// in-place append has just written (rows pos .. pos + s - 1), read without a
// copy, with m, s and pos symbolic (pos read from a tensor). Against numpy
// (kv_tuple_ref.py prefix; sums accumulated in float64, rtol 1e-5): the
// view reduced over the sequence, the view returned as a result (it shares
// the caller's cache), the view of an intermediate (the arena keeps its
// buffer alive while the view is read) with and without the memory plan,
// and fused. A view larger than its tensor is a run-time error.
// RUN: %python %S/kv_tuple_ref.py prefix %t/prefill 8 2 4 3 0
// RUN: %python %S/kv_tuple_ref.py prefix %t/decode 8 2 4 1 7
// RUN: %python %S/kv_tuple_ref.py prefix %t/mid 8 2 4 1 3
// RUN: relax-run %s --entry attend --input %t/prefill/cache.npy --input %t/prefill/k.npy --input %t/prefill/pos.npy --expect %t/prefill/sum.npy --expect %t/prefill/appended.npy --rtol 1e-5 --atol 0 | FileCheck %s --check-prefix=TWO
// RUN: relax-run %s --entry attend --input %t/decode/cache.npy --input %t/decode/k.npy --input %t/decode/pos.npy --expect %t/decode/sum.npy --expect %t/decode/appended.npy --rtol 1e-5 --atol 0 | FileCheck %s --check-prefix=TWO
// RUN: relax-run %s --entry attend --fuse --input %t/mid/cache.npy --input %t/mid/k.npy --input %t/mid/pos.npy --expect %t/mid/sum.npy --expect %t/mid/appended.npy --rtol 1e-5 --atol 0 | FileCheck %s --check-prefix=TWO
// RUN: relax-run %s --entry valid --input %t/mid/cache.npy --input %t/mid/k.npy --input %t/mid/pos.npy --expect %t/mid/valid.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry valid --input %t/decode/cache.npy --input %t/decode/k.npy --input %t/decode/pos.npy --expect %t/decode/valid.npy --rtol 0 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry intermediate --input %t/mid/cache.npy --input %t/mid/k.npy --input %t/mid/pos.npy --expect %t/mid/sum1.npy --rtol 1e-5 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry intermediate --memory-report --input %t/mid/cache.npy --input %t/mid/k.npy --input %t/mid/pos.npy | FileCheck %s --check-prefix=PLAN
// RUN: relax-run %s --entry intermediate --plan-memory=false --input %t/decode/cache.npy --input %t/decode/k.npy --input %t/decode/pos.npy --expect %t/decode/sum1.npy --rtol 1e-5 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: relax-run %s --entry intermediate --fuse --input %t/prefill/cache.npy --input %t/prefill/k.npy --input %t/prefill/pos.npy --expect %t/prefill/sum1.npy --rtol 1e-5 --atol 0 | FileCheck %s --check-prefix=ONE
// RUN: %python -c "import numpy as np; np.save('%t/nine.npy', np.array([9], dtype=np.int64))"
// RUN: relax-run %s --entry unchecked --input %t/mid/cache.npy --input %t/nine.npy > %t.big 2>&1; test $? -eq 1
// RUN: FileCheck %s --check-prefix=BIG < %t.big
// ONE: all 1 outputs match
// TWO: all 2 outputs match
// The appended intermediate is planned (all are) and keeps its own m-row
// slot while its view is read: two m-row slots, not one shared with %z.
// PLAN: @intermediate: [[N:[0-9]+]] of [[N]] intermediates in [[N]] storages
// PLAN-NEXT: arena = (d * h * m * 4 + 63) floordiv 64 * 128 + (d * h * 4 + 63) floordiv 64 *
// BIG: error: unchecked: relax.view at {{.*}}.mlir:{{[0-9]+}}:{{[0-9]+}}: the view has 72 elements, the viewed tensor 64

// cache[:, pos : pos + s] = k, in place.
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

// The appended rows reduced over the sequence, and the whole cache.
relax.func @attend(%cache: !relax.tensor<[1, m, h, d], f32>,
                   %k: !relax.tensor<[1, s, h, d], f32>,
                   %pt: !relax.tensor<[1], i64>)
    -> (!relax.tensor<[1, h, d], f32>, !relax.tensor<[1, m, h, d], f32>) {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %c = relax.call_tir_inplace @kv_append(%cache, %k) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, d], f32>, !relax.tensor<[1, s, h, d], f32>) -> !relax.tensor<[1, m, h, d], f32>
  %v = relax.view %c : !relax.tensor<[1, m, h, d], f32> to !relax.tensor<[1, pos + s, h, d], f32>
  %r = relax.sum %v {axes = array<i64: 1>} : (!relax.tensor<[1, pos + s, h, d], f32>) -> !relax.tensor<[1, h, d], f32>
  relax.return %r, %c : !relax.tensor<[1, h, d], f32>, !relax.tensor<[1, m, h, d], f32>
}

// The view itself is the result: it points into the caller's cache.
relax.func @valid(%cache: !relax.tensor<[1, m, h, d], f32>,
                  %k: !relax.tensor<[1, s, h, d], f32>,
                  %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, pos + s, h, d], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %c = relax.call_tir_inplace @kv_append(%cache, %k) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, d], f32>, !relax.tensor<[1, s, h, d], f32>) -> !relax.tensor<[1, m, h, d], f32>
  %v = relax.view %c : !relax.tensor<[1, m, h, d], f32> to !relax.tensor<[1, pos + s, h, d], f32>
  relax.return %v : !relax.tensor<[1, pos + s, h, d], f32>
}

// The view of an intermediate: %z, as large as the cache and created
// while the view is still to be read, must not take its storage.
relax.func @intermediate(%cache: !relax.tensor<[1, m, h, d], f32>,
                         %k: !relax.tensor<[1, s, h, d], f32>,
                         %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, h, d], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  relax.assert_dims #relax.expr<pos + s> "le" #relax.expr<m>, "kv_append", "rows written"
  %one = relax.constant dense<1.0> : tensor<f32>
  %a = relax.add %cache, %one : (!relax.tensor<[1, m, h, d], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[1, m, h, d], f32>
  %c = relax.call_tir_inplace @kv_append(%a, %k) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, d], f32>, !relax.tensor<[1, s, h, d], f32>) -> !relax.tensor<[1, m, h, d], f32>
  %v = relax.view %c : !relax.tensor<[1, m, h, d], f32> to !relax.tensor<[1, pos + s, h, d], f32>
  %z = relax.add %cache, %cache : (!relax.tensor<[1, m, h, d], f32>, !relax.tensor<[1, m, h, d], f32>) -> !relax.tensor<[1, m, h, d], f32>
  %zs = relax.sum %z {axes = array<i64: 1>} : (!relax.tensor<[1, m, h, d], f32>) -> !relax.tensor<[1, h, d], f32>
  %zero = relax.multiply %zs, %one : (!relax.tensor<[1, h, d], f32>, !relax.tensor<[], f32>) -> !relax.tensor<[1, h, d], f32>
  %r = relax.sum %v {axes = array<i64: 1>} : (!relax.tensor<[1, pos + s, h, d], f32>) -> !relax.tensor<[1, h, d], f32>
  %nz = relax.subtract %zero, %zs : (!relax.tensor<[1, h, d], f32>, !relax.tensor<[1, h, d], f32>) -> !relax.tensor<[1, h, d], f32>
  %out = relax.add %r, %nz : (!relax.tensor<[1, h, d], f32>, !relax.tensor<[1, h, d], f32>) -> !relax.tensor<[1, h, d], f32>
  relax.return %out : !relax.tensor<[1, h, d], f32>
}

// No assert_dims: the view's own check stops pos = 9 rows of an 8-row cache.
relax.func @unchecked(%cache: !relax.tensor<[1, m, h, d], f32>,
                      %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, h, d], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  %v = relax.view %cache : !relax.tensor<[1, m, h, d], f32> to !relax.tensor<[1, pos, h, d], f32>
  %r = relax.sum %v {axes = array<i64: 1>} : (!relax.tensor<[1, pos, h, d], f32>) -> !relax.tensor<[1, h, d], f32>
  relax.return %r : !relax.tensor<[1, h, d], f32>
}
