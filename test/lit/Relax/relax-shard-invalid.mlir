// RUN: relax-opt %s --relax-shard=num-ranks=4 -split-input-file -verify-diagnostics
//
// Every diagnostic of --relax-shard: annotations it cannot apply (at the
// parameter), ops it cannot shard or annotations that contradict each other
// (at the op).

// expected-error@+2 {{parameter #0: relax.shard must be a #relax.shard attribute, got 0 : i64}}
relax.func @not_shard(
    %x: !relax.tensor<[4], f32> {relax.shard = 0 : i64}) -> !relax.tensor<[4], f32> {
  relax.return %x : !relax.tensor<[4], f32>
}

// -----

// expected-error@+2 {{parameter #0 ('w'): #relax.shard<split = 2> is out of range for rank 2}}
relax.func @out_of_range(
    %x: !relax.tensor<[4, 4], f32> {relax.name = "w", relax.shard = #relax.shard<split = 2>}) -> !relax.tensor<[4, 4], f32> {
  relax.return %x : !relax.tensor<[4, 4], f32>
}

// -----

// expected-error@+2 {{parameter #0: #relax.shard<split = 0> needs a tensor of known rank, got '!relax.tensor<*, f32>'}}
relax.func @unranked(
    %x: !relax.tensor<*, f32> {relax.shard = #relax.shard<split = 0>}) -> !relax.tensor<*, f32> {
  relax.return %x : !relax.tensor<*, f32>
}

// -----

// expected-error@+2 {{parameter #0: cannot split the unknown dim '?' of axis 0 (bind it to a variable with relax.match_cast)}}
relax.func @unknown_dim(
    %x: !relax.tensor<[?, 4], f32> {relax.shard = #relax.shard<split = 0>}) -> !relax.tensor<[?, 4], f32> {
  relax.return %x : !relax.tensor<[?, 4], f32>
}

// -----

// expected-error@+2 {{parameter #0: dim 6 of axis 1 does not divide by 4 ranks}}
relax.func @static_not_divisible(
    %x: !relax.tensor<[4, 6], f32> {relax.shard = #relax.shard<split = 1>}) -> !relax.tensor<[4, 6], f32> {
  relax.return %x : !relax.tensor<[4, 6], f32>
}

// -----

// expected-error@+2 {{parameter #0: cannot split dim n of axis 0 by 4: 'n' is bound by no other parameter (write the dim as a multiple, e.g. 4 * n)}}
relax.func @unbound(
    %x: !relax.tensor<[n], f32> {relax.shard = #relax.shard<split = 0>}) -> !relax.tensor<[n], f32> {
  relax.return %x : !relax.tensor<[n], f32>
}

// -----

relax.func @column_bias(%x: !relax.tensor<[s, 8], f32>,
    %w: !relax.tensor<[16, 8], f32> {relax.shard = #relax.shard<split = 0>},
    %b: !relax.tensor<[16], f32>) -> !relax.tensor<[s, 16], f32> {
  // expected-error@+1 {{'relax.linear' op is column-parallel (weight split on axis 0) but its bias is replicated: annotate the bias #relax.shard<split = 0> too}}
  %y = relax.linear %x, %w, %b : (!relax.tensor<[s, 8], f32>, !relax.tensor<[16, 8], f32>, !relax.tensor<[16], f32>) -> !relax.tensor<[s, 16], f32>
  relax.return %y : !relax.tensor<[s, 16], f32>
}

// -----

relax.func @row_input(%x: !relax.tensor<[s, 8], f32>,
    %w: !relax.tensor<[16, 8], f32> {relax.shard = #relax.shard<split = 1>}) -> !relax.tensor<[s, 16], f32> {
  // expected-error@+1 {{'relax.linear' op is row-parallel (weight split on axis 1) but its input is replicated, not on its last axis 1 (split the weight of the projection before it on axis 0)}}
  %y = relax.linear %x, %w : (!relax.tensor<[s, 8], f32>, !relax.tensor<[16, 8], f32>) -> !relax.tensor<[s, 16], f32>
  relax.return %y : !relax.tensor<[s, 16], f32>
}

// -----

relax.func @row_bias(%x: !relax.tensor<[s, 8], f32> {relax.shard = #relax.shard<split = 1>},
    %w: !relax.tensor<[16, 8], f32> {relax.shard = #relax.shard<split = 1>},
    %b: !relax.tensor<[16], f32> {relax.shard = #relax.shard<split = 0>}) -> !relax.tensor<[s, 16], f32> {
  // expected-error@+1 {{'relax.linear' op is row-parallel (weight split on axis 1) but its bias is split: the bias is added once, after the allreduce, and must be replicated}}
  %y = relax.linear %x, %w, %b : (!relax.tensor<[s, 8], f32>, !relax.tensor<[16, 8], f32>, !relax.tensor<[16], f32>) -> !relax.tensor<[s, 16], f32>
  relax.return %y : !relax.tensor<[s, 16], f32>
}

// -----

relax.func @matmul_contracted(%x: !relax.tensor<[s, 8], f32>,
    %w: !relax.tensor<[8, 16], f32> {relax.shard = #relax.shard<split = 0>}) -> !relax.tensor<[s, 16], f32> {
  // expected-error@+1 {{'relax.matmul' op has its rhs split on the contracted axis 0 but its lhs is not split on axis 1}}
  %y = relax.matmul %x, %w : (!relax.tensor<[s, 8], f32>, !relax.tensor<[8, 16], f32>) -> !relax.tensor<[s, 16], f32>
  relax.return %y : !relax.tensor<[s, 16], f32>
}

// -----

relax.func @view_split(%x: !relax.tensor<[4, 8], f32> {relax.shard = #relax.shard<split = 1>}) -> !relax.tensor<[2, 16], f32> {
  // expected-error@+1 {{'relax.view' op cannot keep the split of axis 1 of its input: the view must keep the dims from that axis on}}
  %y = relax.view %x : !relax.tensor<[4, 8], f32> to !relax.tensor<[2, 16], f32>
  relax.return %y : !relax.tensor<[2, 16], f32>
}

// -----

relax.func @unknown_op(%x: !relax.tensor<[s, 8], f32> {relax.shard = #relax.shard<split = 1>}) -> !relax.tensor<[s, 8], f32> {
  // expected-error@+1 {{'relax.softmax' op cannot be sharded: operand #0 is split on axis 1 and relax-shard has no rule for this op (keep its inputs replicated)}}
  %y = relax.softmax %x {axis = 0 : i64} : (!relax.tensor<[s, 8], f32>) -> !relax.tensor<[s, 8], f32>
  relax.return %y : !relax.tensor<[s, 8], f32>
}

// -----

relax.func @fresh_output(%x: !relax.tensor<[4, 8], f32> {relax.shard = #relax.shard<split = 1>}) -> !relax.tensor<[4, 8], f32> {
  // expected-error@+1 {{'relax.call_tir_inplace' op has split inputs and a fresh output #1: relax-shard only shards results updated in place}}
  %y:2 = relax.call_tir_inplace @copy(%x) inplace_indices([0, -1]) : (!relax.tensor<[4, 8], f32>) -> (!relax.tensor<[4, 8], f32>, !relax.tensor<[4, 8], f32>)
  relax.return %y#1 : !relax.tensor<[4, 8], f32>
}
tir.prim_func private @copy(%x: !tir.buffer<[4, h], f32>, %y: !tir.buffer<[4, h], f32>) {
  tir.return
}

// -----

relax.func @static_callee(%x: !relax.tensor<[4, 8], f32> {relax.shard = #relax.shard<split = 1>}) -> !relax.tensor<[4, 8], f32> {
  // expected-error@+1 {{'relax.call_tir_inplace' op input #0 is split on axis 1 but @fixed does not take that axis as one symbolic dim shared by the split buffers (it has 8)}}
  %y = relax.call_tir_inplace @fixed(%x) inplace_indices([0]) : (!relax.tensor<[4, 8], f32>) -> !relax.tensor<[4, 8], f32>
  relax.return %y : !relax.tensor<[4, 8], f32>
}
tir.prim_func private @fixed(%x: !tir.buffer<[4, 8], f32>) {
  tir.return
}

// -----

relax.func @replicated_input(%x: !relax.tensor<[4, 8], f32> {relax.shard = #relax.shard<split = 1>},
    %t: !relax.tensor<[8], f32>) -> !relax.tensor<[4, 8], f32> {
  // expected-error@+1 {{'relax.call_tir_inplace' op input #1 is replicated but its buffer in @scale depends on the split dim 'h'}}
  %y = relax.call_tir_inplace @scale(%x, %t) inplace_indices([0]) : (!relax.tensor<[4, 8], f32>, !relax.tensor<[8], f32>) -> !relax.tensor<[4, 8], f32>
  relax.return %y : !relax.tensor<[4, 8], f32>
}
tir.prim_func private @scale(%x: !tir.buffer<[4, h], f32>, %t: !tir.buffer<[h], f32>) {
  tir.return
}

// -----

relax.func @not_spatial(%x: !relax.tensor<[2, 8], f32> {relax.shard = #relax.shard<split = 1>}) -> !relax.tensor<[2, 8], f32> {
  // expected-error@+1 {{'relax.call_tir_inplace' op has split inputs but @reverse does not index their split axis only by a spatial loop variable of its own: its work on one block may need the others}}
  %y = relax.call_tir_inplace @reverse(%x) inplace_indices([0]) : (!relax.tensor<[2, 8], f32>) -> !relax.tensor<[2, 8], f32>
  relax.return %y : !relax.tensor<[2, 8], f32>
}
// Reverses each row in place: element i is read from h - 1 - i.
tir.prim_func private @reverse(%x: !tir.buffer<[2, h], f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = tir.sym_var "h" : index
  tir.for %r = %c0 to %c2 step %c1 {
    tir.for %i = %c0 to %h step %c1 {
      tir.block "rev" (%vr = %r, %vi = %i) kinds [spatial, spatial] {
        %a = tir.load %x[%vr, %vi] : !tir.buffer<[2, h], f32>
        %hm1 = arith.subi %h, %c1 : index
        %j = arith.subi %hm1, %vi : index
        tir.store %a, %x[%vr, %j] : !tir.buffer<[2, h], f32>
      }
    }
  }
  tir.return
}
