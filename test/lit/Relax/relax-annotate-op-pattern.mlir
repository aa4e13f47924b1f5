// RUN: relax-opt --relax-legalize-ops --relax-annotate-op-pattern %s | FileCheck %s

// The kind of each generated program is re-derived from its blocks and index
// maps (symbolic extents throughout), not taken from the op name.
// CHECK-DAG: tir.prim_func private @T_exp({{.*}}) attributes {op_pattern = #tir.op_pattern<elementwise>}
// CHECK-DAG: tir.prim_func private @T_add({{.*}}) attributes {op_pattern = #tir.op_pattern<broadcast>}
// CHECK-DAG: tir.prim_func private @T_permute_dims({{.*}}) attributes {op_pattern = #tir.op_pattern<injective>}
// CHECK-DAG: tir.prim_func private @T_sum({{.*}}) attributes {op_pattern = #tir.op_pattern<reduction>}
// CHECK-DAG: tir.prim_func private @T_matmul({{.*}}) attributes {op_pattern = #tir.op_pattern<out_ewise_fusable>}
// Softmax is a sequence of reductions (max, sum) and one reduction program;
// concat writes at shifted indices (injective although every read is at
// its own iteration variables); attention holds two contractions and a
// softmax, with no single anchor.
// CHECK-DAG: tir.prim_func private @T_softmax({{.*}}) attributes {op_pattern = #tir.op_pattern<reduction>}
// CHECK-DAG: tir.prim_func private @T_concat({{.*}}) attributes {op_pattern = #tir.op_pattern<injective>}
// CHECK-DAG: tir.prim_func private @attention({{.*}}) attributes {op_pattern = #tir.op_pattern<opaque>}
relax.func @main(%x: !relax.tensor<[n, m], f32>, %b: !relax.tensor<[m], f32>,
                 %w: !relax.tensor<[m, k], f32>, %y: !relax.tensor<[k, m], f32>,
                 %q: !relax.tensor<[1, n, 2, 8], f32>)
    -> (!relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>,
        !relax.tensor<[m, n], f32>, !relax.tensor<[n], f32>,
        !relax.tensor<[n, k], f32>, !relax.tensor<[n, m], f32>,
        !relax.tensor<[k + n, m], f32>, !relax.tensor<[1, n, 2, 8], f32>) {
  %e = relax.exp %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %a = relax.add %x, %b : (!relax.tensor<[n, m], f32>, !relax.tensor<[m], f32>) -> !relax.tensor<[n, m], f32>
  %t = relax.permute_dims %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[m, n], f32>
  %s = relax.sum %x {axes = array<i64: 1>} : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n], f32>
  %mm = relax.matmul %x, %w : (!relax.tensor<[n, m], f32>, !relax.tensor<[m, k], f32>) -> !relax.tensor<[n, k], f32>
  %sm = relax.softmax %x : (!relax.tensor<[n, m], f32>) -> !relax.tensor<[n, m], f32>
  %c = relax.concat %x, %y : (!relax.tensor<[n, m], f32>, !relax.tensor<[k, m], f32>) -> !relax.tensor<[k + n, m], f32>
  %at = relax.attention %q, %q, %q : (!relax.tensor<[1, n, 2, 8], f32>, !relax.tensor<[1, n, 2, 8], f32>, !relax.tensor<[1, n, 2, 8], f32>) -> !relax.tensor<[1, n, 2, 8], f32>
  relax.return %e, %a, %t, %s, %mm, %sm, %c, %at : !relax.tensor<[n, m], f32>, !relax.tensor<[n, m], f32>, !relax.tensor<[m, n], f32>, !relax.tensor<[n], f32>, !relax.tensor<[n, k], f32>, !relax.tensor<[n, m], f32>, !relax.tensor<[k + n, m], f32>, !relax.tensor<[1, n, 2, 8], f32>
}

// A hand-written program without blocks is opaque.
// CHECK-DAG: tir.prim_func @no_blocks({{.*}}) attributes {op_pattern = #tir.op_pattern<opaque>}
tir.prim_func @no_blocks(%x: !tir.buffer<[n], f32>) {
  tir.return
}
