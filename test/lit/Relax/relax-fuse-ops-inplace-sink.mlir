// RUN: relax-opt --relax-fuse-ops --relax-verify-well-formed %s | FileCheck %s
// RUN: relax-opt --relax-fuse-ops %s | FileCheck %s --check-prefix=TIR

// A relax.call_tir_inplace is the sink of a fusion group: the injective
// producers of its inputs that it does not update merge into it, and the
// merged call is in place too. Every dim but the head size is symbolic:
// cache [1, m, h, 8], new keys [1, s, h, 8] written at rows pos .. pos+s-1.

// cache[0, pos + j, i, l] = k[0, j, i, l], in place.
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

// The same, and a fresh output k * 2.
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

// Rotary-like chain (slice the keys out of a fused [.., 16] projection,
// k * cos + (-k) * sin) feeding the append: one program, one loop nest, no
// intermediate buffer; the cache stays an input, updated in place (its
// index among the merged call's inputs), and pos still comes in tir_vars.
// TIR-LABEL: tir.prim_func private @fused_strided_slice_negative_multiply_multiply_add_kv_append(
// TIR-SAME: %[[QK:[a-z0-9]+]]: !tir.buffer<[1, s, h, 16], f32>, %{{.*}}: !tir.buffer<[1, s, 1, 8], f32>, %{{.*}}: !tir.buffer<[1, s, 1, 8], f32>, %[[CACHE:[a-z0-9]+]]: !tir.buffer<[1, m, h, 8], f32>, %{{.*}}: index {tir.var = "pos"})
// TIR-SAME: op_pattern = #tir.op_pattern<injective>
// TIR-NOT: tir.alloc
// TIR: tir.block "append"
// TIR-NOT: tir.block
// TIR: tir.load %[[QK]]
// TIR: arith.negf
// TIR: tir.store %{{.*}}, %[[CACHE]]
// TIR-NOT: tir.block
// TIR: tir.return
relax.func @rope_append(%cache: !relax.tensor<[1, m, h, 8], f32>,
                        %qk: !relax.tensor<[1, s, h, 16], f32>,
                        %cos: !relax.tensor<[1, s, 1, 8], f32>,
                        %sin: !relax.tensor<[1, s, 1, 8], f32>,
                        %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, m, h, 8], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  %k = relax.strided_slice %qk {axes = array<i64: 3>, begin = #relax.shape<[8]>, end = #relax.shape<[16]>} : (!relax.tensor<[1, s, h, 16], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %neg = relax.negative %k : (!relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %kc = relax.multiply %k, %cos : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %ks = relax.multiply %neg, %sin : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %kr = relax.add %kc, %ks : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c = relax.call_tir_inplace @kv_append(%cache, %kr) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  relax.return %c : !relax.tensor<[1, m, h, 8], f32>
}
// CHECK-LABEL: relax.func @rope_append(
// CHECK-SAME: %[[C:[a-z0-9]+]]: !relax.tensor<[1, m, h, 8], f32>, %[[Q:[a-z0-9]+]]: !relax.tensor<[1, s, h, 16], f32>, %[[COS:[a-z0-9]+]]: !relax.tensor<[1, s, 1, 8], f32>, %[[SIN:[a-z0-9]+]]: !relax.tensor<[1, s, 1, 8], f32>
// CHECK-NOT: relax.call_tir
// CHECK: %[[R:.*]] = relax.call_tir_inplace @fused_strided_slice_negative_multiply_multiply_add_kv_append(%[[Q]], %[[COS]], %[[SIN]], %[[C]]) inplace_indices([3]) tir_vars(#relax.shape<[pos]>)
// CHECK-NOT: relax.call_tir
// CHECK: relax.return %[[R]]

// The Llama generator's rotary (transformers' rotate_half, a concat of the
// negated high half and the low half) fuses whole into the append too. Two
// buffers stay in the program: the sliced keys (read at shifted indices by
// the halves) and the concat (two stores); computeInline takes neither.
// TIR-LABEL: tir.prim_func private @fused_strided_slice_strided_slice_1_strided_slice_2_etc(
// TIR-COUNT-2: tir.alloc : !tir.buffer<[1, s, h, 8], f32>
// TIR-NOT: tir.alloc
// TIR: tir.return
relax.func @rotate_half_append(%cache: !relax.tensor<[1, m, h, 8], f32>,
                               %qk: !relax.tensor<[1, s, h, 16], f32>,
                               %cos: !relax.tensor<[1, s, 1, 8], f32>,
                               %sin: !relax.tensor<[1, s, 1, 8], f32>,
                               %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, m, h, 8], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
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
// CHECK-LABEL: relax.func @rotate_half_append(
// CHECK-NOT: relax.call_tir @
// CHECK: %[[R:.*]] = relax.call_tir_inplace @fused_strided_slice_strided_slice_1_strided_slice_2_etc(%arg1, %arg2, %arg3, %arg0) inplace_indices([3]) tir_vars(#relax.shape<[pos]>)
// CHECK-NOT: relax.call_tir @
// CHECK: relax.return %[[R]]

