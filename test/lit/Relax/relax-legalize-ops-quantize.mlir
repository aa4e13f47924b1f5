// relax.dequantize legalized: one spatial block per weight element that
// loads the byte (4 bits: column l / 2, shifted by 4 * (l mod 2), masked),
// subtracts the zero (8, or the group's from zeros) and multiplies by the
// group's scale (f16 widened); an injective program marked tir.decode. Its
// undecidable layout relations are asserted first. Fusion puts the decode
// into the product and inlines it: no f32 weight buffer remains.
// RUN: relax-opt %s --relax-legalize-ops | FileCheck %s
// RUN: relax-opt %s --relax-legalize-ops --relax-annotate-op-pattern --relax-group-ops --relax-fuse-tir | FileCheck %s --check-prefix=FUSED

// CHECK-LABEL: relax.func @q4
// CHECK: relax.assert_dims #relax.expr<g * 32> "eq" #relax.expr<h * 2>, "relax.dequantize", "scales dim 1 * group_size"
// CHECK: %[[W:.*]] = relax.call_tir @dequantize(%arg0, %arg1, %arg2) : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f16>, !relax.tensor<[n, g], ui8>) -> !relax.tensor<[n, h * 2], f32>
// CHECK: relax.call_tir @T_linear(%arg3, %[[W]])
relax.func @q4(%q: !relax.tensor<[n, h], ui8>, %s: !relax.tensor<[n, g], f16>, %z: !relax.tensor<[n, g], ui8>, %x: !relax.tensor<[m, 2 * h], f32>) -> !relax.tensor<[m, n], f32> {
  %w = relax.dequantize %q, %s, %z {bits = 4, group_size = 32} : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f16>, !relax.tensor<[n, g], ui8>) -> !relax.tensor<[n, 2 * h], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[m, 2 * h], f32>, !relax.tensor<[n, 2 * h], f32>) -> !relax.tensor<[m, n], f32>
  relax.return %y : !relax.tensor<[m, n], f32>
}

// 8 bits, per channel: the scale's column is 0; no check (g = 1 is proven).
// CHECK-LABEL: relax.func @q8_channel
// CHECK-NOT: relax.assert_dims
// CHECK: relax.call_tir @dequantize_1(%arg0, %arg1)
relax.func @q8_channel(%q: !relax.tensor<[n, k], i8>, %s: !relax.tensor<[n, 1], f32>, %x: !relax.tensor<[m, k], f32>) -> !relax.tensor<[m, n], f32> {
  %w = relax.dequantize %q, %s {bits = 8} : (!relax.tensor<[n, k], i8>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, k], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[m, k], f32>, !relax.tensor<[n, k], f32>) -> !relax.tensor<[m, n], f32>
  relax.return %y : !relax.tensor<[m, n], f32>
}

// CHECK-LABEL: tir.prim_func private @dequantize(
// CHECK-SAME: %[[Q:[^:]*]]: !tir.buffer<[n, h], ui8>, %[[S:[^:]*]]: !tir.buffer<[n, g], f16>, %[[Z:[^:]*]]: !tir.buffer<[n, g], ui8>, %[[OUT:[^:]*]]: !tir.buffer<[n, h * 2], f32>)
// CHECK-SAME: op_pattern = #tir.op_pattern<injective>
// CHECK-SAME: tir.decode
// CHECK: tir.block "dequantize"
// CHECK: %[[COL:.*]] = arith.divui %[[L:.*]], %c2
// CHECK: %[[BYTE:.*]] = tir.load %[[Q]][%{{.*}}, %[[COL]]]
// CHECK: arith.extui
// CHECK: arith.remui %[[L]], %c2
// CHECK: arith.shrui
// CHECK: arith.andi
// CHECK: tir.load %[[Z]]
// CHECK: arith.subi
// CHECK: %[[SC:.*]] = tir.load %[[S]]
// CHECK: arith.extf %[[SC]] : f16 to f32
// CHECK: arith.sitofp
// CHECK: arith.mulf
// CHECK: tir.store %{{.*}}, %[[OUT]]

// CHECK-LABEL: tir.prim_func private @dequantize_1(
// CHECK-SAME: !tir.buffer<[n, k], i8>, %{{.*}}: !tir.buffer<[n, 1], f32>
// CHECK: tir.block "dequantize"
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: tir.load %{{.*}}[%{{.*}}, %{{.*}}] : !tir.buffer<[n, k], i8>
// CHECK: arith.extsi
// CHECK: tir.load %{{.*}}[%{{.*}}, %[[ZERO]]] : !tir.buffer<[n, 1], f32>

// One kernel per product reading the packed weight: the decode is inlined
// into the product's reduction block, no buffer for the f32 weight, no
// dequantize program left.
// FUSED-LABEL: relax.func @q4
// FUSED: relax.call_tir @fused_dequantize_linear(%arg0, %arg1, %arg2, %arg3)
// FUSED-LABEL: relax.func @q8_channel
// FUSED: relax.call_tir @fused_dequantize_1_linear_1(%arg0, %arg1, %arg2)
// FUSED-NOT: tir.prim_func private @dequantize
// FUSED-LABEL: tir.prim_func private @fused_dequantize_linear(
// FUSED-SAME: %[[Q:[^:]*]]: !tir.buffer<[n, h], ui8>, %[[S:[^:]*]]: !tir.buffer<[n, g], f16>, %[[Z:[^:]*]]: !tir.buffer<[n, g], ui8>, %[[X:[^:]*]]: !tir.buffer<[m, h * 2], f32>, %[[Y:[^:]*]]: !tir.buffer<[m, n], f32>)
// FUSED-NOT: tir.alloc
// FUSED: tir.block "T_linear" (%[[I:[^ ]*]] = %{{.*}}, %[[J:[^ ]*]] = %{{.*}}, %[[L:[^ ]*]] = %{{.*}}) kinds [spatial, spatial, reduce]
// FUSED: %[[XV:.*]] = tir.load %[[X]][%[[I]], %[[L]]]
// FUSED: tir.load %[[Q]][%[[J]], %{{.*}}]
// FUSED: arith.shrui
// FUSED: tir.load %[[Z]][%[[J]], %{{.*}}]
// FUSED: tir.load %[[S]][%[[J]], %{{.*}}]
// FUSED: %[[W:.*]] = arith.mulf
// FUSED: arith.mulf %[[XV]], %[[W]]
// FUSED: arith.addf
// FUSED-NOT: tir.alloc
// FUSED-LABEL: tir.prim_func private @fused_dequantize_1_linear_1(
// FUSED-NOT: tir.alloc
// FUSED: tir.return
