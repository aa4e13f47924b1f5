"""numpy references of the example models in python-free-examples.

usage: models_ref.py MODEL OUTDIR --dim NAME=VALUE [--seed S]

Writes seeded random inputs (in parameter order) to OUTDIR/in<i>.npy and the
float64-computed reference output to OUTDIR/out0.npy.
"""
import argparse
import os

import numpy as np


def rms_norm(x, w, eps=1e-5):
    return x / np.sqrt((x ** 2).mean(-1, keepdims=True) + eps) * w


def silu(x):
    return x / (1.0 + np.exp(-x))


def causal_gqa_attention(q, k, v):
    # q [1, s, hq, d], k/v [1, s, hkv, d]
    b, s, hq, d = q.shape
    hkv = k.shape[2]
    out = np.zeros_like(q)
    for h in range(hq):
        kh = h // (hq // hkv)
        scores = q[0, :, h, :] @ k[0, :, kh, :].T / np.sqrt(d)
        scores = np.where(np.tril(np.ones((s, s), dtype=bool)), scores, -np.inf)
        scores = scores - scores.max(-1, keepdims=True)
        p = np.exp(scores)
        p /= p.sum(-1, keepdims=True)
        out[0, :, h, :] = p @ v[0, :, kh, :]
    return out


def rotate_half(t):
    return np.concatenate([-t[..., 8:], t[..., :8]], axis=-1)


def llama(rng, dims):
    s = dims["s"]
    f = lambda *shape: rng.uniform(-1, 1, size=shape).astype(np.float32)
    x = f(1, s, 64)
    attn_norm, ffn_norm = f(64) + 1.0, f(64) + 1.0
    wq, wk, wv, wo = f(64, 64) / 8, f(64, 32) / 8, f(64, 32) / 8, f(64, 64) / 8
    w_gate, w_up, w_down = f(64, 128) / 8, f(64, 128) / 8, f(128, 64) / 11
    pos = np.arange(s)[:, None] * (10000.0 ** (-np.arange(8) / 8.0))[None, :]
    ang = np.concatenate([pos, pos], axis=-1)
    cos, sin = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)
    inputs = [x, attn_norm, wq, wk, wv, wo, ffn_norm, w_gate, w_up, w_down,
              cos, sin]
    d = [a.astype(np.float64) for a in inputs]
    x, attn_norm, wq, wk, wv, wo, ffn_norm, w_gate, w_up, w_down, cos, sin = d
    h = rms_norm(x, attn_norm)
    q = (h @ wq).reshape(1, s, 4, 16)
    k = (h @ wk).reshape(1, s, 2, 16)
    v = (h @ wv).reshape(1, s, 2, 16)
    c, sn = cos.reshape(1, s, 1, 16), sin.reshape(1, s, 1, 16)
    q = q * c + rotate_half(q) * sn
    k = k * c + rotate_half(k) * sn
    attn = causal_gqa_attention(q, k, v).reshape(1, s, 64)
    x1 = x + attn @ wo
    h2 = rms_norm(x1, ffn_norm)
    y = x1 + (silu(h2 @ w_gate) * (h2 @ w_up)) @ w_down
    return inputs, y.astype(np.float32)


def mlp(rng, dims):
    n = dims["n"]
    f = lambda *shape: rng.uniform(-1, 1, size=shape).astype(np.float32)
    inputs = [f(n, 32), f(32, 64) / 4, f(64), f(64, 10) / 4, f(10)]
    x, w1, b1, w2, b2 = [a.astype(np.float64) for a in inputs]
    y = np.maximum(x @ w1 + b1, 0) @ w2 + b2
    return inputs, y.astype(np.float32)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model", choices=["llama", "mlp"])
    p.add_argument("outdir")
    p.add_argument("--dim", action="append", default=[])
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    dims = {k: int(v) for k, v in (d.split("=") for d in a.dim)}
    rng = np.random.default_rng(a.seed)
    inputs, out = {"llama": llama, "mlp": mlp}[a.model](rng, dims)
    os.makedirs(a.outdir, exist_ok=True)
    for i, t in enumerate(inputs):
        np.save(os.path.join(a.outdir, "in%d.npy" % i), t)
    np.save(os.path.join(a.outdir, "out0.npy"), out)
    # The relax-run arguments for these files, for scripts and tests.
    with open(os.path.join(a.outdir, "args"), "w") as fh:
        fh.write(" ".join("--input %s/in%d.npy" % (a.outdir, i)
                          for i in range(len(inputs))))
        fh.write(" --expect %s/out0.npy\n" % a.outdir)


if __name__ == "__main__":
    main()
