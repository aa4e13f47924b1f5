"""Inputs and references of Inputs/tensor-core-matmul.mlir.

usage: tensor_core_matmul.py OUTDIR M N K [SEED]

Writes in0..in5 (x, w f16; xb, wb bf16 as their uint16 bit patterns, the
way relax-run reads bf16; xh, wh f16) and out0..out2 for @f32 and @main,
al0..al3 and alout0..alout1 for @aligned (k = 64): the products of the
exact input values in float64, rounded to each output's dtype (f32, bf16
by round-to-nearest-even, f16).
"""
import os
import sys

import numpy as np


def to_bf16_bits(a):
    """Rounds float32 values to bf16 (nearest even), as uint16 bits."""
    bits = a.astype(np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def from_bf16_bits(b):
    return (b.astype(np.uint32) << 16).view(np.float32)


def main(argv):
    outdir, m, n, k = argv[0], int(argv[1]), int(argv[2]), int(argv[3])
    rng = np.random.default_rng(int(argv[4]) if len(argv) > 4 else 0)
    os.makedirs(outdir, exist_ok=True)

    def uniform(*shape):
        return rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)

    x, w = uniform(m, k).astype(np.float16), uniform(k, n).astype(np.float16)
    xb, wb = to_bf16_bits(uniform(2, m, k)), to_bf16_bits(uniform(n, k))
    xh = uniform(2, m, k).astype(np.float16)
    wh = uniform(2, k, n).astype(np.float16)
    for i, a in enumerate([x, w, xb, wb, xh, wh]):
        np.save(os.path.join(outdir, "in%d.npy" % i), a)
    f64 = lambda a: a.astype(np.float64)
    y0 = (f64(x) @ f64(w)).astype(np.float32)
    y1 = to_bf16_bits(
        (f64(from_bf16_bits(xb)) @ f64(from_bf16_bits(wb)).T).astype(np.float32))
    y2 = (f64(xh) @ f64(wh)).astype(np.float16)
    for i, a in enumerate([y0, y1, y2]):
        np.save(os.path.join(outdir, "out%d.npy" % i), a)

    xa, wa = uniform(m, 64).astype(np.float16), uniform(n, 64).astype(np.float16)
    xab, wab = to_bf16_bits(uniform(m, 64)), to_bf16_bits(uniform(64, n))
    for i, a in enumerate([xa, wa, xab, wab]):
        np.save(os.path.join(outdir, "al%d.npy" % i), a)
    ya0 = (f64(xa) @ f64(wa).T).astype(np.float16)
    ya1 = (f64(from_bf16_bits(xab)) @ f64(from_bf16_bits(wab))).astype(np.float32)
    for i, a in enumerate([ya0, ya1]):
        np.save(os.path.join(outdir, "alout%d.npy" % i), a)


if __name__ == "__main__":
    main(sys.argv[1:])
