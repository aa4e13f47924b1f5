"""Inputs and numpy references of nn-recurrent.mlir (relax.lstm, gru, rnn
at the op level: xw is the input projection, [seq, batch, D, gates * H]).

usage: recurrent_ref.py OUTDIR SEQ BATCH

Writes OUTDIR/in<i>.npy in the order of @main's parameters and
OUTDIR/out<i>.npy in the order of its results; OUTDIR/f16_in<i>.npy and
OUTDIR/f16_out<i>.npy for @gru_f16 (the GRU's operands rounded to f16, the
reference computed from the rounded values). The lengths are 0, SEQ + 3
(clamped to SEQ) and 2, repeated over the batch.
"""
import os
import sys

import numpy as np

H = 3


def act(name, v, alpha, beta):
    return {
        "Sigmoid": lambda: 1 / (1 + np.exp(-v)),
        "Tanh": lambda: np.tanh(v),
        "Relu": lambda: np.maximum(v, 0),
        "HardSigmoid": lambda: np.clip(alpha * v + beta, 0, 1),
        "LeakyRelu": lambda: np.where(v < 0, alpha * v, v),
        "Affine": lambda: alpha * v + beta,
        "ScaledTanh": lambda: alpha * np.tanh(beta * v),
        "Elu": lambda: np.where(v < 0, alpha * (np.exp(v) - 1), v),
        "Softsign": lambda: v / (1 + np.abs(v)),
        "Softplus": lambda: np.log1p(np.exp(v)),
        "ThresholdedRelu": lambda: np.where(v > alpha, v, 0),
    }[name]()


def recur(kind, xw, r, rb, states, lens, dirs, acts, clip=None, p=None,
          input_forget=False, lbr=False):
    """The op's semantics: acts is a list of (name, alpha, beta) per
    direction."""
    seq, batch = xw.shape[:2]
    y = np.zeros((seq, len(dirs), batch, H))
    finals = [s.copy() for s in states]
    cl = (lambda v: np.clip(v, -clip, clip)) if clip else (lambda v: v)
    for d, rev in enumerate(dirs):
        f = [lambda v, a=a: act(a[0], v, a[1], a[2]) for a in acts[d]]
        for b in range(batch):
            n = min(max(lens[b], 0), seq)
            h = states[0][d, b].copy()
            c = states[1][d, b].copy() if kind == "lstm" else None
            for s in range(n):
                t = n - 1 - s if rev else s
                g = xw[t, b, d] + rb[d]
                if kind == "gru":
                    g2 = g[:2 * H] + r[d, :2 * H] @ h
                    z, rr = f[0](cl(g2[:H])), f[0](cl(g2[H:]))
                    if lbr:
                        cand = xw[t, b, d, 2 * H:] + rr * (
                            r[d, 2 * H:] @ h + rb[d, 2 * H:])
                    else:
                        cand = g[2 * H:] + r[d, 2 * H:] @ (rr * h)
                    h = (1 - z) * f[1](cl(cand)) + z * h
                elif kind == "lstm":
                    g = g + r[d] @ h
                    i = f[0](cl(g[:H] + p[d, :H] * c))
                    fg = 1 - i if input_forget else \
                        f[0](cl(g[2 * H:3 * H] + p[d, 2 * H:] * c))
                    c = fg * c + i * f[1](cl(g[3 * H:]))
                    o = f[0](cl(g[H:2 * H] + p[d, H:2 * H] * c))
                    h = o * f[2](c)
                else:
                    h = f[0](cl(g + r[d] @ h))
                y[t, d, b] = h
            finals[0][d, b] = h
            if kind == "lstm":
                finals[1][d, b] = c
    return [y] + finals


def main(out, seq, batch):
    rng = np.random.default_rng(seq * 100 + batch)
    os.makedirs(out, exist_ok=True)
    u = lambda *shape: rng.uniform(-1, 1, shape)  # noqa: E731
    lens = np.array([[0, seq + 3, 2][i % 3] for i in range(batch)], np.int32)
    # lstm: bidirectional, peepholes, clip, input_forget, ScaledTanh / Elu.
    xl, rl, bl, hl, cl, pl = (u(seq, batch, 2, 4 * H), u(2, 4 * H, H),
                              u(2, 4 * H), u(2, batch, H), u(2, batch, H),
                              u(2, 3 * H))
    lacts = [[("Sigmoid", 1, 0), ("Tanh", 1, 0), ("Tanh", 1, 0)],
             [("HardSigmoid", 0.3, 0.4), ("ScaledTanh", 1.5, 0.7),
              ("Elu", 0.8, 0)]]
    lstm = recur("lstm", xl, rl, bl, [hl, cl], lens, [False, True], lacts,
                 clip=1.5, p=pl, input_forget=True)
    # gru: reverse, linear_before_reset 0, Softsign / Softplus.
    xg, rg, bg, hg = u(seq, batch, 1, 3 * H), u(1, 3 * H, H), u(1, 3 * H), \
        u(1, batch, H)
    gru = recur("gru", xg, rg, bg, [hg], lens, [True],
                [[("Softsign", 1, 0), ("Softplus", 1, 0)]])
    # rnn: bidirectional, Relu forward, LeakyRelu / ThresholdedRelu / Affine
    # are elementwise like it; reverse uses Affine.
    xr, rr, br, hr = u(seq, batch, 2, H), u(2, H, H), u(2, H), u(2, batch, H)
    rnn = recur("rnn", xr, rr, br, [hr], lens, [False, True],
                [[("Relu", 1, 0)], [("Affine", 0.5, 0.25)]])
    ins = [xl, rl, bl, hl, cl, pl, lens, xg, rg, bg, hg, xr, rr, br, hr]
    for i, a in enumerate(ins):
        np.save(os.path.join(out, "in%d.npy" % i),
                a if a.dtype == np.int32 else a.astype(np.float32))
    for i, a in enumerate(lstm + gru + rnn):
        np.save(os.path.join(out, "out%d.npy" % i), a.astype(np.float32))
    # f16 (computed in f32 by the legalization): linear_before_reset.
    half = [a.astype(np.float16) for a in (xg, rg, bg, hg)]
    gru16 = recur("gru", *[a.astype(np.float64) for a in half[:3]],
                  [half[3].astype(np.float64)], lens, [False],
                  [[("Sigmoid", 1, 0), ("Tanh", 1, 0)]], lbr=True)
    for i, a in enumerate(half + [lens]):
        np.save(os.path.join(out, "f16_in%d.npy" % i), a)
    for i, a in enumerate(gru16):
        np.save(os.path.join(out, "f16_out%d.npy" % i), a.astype(np.float16))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
