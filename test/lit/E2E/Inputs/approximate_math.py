"""Inputs and float64 references for approximate-math.mlir.
usage: approximate_math.py OUTDIR
x: a grid over [-100, 100], uniform samples in [-10, 10] and the special
values (+-inf, NaN, +-0, tiny, exp's overflow and underflow edges);
p: |x| shifted into (0, inf) plus 0, inf, NaN and a subnormal. Outputs:
exp(x), erf(x), tanh(x), log(p), sigmoid(x), as float32 of the float64
values."""
import math
import os
import sys

import numpy as np


def main(outdir):
    rng = np.random.default_rng(0)
    special = [-np.inf, np.inf, np.nan, 0.0, -0.0, 1e-30, -1e-30, 88.7,
               88.73, 89.0, -87.3, -103.0, -104.0, -200.0, 9.5, -9.5]
    x = np.concatenate([np.linspace(-100, 100, 20001),
                        rng.uniform(-10, 10, 20000),
                        np.array(special)]).astype(np.float32)
    finite = np.abs(x[np.isfinite(x)])
    p = np.concatenate([finite + np.float32(1e-37),
                        np.array([0.0, np.inf, np.nan, 1e-40])]
                       ).astype(np.float32)
    xd, pd = x.astype(np.float64), p.astype(np.float64)
    with np.errstate(all="ignore"):
        outs = [np.exp(xd), np.vectorize(math.erf)(xd), np.tanh(xd),
                np.log(pd), 1.0 / (1.0 + np.exp(-xd))]
        outs = [o.astype(np.float32) for o in outs]
    os.makedirs(outdir, exist_ok=True)
    np.save(os.path.join(outdir, "in0.npy"), x)
    np.save(os.path.join(outdir, "in1.npy"), p)
    for i, o in enumerate(outs):
        np.save(os.path.join(outdir, "out%d.npy" % i), o)


if __name__ == "__main__":
    main(sys.argv[1])
