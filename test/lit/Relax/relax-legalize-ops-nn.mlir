// RUN: relax-opt --relax-legalize-ops %s | FileCheck %s

// The NN legalizations keep every shape symbolic: attention (causal,
// grouped heads, s = skv symbolic) is a chain of blocks over scratch score
// buffers, conv2d one spatial x reduce block with a guarded padded load,
// avg_pool2d a sum block and a divide block, global_avg_pool2d a reduction.

// CHECK-LABEL: relax.func @main
// CHECK: relax.call_tir @attention(
// CHECK: relax.call_tir @conv2d_nchw(
// CHECK: relax.call_tir @avg_pool2d(
// CHECK: relax.call_tir @global_avg_pool2d(

// CHECK-LABEL: tir.prim_func private @attention(
// CHECK-SAME: !tir.buffer<[1, s, 4, 8], f32>, %{{.*}}: !tir.buffer<[1, s, 2, 8], f32>
// CHECK-SAME: op_pattern = #tir.op_pattern<opaque>
// CHECK-DAG: %[[S:.*]] = tir.sym_var "s" : index
// CHECK-DAG: %[[SCORES:.*]] = tir.alloc : !tir.buffer<[1, 4, s, s], f32>
// CHECK-DAG: %[[MAX:.*]] = tir.alloc : !tir.buffer<[1, 4, s], f32>
// CHECK: tir.for %[[H:.*]] = %{{.*}} to %c4 step %{{.*}} kind = parallel
// CHECK: tir.block "attention_qk" ({{.*}}) kinds [spatial, spatial, spatial, spatial, reduce]
// CHECK-NEXT: tir.init
// CHECK: arith.divui
// CHECK: tir.block "attention_score" ({{.*}}) kinds [spatial, spatial, spatial, spatial]
// CHECK: arith.cmpi sle
// CHECK: arith.select
// CHECK: tir.block "attention_max" ({{.*}}) kinds [spatial, spatial, spatial, reduce]
// CHECK: arith.maximumf
// CHECK: tir.block "attention_exp"
// CHECK: math.exp
// CHECK: tir.block "attention_sum" ({{.*}}) kinds [spatial, spatial, spatial, reduce]
// CHECK: tir.block "attention_out" ({{.*}}) kinds [spatial, spatial, spatial, spatial, reduce]
// CHECK: tir.return

// CHECK-LABEL: tir.prim_func private @conv2d_nchw(
// CHECK-SAME: !tir.buffer<[n, 4, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
// CHECK-SAME: op_pattern = #tir.op_pattern<out_ewise_fusable>
// CHECK: %[[N:.*]] = tir.sym_var "n"
// CHECK: tir.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} kind = parallel
// CHECK: tir.block "conv2d_nchw" ({{.*}}) kinds [spatial, spatial, spatial, spatial, reduce, reduce, reduce]
// CHECK-NEXT: tir.init
// CHECK: scf.if
// CHECK: tir.load %arg0
// CHECK: arith.mulf
// CHECK: arith.addf

// CHECK-LABEL: tir.prim_func private @avg_pool2d(
// CHECK-SAME: op_pattern = #tir.op_pattern<out_ewise_fusable>
// CHECK: tir.block "avg_pool2d_sum" ({{.*}}) kinds [spatial, spatial, spatial, spatial, reduce, reduce]
// CHECK: tir.block "avg_pool2d_div" ({{.*}}) kinds [spatial, spatial, spatial, spatial]
// CHECK: arith.divf

// CHECK-LABEL: tir.prim_func private @global_avg_pool2d(
// CHECK-SAME: op_pattern = #tir.op_pattern<reduction>
// CHECK: tir.block "global_avg_pool2d_sum" ({{.*}}) kinds [spatial, spatial, spatial, spatial, reduce, reduce]
// CHECK: tir.block "global_avg_pool2d_div"

relax.func @main(%q: !relax.tensor<[1, s, 4, 8], f32>, %k: !relax.tensor<[1, s, 2, 8], f32>,
                 %v: !relax.tensor<[1, s, 2, 8], f32>, %x: !relax.tensor<[n, 3, h, w], f32>,
                 %w1: !relax.tensor<[4, 3, 3, 3], f32>)
    -> (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[n, 4, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>,
        !relax.tensor<[n, 3, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, 3, 1, 1], f32>) {
  %y0 = relax.attention %q, %k, %v {causal = true} : (!relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>, !relax.tensor<[1, s, 2, 8], f32>) -> !relax.tensor<[1, s, 4, 8], f32>
  %y1 = relax.conv2d %x, %w1 {padding = array<i64: 1>, strides = array<i64: 2>} : (!relax.tensor<[n, 3, h, w], f32>, !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 4, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %y2 = relax.avg_pool2d %x {pool_size = array<i64: 3>, strides = array<i64: 2>, padding = array<i64: 1>} : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>
  %y3 = relax.global_avg_pool2d %x : (!relax.tensor<[n, 3, h, w], f32>) -> !relax.tensor<[n, 3, 1, 1], f32>
  relax.return %y0, %y1, %y2, %y3 : !relax.tensor<[1, s, 4, 8], f32>, !relax.tensor<[n, 4, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, 3, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>, !relax.tensor<[n, 3, 1, 1], f32>
}
