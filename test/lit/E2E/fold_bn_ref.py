"""Inputs and numpy reference for fold-batch-norm.mlir: x [n, 3, h, w]
(seeded), relu(batch_norm(conv2d(x, W, padding 1))) and
batch_norm(conv2d(x, W)) + conv2d(x, W) (the conv read twice), computed in
float64 from the constants below, which the .mlir holds verbatim.

  fold_bn_ref.py DIR N H W
"""
import os
import sys

import numpy as np

W = ((((np.arange(4 * 3 * 3 * 3) * 7) % 11) - 5) / 8).reshape(4, 3, 3, 3)
GAMMA = np.array([1.5, -0.5, 0.75, 2.0])
BETA = np.array([0.25, -1.0, 0.5, 0.0])
MEAN = np.array([0.125, 0.5, -0.25, 1.0])
VAR = np.array([0.5, 2.0, 1.0, 0.25])
EPS = 1e-5


def conv(x, pad):
    x = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    win = np.lib.stride_tricks.sliding_window_view(x, (3, 3), axis=(2, 3))
    return np.einsum("nchwij,ocij->nohw", win, W)


def bn(y):
    s = (GAMMA / np.sqrt(VAR + EPS))[None, :, None, None]
    return (y - MEAN[None, :, None, None]) * s + BETA[None, :, None, None]


def main(out, n, h, w):
    os.makedirs(out, exist_ok=True)
    x = np.random.default_rng(n * 100 + h * 10 + w).uniform(
        -1, 1, (n, 3, h, w)).astype(np.float32)
    np.save(os.path.join(out, "x.npy"), x)
    y = conv(x.astype(np.float64), 1)
    np.save(os.path.join(out, "relu_bn.npy"),
            np.maximum(bn(y), 0).astype(np.float32))
    y0 = conv(x.astype(np.float64), 0)
    np.save(os.path.join(out, "bn_plus_conv.npy"),
            (bn(y0) + y0).astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1], *map(int, sys.argv[2:5]))
