// RUN: relax-opt --relax-fuse-ops --relax-verify-well-formed -split-input-file %s | FileCheck %s

// Golden tests of --relax-fuse-ops, one per fusion rule, all with symbolic
// dims. Numerical checks of the same programs: test/lit/E2E/fusion.mlir.

// A contraction takes its elementwise epilogue: matmul + bias + gelu run as
// one program. The matmul result lives in one buffer; the bias add (read
// once per element) is inlined into gelu and leaves no buffer behind.
// CHECK-LABEL: relax.func @mm_bias_gelu
// CHECK: relax.call_tir @fused_matmul_add_gelu(%arg0, %arg1, %arg2) : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16, 32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32>
// CHECK-NOT: relax.call_tir
// CHECK: tir.prim_func private @fused_matmul_add_gelu(%{{.*}}: !tir.buffer<[n, 16], f32>, %{{.*}}: !tir.buffer<[16, 32], f32>, %[[B:.*]]: !tir.buffer<[32], f32>, %[[OUT:.*]]: !tir.buffer<[n, 32], f32>) attributes {op_pattern = #tir.op_pattern<out_ewise_fusable>}
// CHECK: %[[MM:.*]] = tir.alloc : !tir.buffer<[n, 32], f32>
// CHECK-NOT: tir.alloc
// CHECK: tir.block "T_matmul"
// CHECK: tir.store %{{.*}}, %[[MM]]
// CHECK-NOT: tir.block "T_add"
// CHECK: tir.block "T_gelu"
// CHECK-NEXT: tir.load %[[MM]]
// CHECK-NEXT: tir.load %[[B]]
// CHECK: tir.store %{{.*}}, %[[OUT]]
// CHECK-NOT: tir.prim_func private @T_
relax.func @mm_bias_gelu(%x: !relax.tensor<[n, 16], f32>, %w: !relax.tensor<[16, 32], f32>,
                         %b: !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n, 32], f32> {
    %mm = relax.matmul %x, %w : (!relax.tensor<[n, 16], f32>, !relax.tensor<[16, 32], f32>) -> !relax.tensor<[n, 32], f32>
    %a = relax.add %mm, %b : (!relax.tensor<[n, 32], f32>, !relax.tensor<[32], f32>) -> !relax.tensor<[n, 32], f32>
    %g = relax.gelu %a : (!relax.tensor<[n, 32], f32>) -> !relax.tensor<[n, 32], f32>
    relax.output %g : !relax.tensor<[n, 32], f32>
  }
  relax.return %0 : !relax.tensor<[n, 32], f32>
}

// -----

// Softmax (a sequence of reductions) takes its elementwise producers; both
// are inlined into each of the three softmax nests, so no [n, m] buffer is
// left, only the two [n] row statistics.
// CHECK-LABEL: relax.func @softmax_producers
// CHECK: relax.call_tir @fused_multiply_tanh_softmax(%arg0, %arg1)
// CHECK-NOT: relax.call_tir
// CHECK: tir.prim_func private @fused_multiply_tanh_softmax({{.*}}) attributes {op_pattern = #tir.op_pattern<reduction>}
// CHECK-COUNT-2: tir.alloc : !tir.buffer<[n], f32>
// CHECK-NOT: tir.alloc
// CHECK: tir.block "softmax_maxelem"
// CHECK: math.tanh
// CHECK: tir.block "softmax_expsum"
// CHECK: math.tanh
// CHECK: tir.block "softmax_norm"
// CHECK: math.tanh
relax.func @softmax_producers(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n, m], f32> {
    %s = relax.multiply %x, %y : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    %t = relax.tanh %s : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    %p = relax.softmax %t : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    relax.output %p : !relax.tensor<[n, m], f32>
  }
  relax.return %0 : !relax.tensor<[n, m], f32>
}

// -----

// An injective chain (reshape, transpose) and its elementwise consumer.
// CHECK-LABEL: relax.func @layout_chain
// CHECK: relax.call_tir @fused_reshape_permute_dims_exp(%arg0) : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[m, n * 4], f32>
// CHECK-NOT: relax.call_tir
// CHECK: tir.prim_func private @fused_reshape_permute_dims_exp(%{{.*}}: !tir.buffer<[n, 4, m], f32>, %{{.*}}: !tir.buffer<[m, n * 4], f32>) attributes {op_pattern = #tir.op_pattern<injective>}
relax.func @layout_chain(%x: !relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[m, n * 4], f32> {
  %0 = relax.dataflow -> !relax.tensor<[m, n * 4], f32> {
    %r = relax.reshape %x {shape = #relax.shape<[n * 4, m]>} : (!relax.tensor<[n, 4, m], f32>) -> !relax.tensor<[n * 4, m], f32>
    %t = relax.permute_dims %r : (!relax.tensor<[n * 4, m], f32>) -> !relax.tensor<[m, n * 4], f32>
    %e = relax.exp %t : (!relax.tensor<[m, n * 4], f32>) -> !relax.tensor<[m, n * 4], f32>
    relax.output %e : !relax.tensor<[m, n * 4], f32>
  }
  relax.return %0 : !relax.tensor<[m, n * 4], f32>
}

// -----

// A broadcast fuses into the reduction that consumes it and is inlined into
// the reduce block.
// CHECK-LABEL: relax.func @bcast_reduce
// CHECK: relax.call_tir @fused_add_sum(%arg0, %arg1)
// CHECK: tir.prim_func private @fused_add_sum({{.*}}) attributes {op_pattern = #tir.op_pattern<reduction>}
// CHECK-NOT: tir.alloc
// CHECK: tir.block "sum" ({{.*}}) kinds [spatial, reduce]
// CHECK: tir.load %arg0[%{{.*}}, %[[K:.*]]] : !tir.buffer<[n, m], f32>
// CHECK-NEXT: tir.load %arg1[%[[K]]] : !tir.buffer<[m], f32>
// CHECK-NEXT: arith.addf
// CHECK-NEXT: arith.addf
relax.func @bcast_reduce(%x: !relax.tensor<[n, m], f32>, %b: !relax.tensor<[m], f32>) -> !relax.tensor<[n], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n], f32> {
    %a = relax.add %x, %b : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
    %s = relax.sum %a {axes = array<i64: 1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], f32>
    relax.output %s : !relax.tensor<[n], f32>
  }
  relax.return %0 : !relax.tensor<[n], f32>
}

