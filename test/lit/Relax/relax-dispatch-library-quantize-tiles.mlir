// RUN: relax-opt %s --relax-dispatch-library | FileCheck %s
// RUN: relax-opt %s --relax-dispatch-library=quant-activations=int8 | FileCheck %s --check-prefix=A8
// RUN: relax-opt %s --relax-fuse-ops="dispatch-library=cpu quant-activations=int8" | FileCheck %s --check-prefix=A8
// RUN: relax-opt %s --relax-dispatch-library=target=cuda | FileCheck %s --check-prefix=CUDA

// Products of relax.dequantize_tiles'd weights become one call of the
// tiled built-ins (relax_quant_linear[_batch]_<q8t|q4t>_f32) on the tiles
// as stored; the decode (and the transpose) disappear. The signatures
// name the tile counts nb, kb (the runtime checks n = 8 nb, k = 128 kb)
// and the tile size as a constant.
// CHECK-DAG: extern.func private @relax_quant_linear_batch_q8t_f32(!relax.tensor<[b, m, k], f32>, !relax.tensor<[nb, kb, 1088], ui8>, !relax.tensor<[b, m, n], f32>) attributes {link_name = "relax_quant_linear_batch_q8t_f32", num_outputs = 1 : i64}
// CHECK-DAG: extern.func private @relax_quant_linear_q4t_f32(!relax.tensor<[m, k], f32>, !relax.tensor<[nb, kb, 576], ui8>, !relax.tensor<[m, n], f32>) attributes {link_name = "relax_quant_linear_q4t_f32", num_outputs = 1 : i64}
// CHECK-DAG: extern.func private @relax_quant_linear_batch_q4t_f32(

// quant-activations=int8: the `_a8` variants.
// A8-DAG: extern.func private @relax_quant_linear_batch_q8t_f32_a8(!relax.tensor<[b, m, k], f32>, !relax.tensor<[nb, kb, 1088], ui8>, !relax.tensor<[b, m, n], f32>) attributes {link_name = "relax_quant_linear_batch_q8t_f32_a8", num_outputs = 1 : i64}
// A8-DAG: extern.func private @relax_quant_linear_q4t_f32_a8(
// A8-DAG: extern.func private @relax_quant_linear_batch_q4t_f32_a8(
// A8-NOT: extern.func private @relax_quant_linear_batch_q8t_f32(
// A8-NOT: extern.func private @relax_quant_linear_q4t_f32(

// No quantized library on the GPU: the decode stays.
// CUDA-NOT: relax_quant_linear
// CUDA: relax.dequantize_tiles
// CUDA-NOT: relax_quant_linear

// Symbolic tile counts: x [1, s, 128 * kb] by W [8 * nb, 128 * kb].
// CHECK-LABEL: relax.func @q8
// CHECK-NOT: relax.assert_dims
// CHECK: %[[Y:.*]] = relax.call_dps_packed @relax_quant_linear_batch_q8t_f32(%arg0, %arg1) : (!relax.tensor<[1, s, kb * 128], f32>, !relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[1, s, nb * 8], f32>
// CHECK-NEXT: relax.return %[[Y]]
// A8-LABEL: relax.func @q8
// A8: relax.call_dps_packed @relax_quant_linear_batch_q8t_f32_a8(%arg0, %arg1)
relax.func @q8(%x: !relax.tensor<[1, s, 128 * kb], f32>, %t: !relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[1, s, 8 * nb], f32> {
  %w = relax.dequantize_tiles %t {bits = 8} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[1, s, 128 * kb], f32>, !relax.tensor<[8 * nb, 128 * kb], f32>) -> !relax.tensor<[1, s, 8 * nb], f32>
  relax.return %y : !relax.tensor<[1, s, 8 * nb], f32>
}

