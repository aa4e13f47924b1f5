// RUN: relax-opt --relax-legalize-ops %s | FileCheck %s
// RUN: relax-opt --relax-legalize-ops %s | FileCheck %s --check-prefix=TR

// The NN legalizations keep every shape symbolic: attention (causal,
// grouped heads, s = skv symbolic) streams over the keys with per-row
// scratch, conv2d one spatial x reduce block with a guarded padded load,
// avg_pool2d a sum block and a divide block, global_avg_pool2d a reduction.

// CHECK-LABEL: relax.func @main
// CHECK: relax.call_tir @attention(
// CHECK: relax.call_tir @conv2d_nchw(
// CHECK: relax.call_tir @avg_pool2d(
// CHECK: relax.call_tir @global_avg_pool2d(

// Attention streams over the keys: one parallel loop over every (batch,
// head, row), O(dv) local scratch per row, no score buffer.
// CHECK-LABEL: tir.prim_func private @attention(
// CHECK-SAME: !tir.buffer<[1, s, 4, 8], f32>, %{{.*}}: !tir.buffer<[1, s, 2, 8], f32>
// CHECK-SAME: op_pattern = #tir.op_pattern<opaque>
// CHECK-NOT: tir.alloc
// CHECK: %[[NEGINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NOT: tir.alloc
// CHECK: tir.for %[[ROW:.*]] = %{{.*}} to %{{.*}} step %{{.*}} kind = parallel {
// CHECK: %[[ACC:.*]] = tir.alloc : !tir.buffer<[8], f32, local>
// CHECK-NEXT: %[[STAT:.*]] = tir.alloc : !tir.buffer<[3], f32, local>
// CHECK-NEXT: %[[SEEN:.*]] = tir.alloc : !tir.buffer<[1], i1, local>
// CHECK-NOT: tir.alloc
// Causal: the key loop ends at max(0, i + skv + 1 - s).
// CHECK: %[[POS:.*]] = arith.cmpi ugt
// CHECK: %[[END:.*]] = arith.select %[[POS]]
// CHECK: tir.for %[[J:.*]] = %{{.*}} to %[[END]] step
// CHECK: arith.mulf
// CHECK: %[[X:.*]] = arith.mulf
// CHECK: %[[FIN:.*]] = arith.cmpf une, %[[X]], %[[NEGINF]]
// CHECK: scf.if %[[FIN]] {
// CHECK: %[[GROWS:.*]] = arith.cmpf ogt, %[[X]]
// CHECK: scf.if %[[GROWS]] {
// CHECK: math.exp
// CHECK: tir.store %[[X]], %[[STAT]]
// CHECK: math.exp
// CHECK: tir.store {{.*}}, %[[ACC]]
// No visible key: the uniform average over all s keys.
// CHECK: %[[ANY:.*]] = tir.load %[[SEEN]]
// CHECK: %[[NONE:.*]] = arith.xori %[[ANY]]
// CHECK: scf.if %[[NONE]] {
// CHECK: arith.sitofp
// CHECK: %[[SUM:.*]] = tir.load %[[STAT]]
// CHECK: arith.divf %{{.*}}, %[[SUM]]
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

