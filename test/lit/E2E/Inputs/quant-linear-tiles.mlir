// Products with relax.dequantize_tiles'd weights (quant-linear-tiles.test).
// The tile counts nb, kb and the rows s are symbolic; x's k is 128 * kb.
relax.func @main(%x: !relax.tensor<[1, s, 128 * kb], f32>,
                 %t8: !relax.tensor<[nb, kb, 1088], ui8>,
                 %t4: !relax.tensor<[nb, kb, 576], ui8>,
                 %bias: !relax.tensor<[8 * nb], f32>)
    -> (!relax.tensor<[1, s, 8 * nb], f32>, !relax.tensor<[s, 8 * nb], f32>,
        !relax.tensor<[1, s, 8 * nb], f32>, !relax.tensor<[1, s, 8 * nb], f32>) {
  // Q8_0 in tiles, x [1, s, k] (the batched variant).
  %w8 = relax.dequantize_tiles %t8 {bits = 8} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  %y0 = relax.linear %x, %w8 : (!relax.tensor<[1, s, 128 * kb], f32>, !relax.tensor<[8 * nb, 128 * kb], f32>) -> !relax.tensor<[1, s, 8 * nb], f32>
  // Q4_0 in tiles, x as [s, k] (the rank-2 variant).
  %x2 = relax.reshape %x {shape = #relax.shape<[s, 128 * kb]>} : (!relax.tensor<[1, s, 128 * kb], f32>) -> !relax.tensor<[s, 128 * kb], f32>
  %w4 = relax.dequantize_tiles %t4 {bits = 4} : (!relax.tensor<[nb, kb, 576], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  %y1 = relax.linear %x2, %w4 : (!relax.tensor<[s, 128 * kb], f32>, !relax.tensor<[8 * nb, 128 * kb], f32>) -> !relax.tensor<[s, 8 * nb], f32>
  // Q4_0 with a bias (each product decodes its own weight, so that every
  // decode fuses into its product).
  %w4b = relax.dequantize_tiles %t4 {bits = 4} : (!relax.tensor<[nb, kb, 576], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  %y2 = relax.linear %x, %w4b, %bias : (!relax.tensor<[1, s, 128 * kb], f32>, !relax.tensor<[8 * nb, 128 * kb], f32>, !relax.tensor<[8 * nb], f32>) -> !relax.tensor<[1, s, 8 * nb], f32>
  // Q8_0 as matmul(x, W^T).
  %w8m = relax.dequantize_tiles %t8 {bits = 8} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  %wt = relax.permute_dims %w8m {axes = array<i64: 1, 0>} : (!relax.tensor<[8 * nb, 128 * kb], f32>) -> !relax.tensor<[128 * kb, 8 * nb], f32>
  %y3 = relax.matmul %x, %wt : (!relax.tensor<[1, s, 128 * kb], f32>, !relax.tensor<[128 * kb, 8 * nb], f32>) -> !relax.tensor<[1, s, 8 * nb], f32>
  relax.return %y0, %y1, %y2, %y3 : !relax.tensor<[1, s, 8 * nb], f32>, !relax.tensor<[s, 8 * nb], f32>, !relax.tensor<[1, s, 8 * nb], f32>, !relax.tensor<[1, s, 8 * nb], f32>
}

// The decoded weights alone (bit-exact against the reference).
relax.func @decode(%t8: !relax.tensor<[nb, kb, 1088], ui8>,
                   %t4: !relax.tensor<[nb, kb, 576], ui8>)
    -> (!relax.tensor<[8 * nb, 128 * kb], f32>, !relax.tensor<[8 * nb, 128 * kb], f32>) {
  %w8 = relax.dequantize_tiles %t8 {bits = 8} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  %w4 = relax.dequantize_tiles %t4 {bits = 4} : (!relax.tensor<[nb, kb, 576], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
  relax.return %w8, %w4 : !relax.tensor<[8 * nb, 128 * kb], f32>, !relax.tensor<[8 * nb, 128 * kb], f32>
}