// An in-place member with a fresh output (k * 2), and a member whose value
// also leaves the group (k * cos): both become fresh outputs (-1) after
// the updated cache, in the order of their members.
// TIR-LABEL: tir.prim_func private @fused_multiply_add_kv_append_double(
// TIR-SAME: %{{.*}}: !tir.buffer<[1, s, h, 8], f32>, %{{.*}}: !tir.buffer<[1, s, 1, 8], f32>, %{{.*}}: !tir.buffer<[1, m, h, 8], f32>, %{{.*}}: !tir.buffer<[1, s, h, 8], f32>, %{{.*}}: !tir.buffer<[1, s, h, 8], f32>, %{{.*}}: index {tir.var = "pos"})
relax.func @append_fresh(%cache: !relax.tensor<[1, m, h, 8], f32>,
                         %k: !relax.tensor<[1, s, h, 8], f32>,
                         %cos: !relax.tensor<[1, s, 1, 8], f32>,
                         %pt: !relax.tensor<[1], i64>)
    -> (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  %kc = relax.multiply %k, %cos : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %kr = relax.add %kc, %k : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c, %k2 = relax.call_tir_inplace @kv_append_double(%cache, %kr) inplace_indices([0, -1]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>)
        -> (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>)
  relax.return %c, %k2, %kc : !relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>
}
// CHECK-LABEL: relax.func @append_fresh(
// CHECK-SAME: %[[C:[a-z0-9]+]]: !relax.tensor<[1, m, h, 8], f32>, %[[K:[a-z0-9]+]]: !relax.tensor<[1, s, h, 8], f32>, %[[COS:[a-z0-9]+]]: !relax.tensor<[1, s, 1, 8], f32>
// CHECK-NOT: relax.call_tir
// CHECK: %[[R:.*]]:3 = relax.call_tir_inplace @fused_multiply_add_kv_append_double(%[[K]], %[[COS]], %[[C]]) inplace_indices([2, -1, -1]) tir_vars(#relax.shape<[pos]>)
// CHECK-NOT: relax.call_tir
// CHECK: relax.return %[[R]]#0, %[[R]]#2, %[[R]]#1

// The producer of the updated input (cache + cache) does not join: the
// merged call needs a real buffer to update. The rotary chain still does.
// CHECK-LABEL: relax.func @updated_producer(
// CHECK: %[[A:.*]] = relax.call_tir @{{.*}}add{{.*}}(%arg0, %arg0)
// CHECK-NEXT: relax.call_tir_inplace @fused_multiply_kv_append{{.*}}(%arg1, %arg2, %[[A]]) inplace_indices([2])
relax.func @updated_producer(%cache: !relax.tensor<[1, m, h, 8], f32>,
                             %k: !relax.tensor<[1, s, h, 8], f32>,
                             %cos: !relax.tensor<[1, s, 1, 8], f32>,
                             %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, m, h, 8], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  %a = relax.add %cache, %cache : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, m, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  %kc = relax.multiply %k, %cos : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c = relax.call_tir_inplace @kv_append(%a, %kc) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  relax.return %c : !relax.tensor<[1, m, h, 8], f32>
}

// The in-place call never joins a later group: its consumer (c * c) stays
// a call of its own.
// CHECK-LABEL: relax.func @result_consumer(
// CHECK: %[[C:.*]] = relax.call_tir_inplace @fused_multiply_kv_append{{.*}}(%arg1, %arg2, %arg0) inplace_indices([2])
// CHECK-NEXT: relax.call_tir @{{.*}}multiply{{.*}}(%[[C]], %[[C]])
relax.func @result_consumer(%cache: !relax.tensor<[1, m, h, 8], f32>,
                            %k: !relax.tensor<[1, s, h, 8], f32>,
                            %cos: !relax.tensor<[1, s, 1, 8], f32>,
                            %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, m, h, 8], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  %kr = relax.multiply %k, %cos : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c = relax.call_tir_inplace @kv_append(%cache, %kr) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  %e = relax.multiply %c, %c : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, m, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  relax.return %e : !relax.tensor<[1, m, h, 8], f32>
}

