// RUN: relax-opt --relax-fuse-tir -split-input-file %s | FileCheck %s

// Golden tests of --relax-fuse-tir alone on groups marked by hand
// (`relax.fusion_group`), with hand-written programs whose variables are
// named unlike the caller's: the merged program is stated in the caller's
// symbolic variables, intermediates become tir.alloc buffers, producers read
// once per element are inlined into their consumer, variables that no
// parameter buffer binds arrive as tir_vars, and callees left without
// calls are erased. Errors: relax-fuse-tir-invalid.mlir. The whole fusion
// pipeline: relax-fuse-ops.mlir.

// exp then a bias add: the [n, m] intermediate is read once per element,
// so exp is inlined into the add's block and no buffer is left. The callee
// written over [a, b] is restated over the caller's [n, m].
// CHECK-NOT: tir.prim_func private @exp
// CHECK-NOT: tir.prim_func private @add_bias
// CHECK-LABEL: tir.prim_func private @fused_exp_add_bias(
// CHECK-SAME: %[[X:.*]]: !tir.buffer<[n, m], f32>, %[[B:.*]]: !tir.buffer<[m], f32>, %[[OUT:.*]]: !tir.buffer<[n, m], f32>) attributes {op_pattern = #tir.op_pattern<broadcast>} {
// CHECK-NOT: tir.alloc
// CHECK-NOT: tir.block "exp"
// Each member's variables are restated once in its prologue (the hoisted
// prologue of the inlined exp stays behind unused).
// CHECK: tir.sym_var "n" : index
// CHECK: tir.sym_var "m" : index
// CHECK: tir.sym_var "n" : index
// CHECK: tir.sym_var "m" : index
// CHECK-NOT: tir.sym_var "a"
// CHECK-NOT: tir.sym_var "b"
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT: tir.block "add_bias" (%[[VI:.*]] = %[[I]], %[[VJ:.*]] = %[[J]]) kinds [spatial, spatial] {
// CHECK-NEXT: %[[V:.*]] = tir.load %[[X]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], f32>
// CHECK-NEXT: %[[E:.*]] = math.exp %[[V]] : f32
// CHECK-NEXT: %[[W:.*]] = tir.load %[[B]][%[[VJ]]] : !tir.buffer<[m], f32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[E]], %[[W]] : f32
// CHECK-NEXT: tir.store %[[S]], %[[OUT]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], f32>
// CHECK-NOT: tir.block
// CHECK: tir.return
// The two calls become one at the last member, without the group marker.
// CHECK-LABEL: relax.func @ew_chain(
// CHECK-SAME: %[[RX:.*]]: !relax.tensor<[n, m], f32>, %[[RB:.*]]: !relax.tensor<[m], f32>)
// CHECK: %[[R:.*]] = relax.call_tir @fused_exp_add_bias(%[[RX]], %[[RB]]) : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK-NOT: relax.fusion_group
// CHECK-NEXT: relax.output %[[R]]
tir.prim_func private @exp(%x: !tir.buffer<[a, b], f32>, %y: !tir.buffer<[a, b], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tir.sym_var "a" : index
  %b = tir.sym_var "b" : index
  tir.for %i = %c0 to %a step %c1 {
    tir.for %j = %c0 to %b step %c1 {
      tir.block "exp" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[a, b], f32>
        %e = math.exp %v : f32
        tir.store %e, %y[%vi, %vj] : !tir.buffer<[a, b], f32>
      }
    }
  }
  tir.return
}
tir.prim_func private @add_bias(%x: !tir.buffer<[n, m], f32>, %c: !tir.buffer<[m], f32>, %y: !tir.buffer<[n, m], f32>) attributes {op_pattern = #tir.op_pattern<broadcast>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "add_bias" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        %w = tir.load %c[%vj] : !tir.buffer<[m], f32>
        %s = arith.addf %v, %w : f32
        tir.store %s, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}
relax.func @ew_chain(%x: !relax.tensor<[n, m], f32>, %b: !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n, m], f32> {
    %e = relax.call_tir @exp(%x) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    %a = relax.call_tir @add_bias(%e, %b) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
    relax.output %a : !relax.tensor<[n, m], f32>
  }
  relax.return %0 : !relax.tensor<[n, m], f32>
}

// -----

