// RUN: relax-opt %s --relax-dispatch-library | FileCheck %s
// RUN: relax-opt %s --relax-dispatch-library=target=cuda | FileCheck %s --check-prefix=CUDA
// RUN: relax-opt %s --relax-dispatch-library=quant-activations=int8 | FileCheck %s --check-prefix=A8
// RUN: relax-opt %s --relax-fuse-ops="dispatch-library=cpu quant-activations=int8" | FileCheck %s --check-prefix=A8
// RUN: ! relax-opt %s --relax-dispatch-library=quant-activations=int4 2> %t.bad
// RUN: FileCheck %s --check-prefix=BADOPT < %t.bad

// quant-activations=int8: every quantized product calls the `_a8`
// built-ins.
// A8-DAG: extern.func private @relax_quant_linear_batch_q8_f16_a8(
// A8-DAG: extern.func private @relax_quant_linear_q4_f32_a8(!relax.tensor<[m, k], f32>, !relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f32>, !relax.tensor<[m, n], f32>) attributes {link_name = "relax_quant_linear_q4_f32_a8", num_outputs = 1 : i64}
// A8-DAG: extern.func private @relax_quant_linear_batch_q4z_f16_a8(
// A8-NOT: extern.func private @relax_quant_linear_q4_f32(
// A8-NOT: extern.func private @relax_quant_linear_batch_q8_f16(
// BADOPT: Cannot find option named 'int4'!

// linear(x, dequantize(...)) and matmul(x, permute_dims(dequantize(...)))
// become one call of the quantized-linear built-in over the stored bytes;
// the dequantize (and the transpose) disappear. Symbolic signatures: Q's
// and the scales' dims are their own variables (the runtime relates them).
// CHECK-DAG: extern.func private @relax_quant_linear_batch_q8_f16(!relax.tensor<[b, m, k], f32>, !relax.tensor<[n, k], i8>, !relax.tensor<[n, g], f16>, !relax.tensor<[b, m, n], f32>) attributes {link_name = "relax_quant_linear_batch_q8_f16", num_outputs = 1 : i64}
// CHECK-DAG: extern.func private @relax_quant_linear_q4_f32(!relax.tensor<[m, k], f32>, !relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f32>, !relax.tensor<[m, n], f32>)
// CHECK-DAG: extern.func private @relax_quant_linear_batch_q4z_f16(!relax.tensor<[b, m, k], f32>, !relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f16>, !relax.tensor<[n, g], ui8>, !relax.tensor<[b, m, n], f32>)

// CHECK-LABEL: relax.func @q8
// CHECK-NEXT: relax.assert_dims #relax.expr<g * 32> "eq" #relax.expr<k>, "relax.dequantize", "scales dim 1 * group_size"
// CHECK-NEXT: %[[Y:.*]] = relax.call_dps_packed @relax_quant_linear_batch_q8_f16(%arg0, %arg1, %arg2) : (!relax.tensor<[1, s, k], f32>, !relax.tensor<[n, k], i8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<[1, s, n], f32>
// CHECK-NEXT: relax.return %[[Y]]
relax.func @q8(%x: !relax.tensor<[1, s, k], f32>, %q: !relax.tensor<[n, k], i8>, %sc: !relax.tensor<[n, g], f16>) -> !relax.tensor<[1, s, n], f32> {
  %w = relax.dequantize %q, %sc {bits = 8, group_size = 32} : (!relax.tensor<[n, k], i8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<[n, k], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[1, s, k], f32>, !relax.tensor<[n, k], f32>) -> !relax.tensor<[1, s, n], f32>
  relax.return %y : !relax.tensor<[1, s, n], f32>
}

