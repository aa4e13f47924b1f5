// relax.dequantize_tiles legalized: one spatial block per element [j, l] of
// W [8 * nb, 128 * kb] that reads tile (j / 8, l / 128): the f16 scale of
// slot s = ((l mod 128) / 32) * 8 + j mod 8 from bytes 2s and 2s + 1 (low
// byte first, put together as i16 and bitcast), the element from byte
// 64 + s * 32 + l mod 32 (8 bits, sign-extended) or 64 + s * 16 +
// (l mod 32) / 2 (4 bits: the nibble of l's parity, minus 8). An injective
// program marked tir.decode, so fusion inlines it into the product.
// The values are checked against numpy in E2E/quant-linear-tiles.test.
// RUN: relax-opt %s --relax-legalize-ops | FileCheck %s
// RUN: relax-opt %s --relax-legalize-ops --relax-annotate-op-pattern --relax-group-ops --relax-fuse-tir | FileCheck %s --check-prefix=FUSED

// CHECK-LABEL: relax.func @q4
// CHECK: %[[W:.*]] = relax.call_tir @dequantize_tiles(%arg0) : (!relax.tensor<[nb, kb, 576], ui8>) -> !relax.tensor<[nb * 8, kb * 128], f32>
// CHECK: relax.call_tir @T_linear(%arg1, %[[W]])
// CHECK-LABEL: relax.func @q8
// CHECK: relax.call_tir @dequantize_tiles_1(%arg0) : (!relax.tensor<[2, kb, 1088], ui8>) -> !relax.tensor<[16, kb * 128], f32>
// CHECK-LABEL: tir.prim_func private @dequantize_tiles(
// CHECK-SAME: %[[T:[^:]*]]: !tir.buffer<[nb, kb, 576], ui8>, %[[OUT:[^:]*]]: !tir.buffer<[nb * 8, kb * 128], f32>)
// CHECK-SAME: op_pattern = #tir.op_pattern<injective>
// CHECK-SAME: tir.decode
// CHECK: tir.block "dequantize_tiles" (%[[J:[^ ]*]] = %{{.*}}, %[[L:[^ ]*]] = %{{.*}}) kinds [spatial, spatial]
// CHECK: %[[BJ:.*]] = arith.divui %[[J]], %c8
// CHECK: %[[BK:.*]] = arith.divui %[[L]], %c128
// CHECK: %[[IN:.*]] = arith.remui %[[L]], %c128
// CHECK: %[[R:.*]] = arith.remui %[[J]], %c8
// CHECK: %[[G:.*]] = arith.divui %[[IN]], %c32
// CHECK: %[[G8:.*]] = arith.muli %[[G]], %c8
// CHECK: %[[SLOT:.*]] = arith.addi %[[G8]], %[[R]]
// CHECK: %[[E:.*]] = arith.remui %[[IN]], %c32
// CHECK: %[[SB:.*]] = arith.muli %[[SLOT]], %c2
// CHECK: %[[LO:.*]] = tir.load %[[T]][%[[BJ]], %[[BK]], %[[SB]]]
// CHECK: %[[SB1:.*]] = arith.addi %[[SB]], %c1
// CHECK: tir.load %[[T]][%[[BJ]], %[[BK]], %[[SB1]]]
// CHECK: %[[HI:.*]] = arith.shli %{{.*}}, %c8_i16 : i16
// CHECK: %[[H:.*]] = arith.ori %{{.*}}, %[[HI]] : i16
// CHECK: %[[F16:.*]] = arith.bitcast %[[H]] : i16 to f16
// CHECK: %[[SCALE:.*]] = arith.extf %[[F16]] : f16 to f32
// CHECK: %[[C16:.*]] = arith.muli %[[SLOT]], %c16
// CHECK: %[[CHUNK:.*]] = arith.addi %[[C16]], %c64
// CHECK: %[[HALF:.*]] = arith.divui %[[E]], %c2
// CHECK: %[[BYTE:.*]] = arith.addi %[[CHUNK]], %[[HALF]]
// CHECK: tir.load %[[T]][%[[BJ]], %[[BK]], %[[BYTE]]]
// CHECK: arith.remui %[[E]], %c2
// CHECK: arith.shrui
// CHECK: arith.andi
// CHECK: %[[V:.*]] = arith.subi %{{.*}}, %c8_i32
// CHECK: %[[VF:.*]] = arith.sitofp %[[V]] : i32 to f32
// CHECK: %[[W:.*]] = arith.mulf %[[VF]], %[[SCALE]]
// CHECK: tir.store %[[W]], %[[OUT]][%[[J]], %[[L]]]
relax.func @q4(%t: !relax.tensor<[nb, kb, 576], ui8>, %x: !relax.tensor<[m, 128 * kb], f32>) -> !relax.tensor<[m, 8 * nb], f32> {
  %w = relax.dequantize_tiles %t {bits = 4} : (!relax.tensor<[nb, kb, 576], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[m, 128 * kb], f32>, !relax.tensor<[8 * nb, 128 * kb], f32>) -> !relax.tensor<[m, 8 * nb], f32>
  relax.return %y : !relax.tensor<[m, 8 * nb], f32>
}

