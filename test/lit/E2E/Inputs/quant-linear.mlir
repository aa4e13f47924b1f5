// Products with relax.dequantize'd weights (quant-linear.test). Every dim
// is symbolic: the layout relations (k = 2 * h, g * 32 = k, the rows) are
// checked at run time.
relax.func @main(%x: !relax.tensor<[1, s, k], f32>,
                 %q8: !relax.tensor<[n, k], i8>, %s8: !relax.tensor<[n, g], f16>,
                 %q4: !relax.tensor<[n, h], ui8>, %s4: !relax.tensor<[n, g], f32>,
                 %q4z: !relax.tensor<[n, h], ui8>, %s4z: !relax.tensor<[n, e], f16>,
                 %z4z: !relax.tensor<[n, e], ui8>,
                 %qc: !relax.tensor<[n, k], i8>, %sc: !relax.tensor<[n, 1], f32>,
                 %bias: !relax.tensor<[n], f32>)
    -> (!relax.tensor<[1, s, n], f32>, !relax.tensor<[s, n], f32>,
        !relax.tensor<[1, s, n], f32>, !relax.tensor<[1, s, n], f32>) {
  // Q8_0: int8, group 32, f16 scales; x [1, s, k] (the batched variant).
  %w8 = relax.dequantize %q8, %s8 {bits = 8, group_size = 32} : (!relax.tensor<[n, k], i8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<[n, k], f32>
  %y0 = relax.linear %x, %w8 : (!relax.tensor<[1, s, k], f32>, !relax.tensor<[n, k], f32>) -> !relax.tensor<[1, s, n], f32>
  // Q4_0 with f32 scales, x as [s, k] (the rank-2 variant).
  %x2 = relax.reshape %x {shape = #relax.shape<[s, k]>} : (!relax.tensor<[1, s, k], f32>) -> !relax.tensor<[s, k], f32>
  %w4 = relax.dequantize %q4, %s4 {bits = 4, group_size = 32} : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f32>) -> !relax.tensor<[n, 2 * h], f32>
  %y1 = relax.linear %x2, %w4 : (!relax.tensor<[s, k], f32>, !relax.tensor<[n, 2 * h], f32>) -> !relax.tensor<[s, n], f32>
  // 4 bits with zero points, group 16, f16 scales, and a bias.
  %w4z = relax.dequantize %q4z, %s4z, %z4z {bits = 4, group_size = 16} : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, e], f16>, !relax.tensor<[n, e], ui8>) -> !relax.tensor<[n, 2 * h], f32>
  %y2 = relax.linear %x, %w4z, %bias : (!relax.tensor<[1, s, k], f32>, !relax.tensor<[n, 2 * h], f32>, !relax.tensor<[n], f32>) -> !relax.tensor<[1, s, n], f32>
  // Per channel, as matmul(x, W^T).
  %wc = relax.dequantize %qc, %sc {bits = 8} : (!relax.tensor<[n, k], i8>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, k], f32>
  %wt = relax.permute_dims %wc {axes = array<i64: 1, 0>} : (!relax.tensor<[n, k], f32>) -> !relax.tensor<[k, n], f32>
  %y3 = relax.matmul %x, %wt : (!relax.tensor<[1, s, k], f32>, !relax.tensor<[k, n], f32>) -> !relax.tensor<[1, s, n], f32>
  relax.return %y0, %y1, %y2, %y3 : !relax.tensor<[1, s, n], f32>, !relax.tensor<[s, n], f32>, !relax.tensor<[1, s, n], f32>, !relax.tensor<[1, s, n], f32>
}

// The decoded weights alone (bit-exact against the reference).
relax.func @decode(%q8: !relax.tensor<[n, k], i8>, %s8: !relax.tensor<[n, g], f16>,
                   %q4: !relax.tensor<[n, h], ui8>, %s4: !relax.tensor<[n, g], f32>,
                   %q4z: !relax.tensor<[n, h], ui8>, %s4z: !relax.tensor<[n, e], f16>,
                   %z4z: !relax.tensor<[n, e], ui8>,
                   %qc: !relax.tensor<[n, k], i8>, %sc: !relax.tensor<[n, 1], f32>)
    -> (!relax.tensor<[n, k], f32>, !relax.tensor<[n, 2 * h], f32>,
        !relax.tensor<[n, 2 * h], f32>, !relax.tensor<[n, k], f32>) {
  %w8 = relax.dequantize %q8, %s8 {bits = 8, group_size = 32} : (!relax.tensor<[n, k], i8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<[n, k], f32>
  %w4 = relax.dequantize %q4, %s4 {bits = 4, group_size = 32} : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f32>) -> !relax.tensor<[n, 2 * h], f32>
  %w4z = relax.dequantize %q4z, %s4z, %z4z {bits = 4, group_size = 16} : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, e], f16>, !relax.tensor<[n, e], ui8>) -> !relax.tensor<[n, 2 * h], f32>
  %wc = relax.dequantize %qc, %sc {bits = 8} : (!relax.tensor<[n, k], i8>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, k], f32>
  relax.return %w8, %w4, %w4z, %wc : !relax.tensor<[n, k], f32>, !relax.tensor<[n, 2 * h], f32>, !relax.tensor<[n, 2 * h], f32>, !relax.tensor<[n, k], f32>
}