// Static dims: the group relation is proven (no check); the contraction of
// x's 64 against the weight's 2 * 32 too.
// CHECK-LABEL: relax.func @q4_matmul
// CHECK-NOT: relax.assert_dims
// CHECK-NOT: relax.permute_dims
// CHECK: %[[Y:.*]] = relax.call_dps_packed @relax_quant_linear_q4_f32(%arg0, %arg1, %arg2) : (!relax.tensor<[s, 64], f32>, !relax.tensor<[n, 32], ui8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[s, n], f32>
// CHECK-NEXT: relax.return %[[Y]]
relax.func @q4_matmul(%x: !relax.tensor<[s, 64], f32>, %q: !relax.tensor<[n, 32], ui8>, %sc: !relax.tensor<[n, 2], f32>) -> !relax.tensor<[s, n], f32> {
  %w = relax.dequantize %q, %sc {bits = 4, group_size = 32} : (!relax.tensor<[n, 32], ui8>, !relax.tensor<[n, 2], f32>) -> !relax.tensor<[n, 64], f32>
  %t = relax.permute_dims %w {axes = array<i64: 1, 0>} : (!relax.tensor<[n, 64], f32>) -> !relax.tensor<[64, n], f32>
  %y = relax.matmul %x, %t : (!relax.tensor<[s, 64], f32>, !relax.tensor<[64, n], f32>) -> !relax.tensor<[s, n], f32>
  relax.return %y : !relax.tensor<[s, n], f32>
}

// Zero points and a bias (added after the call); x's k against 2 * h is
// checked at run time.
// CHECK-LABEL: relax.func @q4z_bias
// CHECK: relax.assert_dims #relax.expr<g * 16> "eq" #relax.expr<h * 2>, "relax.dequantize", "scales dim 1 * group_size"
// CHECK: relax.assert_dims #relax.expr<k> "eq" #relax.expr<h * 2>, "relax.linear", "contraction dim"
// CHECK: %[[P:.*]] = relax.call_dps_packed @relax_quant_linear_batch_q4z_f16(%arg0, %arg1, %arg2, %arg3)
// CHECK: %[[Y:.*]] = relax.add %[[P]], %arg4
// CHECK: relax.return %[[Y]]
relax.func @q4z_bias(%x: !relax.tensor<[1, s, k], f32>, %q: !relax.tensor<[n, h], ui8>, %sc: !relax.tensor<[n, g], f16>, %z: !relax.tensor<[n, g], ui8>, %b: !relax.tensor<[n], f32>) -> !relax.tensor<[1, s, n], f32> {
  %w = relax.dequantize %q, %sc, %z {bits = 4, group_size = 16} : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f16>, !relax.tensor<[n, g], ui8>) -> !relax.tensor<[n, 2 * h], f32>
  %y = relax.linear %x, %w, %b : (!relax.tensor<[1, s, k], f32>, !relax.tensor<[n, 2 * h], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[1, s, n], f32>
  relax.return %y : !relax.tensor<[1, s, n], f32>
}

// A dequantized weight with another user keeps its dequantize for it.
// CHECK-LABEL: relax.func @shared
// CHECK: %[[W:.*]] = relax.dequantize
// CHECK: %[[Y:.*]] = relax.call_dps_packed @relax_quant_linear_batch_q8_f16
// CHECK: relax.return %[[Y]], %[[W]]
relax.func @shared(%x: !relax.tensor<[1, s, 64], f32>, %q: !relax.tensor<[n, 64], i8>, %sc: !relax.tensor<[n, 2], f16>) -> (!relax.tensor<[1, s, n], f32>, !relax.tensor<[n, 64], f32>) {
  %w = relax.dequantize %q, %sc {bits = 8, group_size = 32} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n, 2], f16>) -> !relax.tensor<[n, 64], f32>
  %y = relax.linear %x, %w : (!relax.tensor<[1, s, 64], f32>, !relax.tensor<[n, 64], f32>) -> !relax.tensor<[1, s, n], f32>
  relax.return %y, %w : !relax.tensor<[1, s, n], f32>, !relax.tensor<[n, 64], f32>
}

// No quantized built-in on the GPU: the ops stay for legalization.
// CUDA-NOT: relax_quant_linear
// CUDA: relax.dequantize
