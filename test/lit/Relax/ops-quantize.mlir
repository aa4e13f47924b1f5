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
