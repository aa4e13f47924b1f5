//===- RelaxQuantizeOps.td - weight-only quantization ------*- tablegen -*-===//
//
// Weights stored as small integers with a scale per group of elements
// (docs/quantization.md). The graph states the decode as an op of its own so
// that fusion can put it inside the consuming product and library dispatch
// can hand the packed bytes to a kernel that streams them.
//
//===----------------------------------------------------------------------===//
#ifndef RELAX_QUANTIZE_OPS_TD
#define RELAX_QUANTIZE_OPS_TD

def Relax_DequantizeOp : Relax_TensorOp<"dequantize"> {
  let summary = "Decodes a group-quantized weight matrix to f32";
  let description = [{
    `W[j, l] = (q(j, l) - zero(j, l / G)) * scales[j, l / G]` for a weight
    `W [n, k]` (a linear layer's `[out, in]`) quantized by groups of
    `G = group_size` consecutive elements along `k`, in the layout of
    docs/quantization.md:

    - `bits = 8`: `q` is `i8 [n, k]`, the zero is 0 (symmetric; llama.cpp's
      Q8_0 at G = 32 with f16 scales). No `zeros` operand.
    - `bits = 4`: `q` is `ui8 [n, k / 2]` holding two unsigned 4-bit values
      per byte, element `2i` in the low nibble of byte `i`, `2i + 1` in the
      high one, so the result has `k = 2 * q's last dim`. The zero is 8
      (symmetric, Q4_0 at G = 32) or, with the optional `zeros` operand
      (`ui8 [n, k / G]`, values 0..15), one per group (asymmetric).
    - `scales` is `[n, k / G]`, f32 or f16; f16 scales are widened exactly.

    Without `group_size` the group is the whole row (per-channel
    quantization): `scales` is `[n, 1]`. The result is always f32.

    Shapes: `q`, `scales` and `zeros` must agree on `n`, and `scales`' last
    dim `g` must satisfy `g * G == k` (which also says that `G` divides `k`):
    provably false is an error, undecidable (symbolic dims) is checked at
    run time (`relax.assert_dims`, inserted before the kernel), so nothing
    is `?`. The decode is exact: an integer minus an integer, times the
    scale, one f32 rounding.

    ```mlir
    %w8 = relax.dequantize %q8, %s8 {bits = 8, group_size = 32} : (!relax.tensor<[n, k], i8>, !relax.tensor<[n, g], f16>) -> !relax.tensor<[n, k], f32>
    %w4 = relax.dequantize %q4, %s4, %z4 {bits = 4, group_size = 128} : (!relax.tensor<[n, h], ui8>, !relax.tensor<[n, g], f32>, !relax.tensor<[n, g], ui8>) -> !relax.tensor<[n, 2 * h], f32>
    %wc = relax.dequantize %qc, %sc {bits = 8} : (!relax.tensor<[n, 64], i8>, !relax.tensor<[n, 1], f32>) -> !relax.tensor<[n, 64], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$q, Relax_AnyTensor:$scales,
                       Optional<Relax_AnyTensor>:$zeros,
                       I64Attr:$bits, OptionalAttr<I64Attr>:$group_size);
  let results = (outs Relax_AnyTensor:$result);
}

def Relax_DequantizeTilesOp : Relax_TensorOp<"dequantize_tiles"> {
  let summary = "Decodes a group-quantized weight stored in tiles to f32";
  let description = [{
    The weight `W [8 * nb, 128 * kb]` of `relax.dequantize` at group 32
    with f16 scales and no zero points (llama.cpp's Q8_0 and Q4_0) stored
    in tiles (include/RelaxDialect/Runtime/QuantTiles.h,
    docs/quantization.md "Tiled layout"), so that a decode product reads
    the weight as one sequential stream instead of one per row and one for
    the scales.

    `tiles` is `ui8 [nb, kb, T]`: tile `(bj, bk)` holds rows
    `8 bj .. 8 bj + 7` and columns `128 bk .. 128 bk + 127` of `W`. Its
    `T` bytes are 64 bytes of f16 scales, the scale of row `r` and group
    `g` (of 4) at byte `2 * (g * 8 + r)`, little-endian, then for `g < 4`
    and `r < 8` in that order row `r`'s group `g` as the plain layout
    stores it: 32 int8 (`bits = 8`, zero 0) or 16 bytes of two 4-bit
    values each (`bits = 4`, element `2i` in the low nibble of byte `i`,
    zero 8). So `T` is 1088 (8 bits) or 576 (4 bits) and must be that
    constant; `nb` and `kb` may be symbolic. The values, and the decode
    (`(q - zero) * scale`, exact), are those of `relax.dequantize` on the
    plain layout: only the order of the bytes differs.

    ```mlir
    %w8 = relax.dequantize_tiles %t8 {bits = 8} : (!relax.tensor<[nb, kb, 1088], ui8>) -> !relax.tensor<[8 * nb, 128 * kb], f32>
    %w4 = relax.dequantize_tiles %t4 {bits = 4} : (!relax.tensor<[64, 4, 576], ui8>) -> !relax.tensor<[512, 512], f32>
    ```
  }];
  let arguments = (ins Relax_AnyTensor:$tiles, I64Attr:$bits);
  let results = (outs Relax_AnyTensor:$result);
}

#endif // RELAX_QUANTIZE_OPS_TD