// -----

// Attention is opaque: neither its producer nor its consumer joins it, and
// with nothing else to fuse, three calls remain.
// CHECK-LABEL: relax.func @opaque
// CHECK: relax.call_tir @T_exp
// CHECK-NEXT: relax.call_tir @attention
// CHECK-NEXT: relax.call_tir @T_relu
// CHECK-NOT: fused
relax.func @opaque(%q: !relax.tensor<[1, n, 2, 8], f32>) -> !relax.tensor<[1, n, 2, 8], f32> {
  %0 = relax.dataflow -> !relax.tensor<[1, n, 2, 8], f32> {
    %e = relax.exp %q : (!relax.tensor<[1, n, 2, 8], f32>) -> !relax.tensor<[1, n, 2, 8], f32>
    %at = relax.attention %e, %e, %e : (!relax.tensor<[1, n, 2, 8], f32>, !relax.tensor<[1, n, 2, 8], f32>, !relax.tensor<[1, n, 2, 8], f32>) -> !relax.tensor<[1, n, 2, 8], f32>
    %r = relax.relu %at : (!relax.tensor<[1, n, 2, 8], f32>) -> !relax.tensor<[1, n, 2, 8], f32>
    relax.output %r : !relax.tensor<[1, n, 2, 8], f32>
  }
  relax.return %0 : !relax.tensor<[1, n, 2, 8], f32>
}

// -----

// A group member whose value also leaves the region becomes a second output
// of the merged program instead of stopping the fusion.
// CHECK-LABEL: relax.func @multi_out
// CHECK: %[[R:.*]]:2 = relax.call_tir @fused_add_exp(%arg0, %arg1) : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>)
// CHECK-NEXT: relax.output %[[R]]#0, %[[R]]#1
// CHECK: tir.prim_func private @fused_add_exp(%{{.*}}: !tir.buffer<[n], f32>, %{{.*}}: !tir.buffer<[n], f32>, %[[A:.*]]: !tir.buffer<[n], f32>, %[[E:.*]]: !tir.buffer<[n], f32>)
// CHECK: tir.store %{{.*}}, %[[A]]
// CHECK: tir.load %[[A]]
// CHECK: tir.store %{{.*}}, %[[E]]
relax.func @multi_out(%x: !relax.tensor<[n], f32>, %y: !relax.tensor<[n], f32>) -> (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) {
  %0:2 = relax.dataflow -> !relax.tensor<[n], f32>, !relax.tensor<[n], f32> {
    %a = relax.add %x, %y : (!relax.tensor<[n], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    %e = relax.exp %a : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
    relax.output %a, %e : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
  }
  relax.return %0#0, %0#1 : !relax.tensor<[n], f32>, !relax.tensor<[n], f32>
}

// -----

// No parameter of the merged program has `n` as a dim of its own (both are
// [n * 4]), but the intermediate [n, 4] buffer and the loops need it: it is
// passed as an index parameter. The call sits after the match_cast that
// binds n (the verifier rejects a use before the binding).
// CHECK-LABEL: relax.func @extra_var
// CHECK: %[[C:.*]] = relax.match_cast
// CHECK-NEXT: relax.call_tir @fused_reshape_exp_reshape_1(%[[C]]) tir_vars(#relax.shape<[n]>) : (!relax.tensor<[n * 4], f32>) -> !relax.tensor<[n * 4], f32>
// CHECK: tir.prim_func private @fused_reshape_exp_reshape_1(%{{.*}}: !tir.buffer<[n * 4], f32>, %{{.*}}: !tir.buffer<[n * 4], f32>, %{{.*}}: index {tir.var = "n"})
// CHECK: tir.alloc : !tir.buffer<[n, 4], f32>
relax.func @extra_var(%x: !relax.tensor<[k], f32>, %y: !relax.tensor<[n], f32>) -> !relax.tensor<[n * 4], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n * 4], f32> {
    %c = relax.match_cast %x : !relax.tensor<[k], f32> to !relax.tensor<[n * 4], f32>
    %r = relax.reshape %c {shape = #relax.shape<[n, 4]>} : (!relax.tensor<[n * 4], f32>) -> !relax.tensor<[n, 4], f32>
    %e = relax.exp %r : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n, 4], f32>
    %f = relax.reshape %e {shape = #relax.shape<[n * 4]>} : (!relax.tensor<[n, 4], f32>) -> !relax.tensor<[n * 4], f32>
    relax.output %f : !relax.tensor<[n * 4], f32>
  }
  relax.return %0 : !relax.tensor<[n * 4], f32>
}