// tile [n] -> [k, n] then a column sum back to [n]: k is bound by neither
// the group's input nor its output, so it becomes a trailing index
// parameter (tir.var "k") and the call passes it in tir_vars. The tiled
// intermediate is inlined into the sum.
// CHECK-LABEL: tir.prim_func private @fused_tile_col_sum(
// CHECK-SAME: %[[X:.*]]: !tir.buffer<[n], f32>, %[[OUT:.*]]: !tir.buffer<[n], f32>, %{{.*}}: index {tir.var = "k"}) attributes {op_pattern = #tir.op_pattern<reduction>} {
// CHECK-NOT: tir.alloc
// The tile's variables, then the sum's r and c restated as k and n.
// CHECK: tir.sym_var "k" : index
// CHECK: tir.sym_var "n" : index
// CHECK: %[[K:.*]] = tir.sym_var "k" : index
// CHECK: %[[N:.*]] = tir.sym_var "n" : index
// CHECK-NOT: tir.sym_var
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %[[N]] step
// CHECK: tir.for %[[I:.*]] = %{{.*}} to %[[K]] step
// CHECK-NEXT: tir.block "col_sum" (%[[VJ:.*]] = %[[J]], %{{.*}} = %[[I]]) kinds [spatial, reduce] {
// CHECK: tir.init
// CHECK: %[[ACC:.*]] = tir.load %[[OUT]][%[[VJ]]] : !tir.buffer<[n], f32>
// CHECK-NEXT: %[[V:.*]] = tir.load %[[X]][%[[VJ]]] : !tir.buffer<[n], f32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT: tir.store %[[S]], %[[OUT]][%[[VJ]]]
// CHECK-NOT: tir.block "tile"
// CHECK-LABEL: relax.func @extra_var(
// CHECK-SAME: %[[RX:.*]]: !relax.tensor<[n], f32>, %{{.*}}: !relax.tensor<[k], f32>)
// CHECK: relax.call_tir @fused_tile_col_sum(%[[RX]]) tir_vars(#relax.shape<[k]>) : (!relax.tensor<[n], f32>) -> !relax.tensor<[n], f32>
// CHECK-NOT: relax.call_tir
tir.prim_func private @tile(%x: !tir.buffer<[n], f32>, %y: !tir.buffer<[k, n], f32>) attributes {op_pattern = #tir.op_pattern<broadcast>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tir.sym_var "k" : index
  %n = tir.sym_var "n" : index
  tir.for %i = %c0 to %k step %c1 {
    tir.for %j = %c0 to %n step %c1 {
      tir.block "tile" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vj] : !tir.buffer<[n], f32>
        tir.store %v, %y[%vi, %vj] : !tir.buffer<[k, n], f32>
      }
    }
  }
  tir.return
}
tir.prim_func private @col_sum(%x: !tir.buffer<[r, c], f32>, %y: !tir.buffer<[c], f32>) attributes {op_pattern = #tir.op_pattern<reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tir.sym_var "r" : index
  %c = tir.sym_var "c" : index
  tir.for %j = %c0 to %c step %c1 {
    tir.for %i = %c0 to %r step %c1 {
      tir.block "col_sum" (%vj = %j, %vi = %i) kinds [spatial, reduce] {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %y[%vj] : !tir.buffer<[c], f32>
        }
        %acc = tir.load %y[%vj] : !tir.buffer<[c], f32>
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[r, c], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %y[%vj] : !tir.buffer<[c], f32>
      }
    }
  }
  tir.return
}
relax.func @extra_var(%x: !relax.tensor<[n], f32>, %s: !relax.tensor<[k], f32>) -> !relax.tensor<[n], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n], f32> {
    %t = relax.call_tir @tile(%x) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n], f32>) -> !relax.tensor<[k, n], f32>
    %r = relax.call_tir @col_sum(%t) {relax.fusion_group = 0 : i64} : (!relax.tensor<[k, n], f32>) -> !relax.tensor<[n], f32>
    relax.output %r : !relax.tensor<[n], f32>
  }
  relax.return %0 : !relax.tensor<[n], f32>
}

// -----

