"""Inputs and float64 numpy references for nn-attention-streaming.mlir.
usage: attention_streaming.py OUTDIR S T
q [1, S, 4, 8], k / v [1, T, 2, 8] (grouped heads), an additive mask
[1, 1, S, T] of small values with -inf at random positions and every key
of the last query row -inf, and a boolean mask [1, 4, S, T] with every key
of query row 0 of head 1 false. Outputs, in order: plain attention, causal,
the additive mask with scale 0.25, the boolean mask with causal."""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from ref import attention_ref  # noqa: E402


def main(outdir, s, t):
    rng = np.random.default_rng(s * 7919 + t)
    f = lambda *shape: rng.uniform(-1.0, 1.0, size=shape).astype(np.float32)
    q, k, v = f(1, s, 4, 8), f(1, t, 2, 8), f(1, t, 2, 8)
    m = f(1, 1, s, t)
    m[rng.uniform(size=m.shape) < 0.3] = -np.inf
    m[:, :, s - 1, :] = -np.inf
    bm = rng.integers(0, 2, size=(1, 4, s, t)).astype(np.bool_)
    bm[:, 1, 0, :] = False
    os.makedirs(outdir, exist_ok=True)
    for i, x in enumerate((q, k, v, m, bm)):
        np.save(os.path.join(outdir, "in%d.npy" % i), x)
    with np.errstate(invalid="ignore"):
        outs = (attention_ref(q, k, v), attention_ref(q, k, v, causal=True),
                attention_ref(q, k, v, mask=m, scale=0.25),
                attention_ref(q, k, v, mask=bm, causal=True))
    for i, x in enumerate(outs):
        np.save(os.path.join(outdir, "out%d.npy" % i), x)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
