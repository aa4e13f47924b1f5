"""Checks the .npy files relax-run --output-dir wrote for int-dtypes-io.mlir.

usage: check_int_dtypes_io.py DIR N
"""
import os
import sys

import numpy as np


def main(outdir, n):
    want = [(np.int16, (n, 2)), (np.uint16, (n, 2)), (np.uint32, (n, 2)),
            (np.uint64, (n, 2)), (np.uint64, (n,)), (np.uint16, (n,)),
            (np.uint32, (n,)), (np.uint16, (n,))]
    out = []
    for i, (dtype, shape) in enumerate(want):
        a = np.load(os.path.join(outdir, "output_%d.npy" % i))
        assert a.dtype == dtype, (i, a.dtype, dtype)
        assert a.shape == shape, (i, a.shape, shape)
        out.append(a)
    # Random integer inputs are 0..9 and are returned unchanged.
    for a in out[:4]:
        assert ((a >= 0) & (a <= 9)).all() and len(np.unique(a)) > 1, a
    assert (out[4] == np.uint64(2**63)).all(), out[4]
    assert (out[5] == 65535).all(), out[5]
    assert (out[6] == 0).all(), out[6]
    assert (out[7] == np.arange(n)).all(), out[7]
    print("dtypes and values ok")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