// matmul(x, permute_dims(W)) with x [s, k]: the rank-2 variant; x's k
// against the weight's 128 * kb is asserted (it is not provable).
// CHECK-LABEL: relax.func @q4_matmul
// CHECK: relax.assert_dims #relax.expr<k> "eq" #relax.expr<kb * 128>, "relax.matmul", "contraction dim"
// CHECK-NOT: relax.permute_dims
// CHECK: %[[Y:.*]] = relax.call_dps_packed @relax_quant_linear_q4t_f32(%arg0, %arg1) : (!relax.tensor<[s, k], f32>, !relax.tensor<[nb, kb, 576], ui8>) -> !relax.tensor<[s, nb * 8], f32>
// CHECK-NEXT: relax.return %[[Y]]
relax.func @q4_matmul(%x: !relax.tensor<[s, k], f32>, %t: !relax.tensor<[nb, kb, 576], ui8>) -> !relax.tensor<[s, 8 * nb], f32> {
  %w = relax.dequantize_tiles %t {bits = 4} : (!relax.tensor<[nb, kb, 576], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  %wt = relax.permute_dims %w {axes = array<i64: 1, 0>} : (!relax.tensor<[8 * nb, 128 * kb], f32>) -> !relax.tensor<[128 * kb, 8 * nb], f32>
  %y = relax.matmul %x, %wt : (!relax.tensor<[s, k], f32>, !relax.tensor<[128 * kb, 8 * nb], f32>) -> !relax.tensor<[s, 8 * nb], f32>
  relax.return %y : !relax.tensor<[s, 8 * nb], f32>
}

// A bias: added after the call. Static tile counts (W [64, 256]).
// CHECK-LABEL: relax.func @q4_bias
// CHECK: %[[P:.*]] = relax.call_dps_packed @relax_quant_linear_batch_q4t_f32(%arg0, %arg1) : (!relax.tensor<[1, s, 256], f32>, !relax.tensor<[8, 2, 576], ui8>) -> !relax.tensor<[1, s, 64], f32>
// CHECK: %[[Y:.*]] = relax.add %[[P]], %arg2
// CHECK: relax.return %[[Y]]
relax.func @q4_bias(%x: !relax.tensor<[1, s, 256], f32>, %t: !relax.tensor<[8, 2, 576], ui8>, %b: !relax.tensor<[64], f32>) -> !relax.tensor<[1, s, 64], f32> {
  %w = relax.dequantize_tiles %t {bits = 4} : (!relax.tensor<[8, 2, 576], ui8>) -> !relax.tensor<[64, 256], f32>
  %y = relax.linear %x, %w, %b : (!relax.tensor<[1, s, 256], f32>, !relax.tensor<[64, 256], f32>, !relax.tensor<[64], f32>) -> !relax.tensor<[1, s, 64], f32>
  relax.return %y : !relax.tensor<[1, s, 64], f32>
}

// A decoded weight read by something else too stays for that reader.
// CHECK-LABEL: relax.func @shared
// CHECK: %[[W:.*]] = relax.dequantize_tiles %arg1 {bits = 8 : i64}
// CHECK: %[[Y:.*]] = relax.call_dps_packed @relax_quant_linear_q8t_f32(%arg0, %arg1)
// CHECK: relax.return %[[Y]], %[[W]]
relax.func @shared(%x: !relax.tensor<[s, 128], f32>, %t: !relax.tensor<[nb, 1, 1088], ui8>) -> (!relax.tensor<[s, 8 * nb], f32>, !relax.tensor<[8 * nb, 128], f32>) {
  %w = relax.dequantize_tiles %t {bits = 8} : (!relax.tensor<[nb, 1, 1088], ui8>) -> !relax.tensor<[8 * nb, 128], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[s, 128], f32>, !relax.tensor<[8 * nb, 128], f32>) -> !relax.tensor<[s, 8 * nb], f32>
  relax.return %y, %w : !relax.tensor<[s, 8 * nb], f32>, !relax.tensor<[8 * nb, 128], f32>
}
