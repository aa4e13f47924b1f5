// RUN: relax-opt %s | FileCheck %s
// RUN: relax-opt %s --mlir-print-op-generic | relax-opt | FileCheck %s

// relax.dequantize: 8 bits (i8 [n, k]), 4 bits packed (ui8 [n, h] -> [n, 2 * h]),
// zero points, f16 scales, per-channel. Undecidable group relations
// (g * 32 vs k) are accepted here and checked at run time
// (relax-legalize-ops-quantize.mlir).

// CHECK-LABEL: relax.func @dequantize
// CHECK: relax.dequantize %{{.*}}, %{{.*}} {bits = 8 : i64, group_size = 32 : i64} : (!relax.tensor<[n, k], i8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<[n, k], f32>
// CHECK: relax.dequantize %{{.*}}, %{{.*}}, %{{.*}} {bits = 4 : i64, group_size = 128 : i64} : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f32>, !relax.tensor<[n, g], ui8>) -> !relax.tensor<[n, h * 2], f32>
// CHECK: relax.dequantize %{{.*}}, %{{.*}} {bits = 8 : i64} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, 64], f32>
// CHECK: relax.dequantize %{{.*}}, %{{.*}} {bits = 4 : i64, group_size = 32 : i64} : (!relax.tensor<[n, g * 16], ui8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<[n, g * 32], f32>
// CHECK: relax.dequantize %{{.*}}, %{{.*}} {bits = 4 : i64, group_size = 32 : i64} : (!relax.tensor<*, ui8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<*, f32>
relax.func @dequantize(%q8: !relax.tensor<[n, k], i8>, %s16: !relax.tensor<[n, g], f16>, %q4: !relax.tensor<[n, h], ui8>, %s32: !relax.tensor<[n, g], f32>, %z: !relax.tensor<[n, g], ui8>, %qc: !relax.tensor<[n, 64], i8>, %sc: !relax.tensor<[n, 1], f32>, %qg: !relax.tensor<[n, 16 * g], ui8>, %qu: !relax.tensor<*, ui8>) {
  %0 = relax.dequantize %q8, %s16 {bits = 8, group_size = 32} : (!relax.tensor<[n, k], i8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<[n, k], f32>
  %1 = relax.dequantize %q4, %s32, %z {bits = 4, group_size = 128} : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f32>, !relax.tensor<[n, g], ui8>) -> !relax.tensor<[n, 2 * h], f32>
  %2 = relax.dequantize %qc, %sc {bits = 8} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, 64], f32>
  %3 = relax.dequantize %qg, %s16 {bits = 4, group_size = 32} : (!relax.tensor<[n, 16 * g], ui8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<[n, 32 * g], f32>
  %4 = relax.dequantize %qu, %s16 {bits = 4, group_size = 32} : (!relax.tensor<*, ui8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<*, f32>
  relax.return
}

// relax.dequantize_tiles: ui8 [nb, kb, tile bytes] -> f32 [8 * nb, 128 * kb],
// symbolic and static tile counts, 8 and 4 bits, unranked.
// CHECK-LABEL: relax.func @dequantize_tiles
// CHECK: relax.dequantize_tiles %{{.*}} {bits = 8 : i64} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[nb * 8, kb * 128], f32>
// CHECK: relax.dequantize_tiles %{{.*}} {bits = 4 : i64} : (!relax.tensor<[64, 4, 576], ui8>) -> !relax.tensor<[512, 512], f32>
// CHECK: relax.dequantize_tiles %{{.*}} {bits = 4 : i64} : (!relax.tensor<[n + 1, ?, 576], ui8>) -> !relax.tensor<[n * 8 + 8, ?], f32>
// CHECK: relax.dequantize_tiles %{{.*}} {bits = 8 : i64} : (!relax.tensor<*, ui8>) -> !relax.tensor<*, f32>
relax.func @dequantize_tiles(%t8: !relax.tensor<[nb, kb, 1088], ui8>, %nn: !relax.tensor<[n], f32>, %t4: !relax.tensor<[64, 4, 576], ui8>, %tn: !relax.tensor<[n + 1, ?, 576], ui8>, %tu: !relax.tensor<*, ui8>) {
  %0 = relax.dequantize_tiles %t8 {bits = 8} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  %1 = relax.dequantize_tiles %t4 {bits = 4} : (!relax.tensor<[64, 4, 576], ui8>) -> !relax.tensor<[512, 512], f32>
  %2 = relax.dequantize_tiles %tn {bits = 4} : (!relax.tensor<[n + 1, ?, 576], ui8>) -> !relax.tensor<[8 * n + 8, ?], f32>
  %3 = relax.dequantize_tiles %tu {bits = 8} : (!relax.tensor<*, ui8>) -> !relax.tensor<*, f32>
  relax.return
}