// conv2d_transpose gathers: input row (y + pad - ky) / stride where that
// divides exactly and lies inside the input (a guarded load), the input
// channel from the output channel's group, weight [ic, o mod (o / groups),
// ky, kx]. resize2d is one spatial block: align_corners scales by
// (in - 1) / (out - 1) (0 for an output dim of 1), bilinear weights from
// floor(); nearest with `scales` divides by the given scale and rounds
// half down (ceil(x - 0.5)); indices clamped to the input.
// TR-LABEL: relax.func @transpose_resize
// TR: relax.call_tir @conv2d_transpose_nchw(
// TR: relax.call_tir @resize2d(
// TR: relax.call_tir @resize2d_1(
// TR-LABEL: tir.prim_func private @conv2d_transpose_nchw(
// TR-SAME: %[[X:.*]]: !tir.buffer<[n, 4, h, w], f32>, %[[W:.*]]: !tir.buffer<[4, 3, 3, 3], f32>, %{{.*}}: !tir.buffer<[n, 6, h * 2, w * 2], f32>)
// TR-SAME: op_pattern = #tir.op_pattern<out_ewise_fusable>
// TR: tir.block "conv2d_transpose_nchw" (%[[N:.*]] = %{{.*}}, %[[O:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %[[C:.*]] = %{{.*}}, %[[KY:.*]] = %{{.*}}, %[[KX:.*]] = %{{.*}}) kinds [spatial, spatial, spatial, spatial, reduce, reduce, reduce]
// TR-NEXT: tir.init
// TR: %[[G:.*]] = arith.divui %[[O]], %c3
// TR: %[[GC:.*]] = arith.muli %[[G]]
// TR: %[[IC:.*]] = arith.addi %[[GC]], %[[C]]
// TR: %[[OC:.*]] = arith.remui %[[O]], %c3
// TR: %[[T:.*]] = arith.addi %[[Y]], %c1
// TR: %[[TY:.*]] = arith.subi %[[T]], %[[KY]]
// TR: %[[REM:.*]] = arith.remsi %[[TY]], %c2
// TR: %[[DIV:.*]] = arith.cmpi eq, %[[REM]]
// TR: %[[IY:.*]] = arith.divsi %[[TY]], %c2
// TR: arith.andi %{{.*}}, %[[DIV]]
// TR: scf.if
// TR-NEXT: tir.load %[[X]][%[[N]], %[[IC]], %[[IY]], %{{.*}}]
// TR: tir.load %[[W]][%[[IC]], %[[OC]], %[[KY]], %[[KX]]]
// TR: arith.mulf
// TR: arith.addf
// TR-LABEL: tir.prim_func private @resize2d(
// TR-SAME: op_pattern = #tir.op_pattern<injective>
// TR: tir.block "resize2d" ({{.*}}) kinds [spatial, spatial, spatial, spatial]
// TR: arith.cmpi sgt
// TR: arith.divf
// TR: arith.select
// TR: math.floor
// TR: arith.fptosi
// TR: arith.minsi
// TR: arith.maxsi
// TR-COUNT-4: tir.load
// TR-NOT: tir.load
// TR: tir.store
// TR-LABEL: tir.prim_func private @resize2d_1(
// TR: tir.block "resize2d"
// TR: arith.constant 2.000000e+00 : f32
// TR: arith.divf
// TR: math.ceil
// TR: tir.load
// TR-NOT: tir.load
// TR: tir.store
relax.func @transpose_resize(%x: !relax.tensor<[n, 4, h, w], f32>, %k: !relax.tensor<[4, 3, 3, 3], f32>)
    -> (!relax.tensor<[n, 6, h * 2, w * 2], f32>, !relax.tensor<[n, 4, h * 2, w floordiv 2], f32>, !relax.tensor<[n, 4, h * 2, w * 2], f32>) {
  %y0 = relax.conv2d_transpose %x, %k {groups = 2 : i64, output_padding = array<i64: 1>, padding = array<i64: 1>, strides = array<i64: 2>} : (!relax.tensor<[n, 4, h, w], f32>, !relax.tensor<[4, 3, 3, 3], f32>) -> !relax.tensor<[n, 6, h * 2, w * 2], f32>
  %y1 = relax.resize2d %x {method = "linear", coordinate_transformation_mode = "align_corners", size = #relax.shape<[h * 2, w floordiv 2]>} : (!relax.tensor<[n, 4, h, w], f32>) -> !relax.tensor<[n, 4, h * 2, w floordiv 2], f32>
  %y2 = relax.resize2d %x {scales = array<f64: 2.0, 2.0>, size = #relax.shape<[h * 2, w * 2]>} : (!relax.tensor<[n, 4, h, w], f32>) -> !relax.tensor<[n, 4, h * 2, w * 2], f32>
  relax.return %y0, %y1, %y2 : !relax.tensor<[n, 6, h * 2, w * 2], f32>, !relax.tensor<[n, 4, h * 2, w floordiv 2], f32>, !relax.tensor<[n, 4, h * 2, w * 2], f32>
}
