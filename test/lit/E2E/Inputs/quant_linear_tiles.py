"""Inputs and numpy references for quant-linear-tiles.test.

usage: quant_linear_tiles.py OUTDIR S NB KB SEED

Quantizes random weights W [N, K], N = 8 NB, K = 128 KB, with llama.cpp's
Q8_0 and Q4_0 (group 32, f16 scales; scripts/quantize.py) and stores them
in the tiled layout of include/RelaxDialect/Runtime/QuantTiles.h
(quantize.to_tiles). Writes:
  in0.npy  x [1, S, K] f32
  in1.npy  tiles of the Q8_0 weight [NB, KB, 1088] ui8
  in2.npy  tiles of the Q4_0 weight [NB, KB, 576] ui8
  in3.npy  bias [N] f32
  bad1.npy the Q8_0 tiles of a weight of K + 128 columns (another kb)
  deq0.npy, deq1.npy: the two weights decoded exactly (quantize.dequantize
           of the plain layout: the bits the model must produce)
  out0..3.npy: x @ W^T in float64 of the decoded weights: q8 (x [1, S, K]),
           q4 of x as [S, K], q4 plus the bias, q8 as matmul(x, W^T)
  a8out0..3.npy: the same as --quant-activations=int8 computes them: x's
           rows quantized to int8 by blocks of 32
           (quantize.quantize_activations) when there are at most 4 of
           them (S <= 4), else out0..3.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..",
                                "..", "scripts"))
import quantize  # noqa: E402


def main(outdir, s, nb, kb, seed):
    os.makedirs(outdir, exist_ok=True)
    n, k = 8 * nb, 128 * kb
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(1, s, k)).astype(np.float32)
    w = rng.normal(0, 0.5, size=(n, k)).astype(np.float32)
    q8, s8 = quantize.quantize_q8(w, 32, np.float16)
    q4, s4 = quantize.quantize_q4(w, 32, np.float16)
    bias = rng.uniform(-1, 1, size=(n,)).astype(np.float32)
    inputs = [x, quantize.to_tiles(q8, s8, 8), quantize.to_tiles(q4, s4, 4),
              bias]
    for i, a in enumerate(inputs):
        np.save(os.path.join(outdir, "in%d.npy" % i), a)
    wide = rng.normal(0, 0.5, size=(n, k + 128)).astype(np.float32)
    np.save(os.path.join(outdir, "bad1.npy"),
            quantize.to_tiles(*quantize.quantize_q8(wide, 32), 8))
    w8 = quantize.dequantize(q8, s8, 8, 32)
    w4 = quantize.dequantize(q4, s4, 4, 32)
    np.save(os.path.join(outdir, "deq0.npy"), w8)
    np.save(os.path.join(outdir, "deq1.npy"), w4)
    x64 = x.astype(np.float64)
    xa = quantize.quantize_activations(x) if s <= 4 else x64
    for prefix, xs in (("out", x64), ("a8out", xa)):
        ys = [xs @ w8.astype(np.float64).T,
              (xs @ w4.astype(np.float64).T)[0],
              xs @ w4.astype(np.float64).T + bias,
              xs @ w8.astype(np.float64).T]
        for i, y in enumerate(ys):
            np.save(os.path.join(outdir, "%s%d.npy" % (prefix, i)),
                    y.astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:6]))
