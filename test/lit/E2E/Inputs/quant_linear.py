"""Inputs and numpy references for quant-linear.test.

usage: quant_linear.py OUTDIR S N K SEED

Quantizes random weights W [N, K] in the layout of docs/quantization.md
(the formulas of scripts/quantize.py: llama.cpp's Q8_0 and Q4_0, and an
asymmetric 4-bit form with per-group zeros) and writes:
  in0.npy  x [1, S, K] f32
  in1.npy  q8 [N, K] i8,  in2.npy scales8 [N, K / 32] f16   (group 32)
  in3.npy  q4 [N, K / 2] ui8, in4.npy scales4 [N, K / 32] f32 (group 32)
  in5.npy  q4z [N, K / 2] ui8, in6.npy scales4z [N, K / 16] f16,
  in7.npy  zeros4z [N, K / 16] ui8                          (group 16)
  bad6.npy, bad7.npy  scales and zeros of group 32 (the model's group is 16)
  in8.npy  qc [N, K] i8, in9.npy scalesc [N, 1] f32        (per channel)
  in10.npy bias [N] f32
  deq0..3.npy: the four weights decoded exactly (float64 arithmetic of the
           stored integers and scales, then one rounding to f32: the
           decode is exact in f32, so these are the bits the model must
           produce)
  out0..3.npy: x @ W^T for the four weights (float64 products of the
           decoded f32 weights), output 1 of x as [S, K], output 2 plus
           the bias.
  a8out0.npy, a8out1.npy, a8out3.npy: outputs 0, 1 and 3 (groups that are
           multiples of 32) as --quant-activations=int8 computes them: x's
           rows quantized to int8 by blocks of 32
           (quantize.quantize_activations) when the product has at most 4
           of them (S <= 4), else out0, out1, out3.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "..", "scripts"))
import quantize  # noqa: E402


def main(outdir, s, n, k, seed):
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(1, s, k)).astype(np.float32)
    w = rng.normal(0, 0.5, size=(n, k)).astype(np.float32)
    q8, s8 = quantize.quantize_q8(w, 32, np.float16)
    q4, s4 = quantize.quantize_q4(w, 32, np.float32)
    q4z, s4z, z4z = quantize.quantize_q4_zero_points(w, 16, np.float16)
    qc, sc = quantize.quantize_q8(w, k, np.float32)
    bias = rng.uniform(-1, 1, size=(n,)).astype(np.float32)
    inputs = [x, q8, s8, q4, s4, q4z, s4z, z4z, qc, sc, bias]
    for i, a in enumerate(inputs):
        np.save(os.path.join(outdir, "in%d.npy" % i), a)
    # Scales and zeros of group 32 where the model says 16 (bad6, bad7).
    _, s_bad, z_bad = quantize.quantize_q4_zero_points(w, 32, np.float16)
    np.save(os.path.join(outdir, "bad6.npy"), s_bad)
    np.save(os.path.join(outdir, "bad7.npy"), z_bad)
    weights = [
        quantize.dequantize(q8, s8, 8, 32),
        quantize.dequantize(q4, s4, 4, 32),
        quantize.dequantize(q4z, s4z, 4, 16, z4z),
        quantize.dequantize(qc, sc, 8, k),
    ]
    x64 = x.astype(np.float64)
    for i, wd in enumerate(weights):
        np.save(os.path.join(outdir, "deq%d.npy" % i), wd)
        y = x64 @ wd.astype(np.float64).T
        if i == 1:
            y = y[0]  # x as [s, k]
        if i == 2:
            y = y + bias
        np.save(os.path.join(outdir, "out%d.npy" % i), y.astype(np.float32))
    xa = quantize.quantize_activations(x[0]) if s <= 4 else x64[0]
    for i in (0, 1, 3):
        y = xa @ weights[i].astype(np.float64).T
        if i != 1:
            y = y[np.newaxis]  # x as [1, s, k]
        np.save(os.path.join(outdir, "a8out%d.npy" % i), y.astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:6]))
