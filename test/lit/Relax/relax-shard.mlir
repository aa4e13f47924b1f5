// RUN: relax-opt %s --relax-shard=num-ranks=2 | FileCheck %s
// RUN: relax-opt %s --relax-shard=num-ranks=2 --mlir-print-op-generic | relax-opt | FileCheck %s
//
// --relax-shard on single-device functions with #relax.shard parameters
// and symbolic dims (s, m; symbolic split dims in E2E/shard-symbolic.mlir): the split dims divided, the splits
// propagated, collectives where Megatron-style tensor parallelism needs
// them, the annotations gone.
// CHECK-NOT: relax.shard


// Megatron MLP with a symbolic sequence: column-parallel up, row-parallel down.
// CHECK-LABEL: relax.func @mlp(
// CHECK-SAME: %[[X:.*]]: !relax.tensor<[s, 64], f32>, %[[W1:.*]]: !relax.tensor<[128, 64], f32>, %[[B1:.*]]: !relax.tensor<[128], f32>, %[[W2:.*]]: !relax.tensor<[64, 128], f32>, %[[B2:.*]]: !relax.tensor<[64], f32>)
// CHECK-SAME: -> !relax.tensor<[s, 64], f32> {
// CHECK: %[[H:.*]] = relax.linear %[[X]], %[[W1]], %[[B1]] : ({{.*}}) -> !relax.tensor<[s, 128], f32>
// CHECK: %[[A:.*]] = relax.silu %[[H]] : (!relax.tensor<[s, 128], f32>) -> !relax.tensor<[s, 128], f32>
// CHECK: %[[P:.*]] = relax.linear %[[A]], %[[W2]] : (!relax.tensor<[s, 128], f32>, !relax.tensor<[64, 128], f32>) -> !relax.tensor<[s, 64], f32>
// CHECK: %[[S:.*]] = relax.ccl.allreduce %[[P]] {num_ranks = 2 : i64} : (!relax.tensor<[s, 64], f32>) -> !relax.tensor<[s, 64], f32>
// CHECK: %[[Y:.*]] = relax.add %[[S]], %[[B2]]
// CHECK: relax.output %[[Y]] : !relax.tensor<[s, 64], f32>
relax.func @mlp(%x: !relax.tensor<[s, 64], f32>,
    %w1: !relax.tensor<[256, 64], f32> {relax.shard = #relax.shard<split = 0>},
    %b1: !relax.tensor<[256], f32> {relax.shard = #relax.shard<split = 0>},
    %w2: !relax.tensor<[64, 256], f32> {relax.shard = #relax.shard<split = 1>},
    %b2: !relax.tensor<[64], f32> {relax.shard = #relax.shard<replicated>})
    -> !relax.tensor<[s, 64], f32> {
  %0 = relax.dataflow -> !relax.tensor<[s, 64], f32> {
    %h = relax.linear %x, %w1, %b1 : (!relax.tensor<[s, 64], f32>, !relax.tensor<[256, 64], f32>, !relax.tensor<[256], f32>) -> !relax.tensor<[s, 256], f32>
    %a = relax.silu %h : (!relax.tensor<[s, 256], f32>) -> !relax.tensor<[s, 256], f32>
    %y = relax.linear %a, %w2, %b2 : (!relax.tensor<[s, 256], f32>, !relax.tensor<[64, 256], f32>, !relax.tensor<[64], f32>) -> !relax.tensor<[s, 64], f32>
    relax.output %y : !relax.tensor<[s, 64], f32>
  }
  relax.return %0 : !relax.tensor<[s, 64], f32>
}

// Attention heads: q/k/v column-parallel, the head axis of the reshape
// split, attention per head, the merge back and o_proj row-parallel; the
// rotary-like product with a [1, s, 1, 8] table keeps the split. The key
// cache [1, m, 2, 8] is split on its heads, appended in place and viewed.
// CHECK-LABEL: relax.func @attn(
// CHECK-SAME: %[[CACHE:[^:]*]]: !relax.tensor<[1, m, 1, 8], f32>, %{{.*}}: !relax.tensor<[16, 32], f32>, %{{.*}}: !relax.tensor<[8, 32], f32>, %{{.*}}: !relax.tensor<[8, 32], f32>, %{{.*}}: !relax.tensor<[32, 16], f32>)
// CHECK-SAME: -> (!relax.tensor<[1, s, 32], f32>, !relax.tensor<[1, m, 1, 8], f32>)
// CHECK: relax.reshape %{{.*}} {shape = #relax.shape<[1, s, 2, 8]>} : (!relax.tensor<[1, s, 16], f32>) -> !relax.tensor<[1, s, 2, 8], f32>
// CHECK: %[[K:.*]] = relax.reshape %{{.*}} {shape = #relax.shape<[1, s, 1, 8]>} : (!relax.tensor<[1, s, 8], f32>) -> !relax.tensor<[1, s, 1, 8], f32>
// CHECK: relax.multiply %{{.*}}, %{{.*}} : (!relax.tensor<[1, s, 2, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, 2, 8], f32>
// CHECK: %[[C:.*]] = relax.call_tir_inplace @append(%[[CACHE]], %[[K]]) inplace_indices([0]) : (!relax.tensor<[1, m, 1, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, m, 1, 8], f32>
// CHECK: relax.view %[[C]] : !relax.tensor<[1, m, 1, 8], f32> to !relax.tensor<[1, s, 1, 8], f32>
// CHECK: relax.attention {{.*}} : (!relax.tensor<[1, s, 2, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, 2, 8], f32>
// CHECK: relax.reshape %{{.*}} {shape = #relax.shape<[1, s, 16]>} : (!relax.tensor<[1, s, 2, 8], f32>) -> !relax.tensor<[1, s, 16], f32>
// CHECK: %[[O:.*]] = relax.linear %{{.*}}, %{{.*}} : (!relax.tensor<[1, s, 16], f32>, !relax.tensor<[32, 16], f32>) -> !relax.tensor<[1, s, 32], f32>
// CHECK: %[[R:.*]] = relax.ccl.allreduce %[[O]]
// CHECK: relax.return %[[R]], %[[C]] : !relax.tensor<[1, s, 32], f32>, !relax.tensor<[1, m, 1, 8], f32>
relax.func @attn(%x: !relax.tensor<[1, s, 32], f32>,
    %cos: !relax.tensor<[1, s, 1, 8], f32>,
    %cache: !relax.tensor<[1, m, 2, 8], f32> {relax.shard = #relax.shard<split = 2>},
    %wq: !relax.tensor<[32, 32], f32> {relax.shard = #relax.shard<split = 0>},
    %wk: !relax.tensor<[16, 32], f32> {relax.shard = #relax.shard<split = 0>},
    %wv: !relax.tensor<[16, 32], f32> {relax.shard = #relax.shard<split = 0>},
    %wo: !relax.tensor<[32, 32], f32> {relax.shard = #relax.shard<split = 1>})
    -> (!relax.tensor<[1, s, 32], f32>, !relax.tensor<[1, m, 2, 8], f32>)
    attributes {sym_bounds = {m = array<i64: 1, 64>, s = array<i64: 1, 64>}} {
  relax.assert_dims #relax.expr<s> "le" #relax.expr<m>, "cache", "rows"
  %q0 = relax.linear %x, %wq : (!relax.tensor<[1, s, 32], f32>, !relax.tensor<[32, 32], f32>) -> !relax.tensor<[1, s, 32], f32>
  %k0 = relax.linear %x, %wk : (!relax.tensor<[1, s, 32], f32>, !relax.tensor<[16, 32], f32>) -> !relax.tensor<[1, s, 16], f32>
  %v0 = relax.linear %x, %wv : (!relax.tensor<[1, s, 32], f32>, !relax.tensor<[16, 32], f32>) -> !relax.tensor<[1, s, 16], f32>
  %q = relax.reshape %q0 {shape = #relax.shape<[1, s, 4, 8]>} : (!relax.tensor<[1, s, 32], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %k = relax.reshape %k0 {shape = #relax.shape<[1, s, 2, 8]>} : (!relax.tensor<[1, s, 16], f32>) -> !relax.tensor<[1, s, 2, 8], f32>
  %v = relax.reshape %v0 {shape = #relax.shape<[1, s, 2, 8]>} : (!relax.tensor<[1, s, 16], f32>) -> !relax.tensor<[1, s, 2, 8], f32>
  %qr = relax.multiply %q, %cos : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 1, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %c = relax.call_tir_inplace @append(%cache, %k) inplace_indices([0]) : (!relax.tensor<[1, m, 2, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>) -> !relax.tensor<[1, m, 2, 8], f32>
  %kv = relax.view %c : !relax.tensor<[1, m, 2, 8], f32> to !relax.tensor<[1, s, 2, 8], f32>
  %a = relax.attention %qr, %kv, %v {causal = true} : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %a2 = relax.reshape %a {shape = #relax.shape<[1, s, 32]>} : (!relax.tensor<[1, s, 4, 8], f32>) -> !relax.tensor<[1, s, 32], f32>
  %o = relax.linear %a2, %wo : (!relax.tensor<[1, s, 32], f32>, !relax.tensor<[32, 32], f32>) -> !relax.tensor<[1, s, 32], f32>
  relax.return %o, %c : !relax.tensor<[1, s, 32], f32>, !relax.tensor<[1, m, 2, 8], f32>
}

tir.prim_func private @append(%cache: !tir.buffer<[1, m, h, d], f32>,
                              %new: !tir.buffer<[1, s, h, d], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tir.sym_var "s" : index
  %h = tir.sym_var "h" : index
  %d = tir.sym_var "d" : index
  tir.for %j = %c0 to %s step %c1 {
    tir.for %i = %c0 to %h step %c1 {
      tir.for %l = %c0 to %d step %c1 {
        tir.block "append" (%vj = %j, %vi = %i, %vl = %l) kinds [spatial, spatial, spatial] {
          %x = tir.load %new[%c0, %vj, %vi, %vl] : !tir.buffer<[1, s, h, d], f32>
          tir.store %x, %cache[%c0, %vj, %vi, %vl] : !tir.buffer<[1, m, h, d], f32>
        }
      }
    }
  }
  tir.return
}

// Ops that need the whole tensor get an allgather: a norm over the split
// axis, a replicated weight against split features, a broadcast against a
// replicated full-size operand; matmul column- and row-parallel.
// CHECK-LABEL: relax.func @gathers(
// CHECK-SAME: %[[X:[^:]*]]: !relax.tensor<[s, 64], f32>, %[[G:[^:]*]]: !relax.tensor<[128], f32>, %[[W1:[^:]*]]: !relax.tensor<[64, 64], f32>, %[[W2:[^:]*]]: !relax.tensor<[64, 64], f32>, %[[W3:[^:]*]]: !relax.tensor<[64, 64], f32>, %[[W4:[^:]*]]: !relax.tensor<[16, 128], f32>)
// CHECK: %[[H:.*]] = relax.matmul %[[X]], %[[W1]] : (!relax.tensor<[s, 64], f32>, !relax.tensor<[64, 64], f32>) -> !relax.tensor<[s, 64], f32>
// CHECK: %[[YP:.*]] = relax.matmul %[[H]], %[[W2]]
// CHECK: %[[Y:.*]] = relax.ccl.allreduce %[[YP]] {num_ranks = 2 : i64}
// CHECK: %[[H3:.*]] = relax.matmul %[[Y]], %[[W3]]
// CHECK: %[[G1:.*]] = relax.ccl.allgather %[[H3]] {axis = 1 : i64, num_ranks = 2 : i64} : (!relax.tensor<[s, 64], f32>) -> !relax.tensor<[s, 128], f32>
// CHECK: %[[N:.*]] = relax.rms_norm %[[G1]], %[[G]]
// CHECK: %[[G2:.*]] = relax.ccl.allgather %[[H3]]
// CHECK: %[[P:.*]] = relax.linear %[[G2]], %[[W4]] : (!relax.tensor<[s, 128], f32>, !relax.tensor<[16, 128], f32>) -> !relax.tensor<[s, 16], f32>
// CHECK: %[[G3:.*]] = relax.ccl.allgather %[[H3]]
// CHECK: %[[M:.*]] = relax.add %[[G3]], %[[N]]
// CHECK: relax.return %[[M]], %[[P]], %[[Y]] : !relax.tensor<[s, 128], f32>, !relax.tensor<[s, 16], f32>, !relax.tensor<[s, 64], f32>
relax.func @gathers(%x: !relax.tensor<[s, 64], f32>,
    %g: !relax.tensor<[128], f32>,
    %w1: !relax.tensor<[64, 128], f32> {relax.shard = #relax.shard<split = 1>},
    %w2: !relax.tensor<[128, 64], f32> {relax.shard = #relax.shard<split = 0>},
    %w3: !relax.tensor<[64, 128], f32> {relax.shard = #relax.shard<split = 1>},
    %w4: !relax.tensor<[16, 128], f32>)
    -> (!relax.tensor<[s, 128], f32>, !relax.tensor<[s, 16], f32>, !relax.tensor<[s, 64], f32>) {
  %h = relax.matmul %x, %w1 : (!relax.tensor<[s, 64], f32>, !relax.tensor<[64, 128], f32>) -> !relax.tensor<[s, 128], f32>
  %y = relax.matmul %h, %w2 : (!relax.tensor<[s, 128], f32>, !relax.tensor<[128, 64], f32>) -> !relax.tensor<[s, 64], f32>
  %h3 = relax.matmul %y, %w3 : (!relax.tensor<[s, 64], f32>, !relax.tensor<[64, 128], f32>) -> !relax.tensor<[s, 128], f32>
  %n = relax.rms_norm %h3, %g {axes = array<i64: -1>, epsilon = 1.0e-05 : f64} : (!relax.tensor<[s, 128], f32>, !relax.tensor<[128], f32>) -> !relax.tensor<[s, 128], f32>
  %p = relax.linear %h3, %w4 : (!relax.tensor<[s, 128], f32>, !relax.tensor<[16, 128], f32>) -> !relax.tensor<[s, 16], f32>
  %m = relax.add %h3, %n : (!relax.tensor<[s, 128], f32>, !relax.tensor<[s, 128], f32>) -> !relax.tensor<[s, 128], f32>
  relax.return %m, %p, %y : !relax.tensor<[s, 128], f32>, !relax.tensor<[s, 16], f32>, !relax.tensor<[s, 64], f32>
}

// take, strided_slice and concat keep a split along another axis and gather
// it where they work along it (one gather for a value read twice).
// CHECK-LABEL: relax.func @slices(
// CHECK-SAME: %[[X:[^:]*]]: !relax.tensor<[s, 4], f32>, %[[I:[^:]*]]: !relax.tensor<[t], i64>)
// CHECK-SAME: -> (!relax.tensor<[t, 4], f32>, !relax.tensor<[s, 2], f32>, !relax.tensor<[s, 16], f32>, !relax.tensor<[s, 4], f32>, !relax.tensor<[s, t], f32>)
// CHECK-NEXT: %[[ROWS:.*]] = relax.take %[[X]], %[[I]] {axis = 0 : i64} : (!relax.tensor<[s, 4], f32>, !relax.tensor<[t], i64>) -> !relax.tensor<[t, 4], f32>
// CHECK-NEXT: %[[G1:.*]] = relax.ccl.allgather %[[X]] {axis = 1 : i64, num_ranks = 2 : i64}
// CHECK-NEXT: %[[COLS:.*]] = relax.take %[[G1]], %[[I]] {axis = 1 : i64} : (!relax.tensor<[s, 8], f32>, !relax.tensor<[t], i64>) -> !relax.tensor<[s, t], f32>
// CHECK-NEXT: %[[G2:.*]] = relax.ccl.allgather %[[X]]
// CHECK-NEXT: %[[TWO:.*]] = relax.strided_slice %[[G2]]
// CHECK-NEXT: %[[G3:.*]] = relax.ccl.allgather %[[X]]
// CHECK-NEXT: %[[WIDE:.*]] = relax.concat %[[G3]], %[[G3]] {axis = 1 : i64} : (!relax.tensor<[s, 8], f32>, !relax.tensor<[s, 8], f32>) -> !relax.tensor<[s, 16], f32>
// CHECK-NEXT: %[[TALL:.*]] = relax.concat %[[X]], %[[X]] : (!relax.tensor<[s, 4], f32>, !relax.tensor<[s, 4], f32>) -> !relax.tensor<[s * 2, 4], f32>
// CHECK-NEXT: %[[HALF:.*]] = relax.strided_slice %[[TALL]] {{.*}} -> !relax.tensor<[s, 4], f32>
// CHECK-NEXT: relax.return %[[ROWS]], %[[TWO]], %[[WIDE]], %[[HALF]], %[[COLS]]
relax.func @slices(%x: !relax.tensor<[s, 8], f32> {relax.shard = #relax.shard<split = 1>},
    %i: !relax.tensor<[t], i64>)
    -> (!relax.tensor<[t, 8], f32>, !relax.tensor<[s, 2], f32>, !relax.tensor<[s, 16], f32>, !relax.tensor<[s, 8], f32>, !relax.tensor<[s, t], f32>) {
  %rows = relax.take %x, %i {axis = 0 : i64} : (!relax.tensor<[s, 8], f32>, !relax.tensor<[t], i64>) -> !relax.tensor<[t, 8], f32>
  %cols = relax.take %x, %i {axis = 1 : i64} : (!relax.tensor<[s, 8], f32>, !relax.tensor<[t], i64>) -> !relax.tensor<[s, t], f32>
  %two = relax.strided_slice %x {axes = array<i64: 1>, begin = #relax.shape<[0]>, end = #relax.shape<[2]>} : (!relax.tensor<[s, 8], f32>) -> !relax.tensor<[s, 2], f32>
  %wide = relax.concat %x, %x {axis = 1 : i64} : (!relax.tensor<[s, 8], f32>, !relax.tensor<[s, 8], f32>) -> !relax.tensor<[s, 16], f32>
  %tall = relax.concat %x, %x {axis = 0 : i64} : (!relax.tensor<[s, 8], f32>, !relax.tensor<[s, 8], f32>) -> !relax.tensor<[2 * s, 8], f32>
  %half = relax.strided_slice %tall {axes = array<i64: 0>, begin = #relax.shape<[0]>, end = #relax.shape<[s]>} : (!relax.tensor<[2 * s, 8], f32>) -> !relax.tensor<[s, 8], f32>
  relax.return %rows, %two, %wide, %half, %cols : !relax.tensor<[t, 8], f32>, !relax.tensor<[s, 2], f32>, !relax.tensor<[s, 16], f32>, !relax.tensor<[s, 8], f32>, !relax.tensor<[s, t], f32>
}

// A split dataflow result viewed after the region: the view keeps the split
// (the whole type travels with the value out of the region).
// CHECK-LABEL: relax.func @view_after(
// CHECK-SAME: !relax.tensor<[1, m, 1, 8], f32>) -> !relax.tensor<[1, 4, 1, 8], f32>
// CHECK: %[[D:.*]] = relax.dataflow -> !relax.tensor<[1, m, 1, 8], f32>
// CHECK: relax.view %[[D]] : !relax.tensor<[1, m, 1, 8], f32> to !relax.tensor<[1, 4, 1, 8], f32>
relax.func @view_after(%c: !relax.tensor<[1, m, 2, 8], f32> {relax.shard = #relax.shard<split = 2>}) -> !relax.tensor<[1, 4, 2, 8], f32>
    attributes {sym_bounds = {m = array<i64: 4, 64>}} {
  %0 = relax.dataflow -> !relax.tensor<[1, m, 2, 8], f32> {
    %e = relax.exp %c : (!relax.tensor<[1, m, 2, 8], f32>) -> !relax.tensor<[1, m, 2, 8], f32>
    relax.output %e : !relax.tensor<[1, m, 2, 8], f32>
  }
  %v = relax.view %0 : !relax.tensor<[1, m, 2, 8], f32> to !relax.tensor<[1, 4, 2, 8], f32>
  relax.return %v : !relax.tensor<[1, 4, 2, 8], f32>
}

// An input of unknown rank has no feature axis to split: the weight is
// gathered and the product is whole.
// CHECK-LABEL: relax.func @unranked_input(
// CHECK-SAME: %[[X:[^:]*]]: !relax.tensor<*, f32>, %[[W:[^:]*]]: !relax.tensor<[8, 8], f32>)
// CHECK-NEXT: %[[G:.*]] = relax.ccl.allgather %[[W]] {axis = 0 : i64, num_ranks = 2 : i64} : (!relax.tensor<[8, 8], f32>) -> !relax.tensor<[16, 8], f32>
// CHECK-NEXT: relax.linear %[[X]], %[[G]] : (!relax.tensor<*, f32>, !relax.tensor<[16, 8], f32>) -> !relax.tensor<*, f32>
relax.func @unranked_input(%x: !relax.tensor<*, f32>,
    %w: !relax.tensor<[16, 8], f32> {relax.shard = #relax.shard<split = 0>}) -> !relax.tensor<*, f32> {
  %y = relax.linear %x, %w : (!relax.tensor<*, f32>, !relax.tensor<[16, 8], f32>) -> !relax.tensor<*, f32>
  relax.return %y : !relax.tensor<*, f32>
}
