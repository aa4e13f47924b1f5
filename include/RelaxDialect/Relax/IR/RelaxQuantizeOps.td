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

#endif // RELAX_QUANTIZE_OPS_TD