// A column sum read as the bias of an add is read once per column, not
// once per element: its [m] result stays in a tir.alloc buffer between the
// two nests. The add's result is also read outside the group (exp, a
// singleton group, which only loses its marker), so it is the merged
// call's output; exp keeps its program, the others are erased.
// CHECK-LABEL: tir.prim_func private @exp(
// CHECK-SAME: !tir.buffer<[a, b], f32>
// CHECK-LABEL: tir.prim_func private @fused_col_sum_add_bias(
// CHECK-SAME: %[[X:.*]]: !tir.buffer<[n, m], f32>, %[[Y:.*]]: !tir.buffer<[n, m], f32>, %[[OUT:.*]]: !tir.buffer<[n, m], f32>) attributes {op_pattern = #tir.op_pattern<reduction>} {
// CHECK: %[[T:.*]] = tir.alloc : !tir.buffer<[m], f32>
// CHECK-NOT: tir.alloc
// CHECK: tir.block "col_sum" (%[[VJ:.*]] = %{{.*}}, %[[VI:.*]] = %{{.*}}) kinds [spatial, reduce] {
// CHECK: tir.load %[[X]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], f32>
// CHECK: tir.store %{{.*}}, %[[T]][%[[VJ]]] : !tir.buffer<[m], f32>
// CHECK: tir.block "add_bias" (%[[VI:.*]] = %{{.*}}, %[[VJ:.*]] = %{{.*}}) kinds [spatial, spatial] {
// CHECK-NEXT: tir.load %[[Y]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], f32>
// CHECK-NEXT: tir.load %[[T]][%[[VJ]]] : !tir.buffer<[m], f32>
// CHECK: tir.store %{{.*}}, %[[OUT]][%[[VI]], %[[VJ]]]
// CHECK-NOT: tir.prim_func private @col_sum(
// CHECK-NOT: tir.prim_func private @add_bias(
// CHECK-LABEL: relax.func @kept_intermediate(
// CHECK-SAME: %[[RX:.*]]: !relax.tensor<[n, m], f32>, %[[RY:.*]]: !relax.tensor<[n, m], f32>)
// CHECK: %[[A:.*]] = relax.call_tir @fused_col_sum_add_bias(%[[RX]], %[[RY]]) : (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK-NEXT: %[[E:.*]] = relax.call_tir @exp(%[[A]]) : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
// CHECK-NEXT: relax.output %[[A]], %[[E]]
tir.prim_func private @exp(%x: !tir.buffer<[a, b], f32>, %y: !tir.buffer<[a, b], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tir.sym_var "a" : index
  %b = tir.sym_var "b" : index
  tir.for %i = %c0 to %a step %c1 {
    tir.for %j = %c0 to %b step %c1 {
      tir.block "exp" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[a, b], f32>
        %e = math.exp %v : f32
        tir.store %e, %y[%vi, %vj] : !tir.buffer<[a, b], f32>
      }
    }
  }
  tir.return
}
tir.prim_func private @add_bias(%x: !tir.buffer<[n, m], f32>, %c: !tir.buffer<[m], f32>, %y: !tir.buffer<[n, m], f32>) attributes {op_pattern = #tir.op_pattern<broadcast>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "add_bias" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        %w = tir.load %c[%vj] : !tir.buffer<[m], f32>
        %s = arith.addf %v, %w : f32
        tir.store %s, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}
