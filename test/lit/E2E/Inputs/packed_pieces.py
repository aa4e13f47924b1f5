"""Module, inputs and numpy references for pool-pieces.test.

usage: packed_pieces.py OUTDIR S SEED

Products with constant weights large enough that oneDNN's kernels use a
scratchpad (K = 1536, as a BERT layer's second FFN product), which the
runtime's pool cuts into pieces run at once: blocks of rows for s > 1,
blocks of columns for s = 1. Writes OUTDIR/model.mlir (symbolic s; the
weights are relax.constant, seeded with 0), OUTDIR/in<i>.npy (seeded with
SEED) and OUTDIR/out<i>.npy:
  0: relu(x @ W1 + b1), x [s, 1536], W1 [1536, 384]
  1: x @ W2 + h, h [s, 384] (a residual)
References in float64, cast to f32.
"""
import os
import sys

import numpy as np

K, N = 1536, 384


def dense(a):
    return 'dense<"0x%s"> : tensor<%sxf32>' % (
        a.tobytes().hex().upper(), "x".join(str(d) for d in a.shape))


def main(outdir, s, seed):
    os.makedirs(outdir, exist_ok=True)
    wr = np.random.default_rng(0)
    w1 = (wr.uniform(-1, 1, size=(K, N)) / np.sqrt(K)).astype(np.float32)
    b1 = wr.uniform(-1, 1, size=(N,)).astype(np.float32)
    w2 = (wr.uniform(-1, 1, size=(K, N)) / np.sqrt(K)).astype(np.float32)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(s, K)).astype(np.float32)
    h = rng.uniform(-1, 1, size=(s, N)).astype(np.float32)
    np.save(os.path.join(outdir, "in0.npy"), x)
    np.save(os.path.join(outdir, "in1.npy"), h)
    f = np.float64
    outs = [np.maximum(x.astype(f) @ w1 + b1, 0), x.astype(f) @ w2 + h]
    for i, o in enumerate(outs):
        np.save(os.path.join(outdir, "out%d.npy" % i), o.astype(np.float32))
    tx, ty = "!relax.tensor<[s, %d], f32>" % K, "!relax.tensor<[s, %d], f32>" % N
    tw, tb = "!relax.tensor<[%d, %d], f32>" % (K, N), "!relax.tensor<[%d], f32>" % N
    with open(os.path.join(outdir, "model.mlir"), "w") as out:
        out.write(
            "relax.func @main(%%x: %s, %%h: %s) -> (%s, %s) {\n" % (tx, ty, ty, ty) +
            "  %%w1 = relax.constant %s\n" % dense(w1) +
            "  %%b1 = relax.constant %s\n" % dense(b1) +
            "  %%w2 = relax.constant %s\n" % dense(w2) +
            "  %%m1 = relax.matmul %%x, %%w1 : (%s, %s) -> %s\n" % (tx, tw, ty) +
            "  %%a1 = relax.add %%m1, %%b1 : (%s, %s) -> %s\n" % (ty, tb, ty) +
            "  %%r1 = relax.relu %%a1 : (%s) -> %s\n" % (ty, ty) +
            "  %%m2 = relax.matmul %%x, %%w2 : (%s, %s) -> %s\n" % (tx, tw, ty) +
            "  %%a2 = relax.add %%m2, %%h : (%s, %s) -> %s\n" % (ty, ty, ty) +
            "  relax.return %%r1, %%a2 : %s, %s\n}\n" % (ty, ty))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