// acc[0, j, i, l] *= k[0, j, i, l], in place.
tir.prim_func private @mul_into(%acc: !tir.buffer<[1, s, h, d], f32>,
                                %k: !tir.buffer<[1, s, h, d], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = tir.sym_var "h" : index
  %s = tir.sym_var "s" : index
  %d = tir.sym_var "d" : index
  tir.for %j = %c0 to %s step %c1 {
    tir.for %i = %c0 to %h step %c1 {
      tir.for %l = %c0 to %d step %c1 {
        tir.block "mul" (%vj = %j, %vi = %i, %vl = %l) kinds [spatial, spatial, spatial] {
          %x = tir.load %k[%c0, %vj, %vi, %vl] : !tir.buffer<[1, s, h, d], f32>
          %a = tir.load %acc[%c0, %vj, %vi, %vl] : !tir.buffer<[1, s, h, d], f32>
          %y = arith.mulf %a, %x : f32
          tir.store %y, %acc[%c0, %vj, %vi, %vl] : !tir.buffer<[1, s, h, d], f32>
        }
      }
    }
  }
  tir.return
}

// Nor is it a member on the way to a later sink: k * cos is read by the
// in-place call and by the add after it (its post-dominator), but the only
// path to the add passes the in-place call, so nothing merges.
// CHECK-LABEL: relax.func @inplace_on_path(
// CHECK: %[[KR:.*]] = relax.call_tir @{{.*}}multiply{{.*}}(%arg1, %arg2)
// CHECK-NEXT: %[[C:.*]] = relax.call_tir_inplace @mul_into(%arg0, %[[KR]]) inplace_indices([0])
// CHECK-NEXT: relax.call_tir @{{.*}}add{{.*}}(%[[C]], %[[KR]])
relax.func @inplace_on_path(%acc: !relax.tensor<[1, s, h, 8], f32>,
                            %k: !relax.tensor<[1, s, h, 8], f32>,
                            %cos: !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32> {
  %kr = relax.multiply %k, %cos : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c = relax.call_tir_inplace @mul_into(%acc, %kr) inplace_indices([0])
      : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %e = relax.add %c, %kr : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  relax.return %e : !relax.tensor<[1, s, h, 8], f32>
}

// A producer that reads the updated input (-cache) does not join: the read
// and the update never share a program (inlined into the roll's loop, the
// read would see rows already rolled).
// CHECK-LABEL: relax.func @reads_updated(
// CHECK: %[[N:.*]] = relax.call_tir @{{.*}}negative{{.*}}(%arg0)
// CHECK-NEXT: relax.call_tir_inplace @roll_rows(%arg0, %[[N]]) inplace_indices([0])
relax.func @reads_updated(%cache: !relax.tensor<[1, m, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32> {
  %n = relax.negative %cache : (!relax.tensor<[1, m, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  %c = relax.call_tir_inplace @roll_rows(%cache, %n) inplace_indices([0])
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, m, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  relax.return %c : !relax.tensor<[1, m, h, 8], f32>
}

// The same through a relax.view of the cache (its first s rows): the view
// shares the cache's storage, so reading it is reading the updated input,
// and k + view stays out of the append's group.
// CHECK-LABEL: relax.func @reads_view_of_updated(
// CHECK: %[[V:.*]] = relax.view %arg0
// CHECK-NEXT: %[[A:.*]] = relax.call_tir @{{.*}}add{{.*}}(%arg1, %[[V]])
// CHECK-NEXT: relax.call_tir_inplace @kv_append(%arg0, %[[A]]) inplace_indices([0])
relax.func @reads_view_of_updated(%cache: !relax.tensor<[1, m, h, 8], f32>,
                                  %k: !relax.tensor<[1, s, h, 8], f32>,
                                  %pt: !relax.tensor<[1], i64>) -> !relax.tensor<[1, m, h, 8], f32> {
  %ps = relax.tensor_to_shape %pt : !relax.tensor<[1], i64> to !relax.shape<[pos]>
  %v = relax.view %cache : !relax.tensor<[1, m, h, 8], f32> to !relax.tensor<[1, s, h, 8], f32>
  %kr = relax.add %k, %v : (!relax.tensor<[1, s, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, s, h, 8], f32>
  %c = relax.call_tir_inplace @kv_append(%cache, %kr) inplace_indices([0]) tir_vars(#relax.shape<[pos]>)
      : (!relax.tensor<[1, m, h, 8], f32>, !relax.tensor<[1, s, h, 8], f32>) -> !relax.tensor<[1, m, h, 8], f32>
  relax.return %c : !relax.tensor<[1, m, h, 8], f32>
}