// 8 bits: 32 bytes a slot, the byte sign-extended, no zero.
// CHECK-LABEL: tir.prim_func private @dequantize_tiles_1(
// CHECK-SAME: tir.decode
// CHECK: arith.bitcast %{{.*}} : i16 to f16
// CHECK: %[[C32:.*]] = arith.muli %{{.*}}, %c32
// CHECK: %[[CHUNK:.*]] = arith.addi %[[C32]], %c64
// CHECK: %[[BYTE:.*]] = arith.addi %[[CHUNK]], %{{.*}}
// CHECK: %[[Q:.*]] = tir.load %{{.*}}[%{{.*}}, %{{.*}}, %[[BYTE]]] : !tir.buffer<[2, kb, 1088], ui8>
// CHECK: %[[Q8:.*]] = builtin.unrealized_conversion_cast %[[Q]] : ui8 to i8
// CHECK: %[[V:.*]] = arith.extsi %[[Q8]] : i8 to i32
// CHECK-NOT: arith.subi
// CHECK: arith.sitofp %[[V]] : i32 to f32
relax.func @q8(%t: !relax.tensor<[2, kb, 1088], ui8>, %x: !relax.tensor<[1, s, 128 * kb], f32>) -> !relax.tensor<[1, s, 16], f32> {
  %w = relax.dequantize_tiles %t {bits = 8} : (!relax.tensor<[2, kb, 1088], ui8>) -> !relax.tensor<[16, 128 * kb], f32>
  %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : (!relax.tensor<[16, 128 * kb], f32>) -> !relax.tensor<[128 * kb, 16], f32>
  %y = relax.matmul %x, %wt : (!relax.tensor<[1, s, 128 * kb], f32>, !relax.tensor<[128 * kb, 16], f32>) -> !relax.tensor<[1, s, 16], f32>
  relax.return %y : !relax.tensor<[1, s, 16], f32>
}

// One kernel per product: the tile decode inlined into the reduction, no
// f32 weight buffer, no decode program left.
// FUSED-LABEL: relax.func @q4
// FUSED: relax.call_tir @fused_dequantize_tiles_linear(%arg0, %arg1)
// FUSED-LABEL: relax.func @q8
// FUSED: relax.call_tir @fused_dequantize_tiles_1_permute_dims_matmul(%arg0, %arg1)
// FUSED-NOT: tir.prim_func private @dequantize_tiles
// FUSED-LABEL: tir.prim_func private @fused_dequantize_tiles_linear(
// FUSED-SAME: %[[T:[^:]*]]: !tir.buffer<[nb, kb, 576], ui8>, %[[X:[^:]*]]: !tir.buffer<[m, kb * 128], f32>, %[[Y:[^:]*]]: !tir.buffer<[m, nb * 8], f32>)
// FUSED-NOT: tir.alloc
// FUSED: tir.block "T_linear"
// FUSED: tir.load %[[T]]
// FUSED: arith.bitcast
// FUSED: %[[W:.*]] = arith.mulf
// FUSED: arith.mulf %{{.*}}, %[[W]]
// FUSED: arith.addf
// FUSED-NOT: tir.alloc
// FUSED-LABEL: tir.prim_func private @fused_dequantize_tiles_1_permute_dims_matmul(
// FUSED-NOT: tir.alloc
// FUSED: tir.return