tir.prim_func private @col_sum(%x: !tir.buffer<[r, c], f32>, %y: !tir.buffer<[c], f32>) attributes {op_pattern = #tir.op_pattern<reduction>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = tir.sym_var "r" : index
  %c = tir.sym_var "c" : index
  tir.for %j = %c0 to %c step %c1 {
    tir.for %i = %c0 to %r step %c1 {
      tir.block "col_sum" (%vj = %j, %vi = %i) kinds [spatial, reduce] {
        tir.init {
          %zero = arith.constant 0.0 : f32
          tir.store %zero, %y[%vj] : !tir.buffer<[c], f32>
        }
        %acc = tir.load %y[%vj] : !tir.buffer<[c], f32>
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[r, c], f32>
        %s = arith.addf %acc, %v : f32
        tir.store %s, %y[%vj] : !tir.buffer<[c], f32>
      }
    }
  }
  tir.return
}
relax.func @kept_intermediate(%x: !relax.tensor<[n, m], f32>, %y: !relax.tensor<[n, m], f32>) -> (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>) {
  %0:2 = relax.dataflow -> !relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32> {
    %c = relax.call_tir @col_sum(%x) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[m], f32>
    %a = relax.call_tir @add_bias(%y, %c) {relax.fusion_group = 0 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
    %e = relax.call_tir @exp(%a) {relax.fusion_group = 1 : i64} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
    relax.output %a, %e : !relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>
  }
  relax.return %0#0, %0#1 : !relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>
}

// -----

// An elementwise producer whose result is read once per column (a bias)
// could be inlined but would then be recomputed for every row: it keeps
// its tir.alloc buffer.
// CHECK-LABEL: tir.prim_func private @fused_neg_add_bias(
// CHECK-SAME: %[[B:.*]]: !tir.buffer<[m], f32>, %[[Y:.*]]: !tir.buffer<[n, m], f32>, %[[OUT:.*]]: !tir.buffer<[n, m], f32>) attributes {op_pattern = #tir.op_pattern<broadcast>} {
// CHECK: %[[T:.*]] = tir.alloc : !tir.buffer<[m], f32>
// CHECK: tir.block "neg" (%[[VJ:.*]] = %{{.*}}) kinds [spatial] {
// CHECK-NEXT: %[[V:.*]] = tir.load %[[B]][%[[VJ]]] : !tir.buffer<[m], f32>
// CHECK-NEXT: %[[NV:.*]] = arith.negf %[[V]] : f32
// CHECK-NEXT: tir.store %[[NV]], %[[T]][%[[VJ]]] : !tir.buffer<[m], f32>
// CHECK: tir.block "add_bias" (%[[VI:.*]] = %{{.*}}, %[[VJ:.*]] = %{{.*}}) kinds [spatial, spatial] {
// CHECK-NEXT: tir.load %[[Y]][%[[VI]], %[[VJ]]] : !tir.buffer<[n, m], f32>
// CHECK-NEXT: tir.load %[[T]][%[[VJ]]] : !tir.buffer<[m], f32>
// CHECK-NOT: arith.negf
// CHECK: tir.return
// CHECK-LABEL: relax.func @bias_producer(
// CHECK: relax.call_tir @fused_neg_add_bias(%{{.*}}, %{{.*}}) : (!relax.tensor<[m], f32>, !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
tir.prim_func private @neg(%x: !tir.buffer<[len], f32>, %y: !tir.buffer<[len], f32>) attributes {op_pattern = #tir.op_pattern<elementwise>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %len = tir.sym_var "len" : index
  tir.for %i = %c0 to %len step %c1 {
    tir.block "neg" (%vi = %i) kinds [spatial] {
      %v = tir.load %x[%vi] : !tir.buffer<[len], f32>
      %r = arith.negf %v : f32
      tir.store %r, %y[%vi] : !tir.buffer<[len], f32>
    }
  }
  tir.return
}
tir.prim_func private @add_bias(%x: !tir.buffer<[n, m], f32>, %c: !tir.buffer<[m], f32>, %y: !tir.buffer<[n, m], f32>) attributes {op_pattern = #tir.op_pattern<broadcast>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tir.sym_var "n" : index
  %m = tir.sym_var "m" : index
  tir.for %i = %c0 to %n step %c1 {
    tir.for %j = %c0 to %m step %c1 {
      tir.block "add_bias" (%vi = %i, %vj = %j) kinds [spatial, spatial] {
        %v = tir.load %x[%vi, %vj] : !tir.buffer<[n, m], f32>
        %w = tir.load %c[%vj] : !tir.buffer<[m], f32>
        %s = arith.addf %v, %w : f32
        tir.store %s, %y[%vi, %vj] : !tir.buffer<[n, m], f32>
      }
    }
  }
  tir.return
}
relax.func @bias_producer(%b: !relax.tensor<[m], f32>, %y: !relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32> {
  %0 = relax.dataflow -> !relax.tensor<[n, m], f32> {
    %nb = relax.call_tir @neg(%b) {relax.fusion_group = 3 : i64} : (!relax.tensor<[m], f32>) -> !relax.tensor<[m], f32>
    %a = relax.call_tir @add_bias(%y, %nb) {relax.fusion_group = 3 : i64} : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
    relax.output %a : !relax.tensor<[n, m], f32>
  }
  relax.return %0 : !relax.tensor<[n, m], f32>
}
