"""Module, inputs and numpy references for gemm-epilogue.mlir.

usage: gemm_epilogue.py OUTDIR S SEED [K N]

Writes OUTDIR/model.mlir (symbolic s; weights and biases are
relax.constant, seeded with 0, so the products take the packed built-ins),
OUTDIR/in<i>.npy (seeded with SEED) and OUTDIR/out<i>.npy; the
products contract K terms (default 16) into N columns (default 24; output
2 has 8), below written for the defaults:
  0: gelu(x @ W1 + b1), x [2, s, 16] (batch_matmul_bcast), GELU as
     (t * 0.5) * (erf(t / sqrt 2) + 1)
  1: gelu(linear(y, W2, b2)), y [s, 16] (matmul_nt), GELU as
     (t * (erf(t * (1 / sqrt 2)) + 1)) * 0.5
  2: b3 + z @ W3 (bias first), z [3, 2, s, 16] (batch2_matmul_bcast)
  3, 4: t = x @ W4 + b4 and gelu(t): t has another user, so only the bias
     is absorbed and the GELU stays a kernel
  5: output 0's computation in f64 (the runtime's path without oneDNN)
  6: relu(x @ W5 + b5) (an MLP layer)
  7: x @ W6 + h, h an input of the product's shape (a residual)
  8: h + (x @ W7 + b7) (the residual after the bias, added on the left)
References in float64, cast to each output's dtype.
"""
import math
import os
import sys

import numpy as np

erf = np.vectorize(math.erf, otypes=[np.float64])


def dense(a):
    # The raw little-endian bytes: exact, and short to parse.
    return 'dense<"0x%s"> : tensor<%s>' % (
        a.tobytes().hex().upper(), "x".join(str(d) for d in a.shape) + "x" +
        ("f32" if a.dtype == np.float32 else "f64"))


def gelu(t):
    return 0.5 * t * (1.0 + erf(t / math.sqrt(2.0)))


def main(outdir, s, seed, k=16, n=24):
    os.makedirs(outdir, exist_ok=True)
    K, N = str(k), str(n)
    wr = np.random.default_rng(0)

    def weight(*shape, dtype=np.float32):
        return wr.uniform(-1, 1, size=shape).astype(dtype)

    w1, b1 = weight(k, n), weight(n)
    w2, b2 = weight(n, k), weight(n)  # linear: [out, in]
    w3, b3 = weight(k, 8), weight(8)
    w4, b4 = weight(k, n), weight(n)
    wd, bd = weight(k, n, dtype=np.float64), weight(n, dtype=np.float64)
    w5, b5 = weight(k, n), weight(n)
    w6, w7, b7 = weight(k, n), weight(k, n), weight(n)

    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(2, s, k)).astype(np.float32)
    y = rng.uniform(-1, 1, size=(s, k)).astype(np.float32)
    z = rng.uniform(-1, 1, size=(3, 2, s, k)).astype(np.float32)
    xd = rng.uniform(-1, 1, size=(2, s, k))
    h = rng.uniform(-1, 1, size=(2, s, n)).astype(np.float32)
    for i, a in enumerate([x, y, z, xd, h]):
        np.save(os.path.join(outdir, "in%d.npy" % i), a)
    f = np.float64
    t4 = x.astype(f) @ w4 + b4
    outs = [gelu(x.astype(f) @ w1 + b1).astype(np.float32),
            gelu(y.astype(f) @ w2.T.astype(f) + b2).astype(np.float32),
            (z.astype(f) @ w3 + b3).astype(np.float32),
            t4.astype(np.float32), gelu(t4).astype(np.float32),
            gelu(xd @ wd + bd),
            np.maximum(x.astype(f) @ w5 + b5, 0).astype(np.float32),
            (x.astype(f) @ w6 + h).astype(np.float32),
            (h + (x.astype(f) @ w7 + b7)).astype(np.float32)]
    for i, o in enumerate(outs):
        np.save(os.path.join(outdir, "out%d.npy" % i), o)

    def ty(shape, dt="f32"):
        return "!relax.tensor<[%s], %s>" % (", ".join(shape), dt)

    lines = []

    def op(text):
        lines.append("  " + text)

    def const(name, a):
        op("%s = relax.constant %s" % (name, dense(a)))

    def binary(kind, res, a, b, ta, tb, tr):
        op("%s = relax.%s %s, %s : (%s, %s) -> %s" % (res, kind, a, b, ta, tb, tr))

    def scalar(name, v, dt="f32"):
        op("%s = relax.constant dense<%r> : tensor<%s>" % (name, v, dt))

    def gelu_a(p, t, tt, dt="f32"):
        st = ty([], dt)
        scalar("%" + p + "c2", math.sqrt(2.0), dt)
        binary("divide", "%" + p + "d", t, "%" + p + "c2", tt, st, tt)
        op("%%%se = relax.erf %%%sd : (%s) -> %s" % (p, p, tt, tt))
        scalar("%" + p + "half", 0.5, dt)
        binary("multiply", "%" + p + "h", t, "%" + p + "half", tt, st, tt)
        scalar("%" + p + "one", 1.0, dt)
        binary("add", "%" + p + "a", "%" + p + "e", "%" + p + "one", tt, st, tt)
        binary("multiply", "%" + p + "g", "%" + p + "h", "%" + p + "a", tt, tt, tt)
        return "%" + p + "g"

    x3, h24 = ty(["2", "s", K]), ty(["2", "s", N])
    const("%w1", w1)
    binary("matmul", "%m1", "%x", "%w1", x3, ty([K, N]), h24)
    const("%b1", b1)
    binary("add", "%t1", "%m1", "%b1", h24, ty([N]), h24)
    g1 = gelu_a("p", "%t1", h24)

    y2, o24 = ty(["s", K]), ty(["s", N])
    const("%w2", w2)
    const("%b2", b2)
    op("%%l2 = relax.linear %%y, %%w2, %%b2 : (%s, %s, %s) -> %s"
       % (y2, ty([N, K]), ty([N]), o24))
    st = ty([])
    scalar("%r2", 1.0 / math.sqrt(2.0))
    binary("multiply", "%q", "%r2", "%l2", st, o24, o24)
    op("%%qe = relax.erf %%q : (%s) -> %s" % (o24, o24))
    scalar("%qone", 1.0)
    binary("add", "%qa", "%qone", "%qe", st, o24, o24)
    binary("multiply", "%qm", "%l2", "%qa", o24, o24, o24)
    scalar("%qhalf", 0.5)
    binary("multiply", "%g2", "%qm", "%qhalf", o24, st, o24)

    z4, o8 = ty(["3", "2", "s", K]), ty(["3", "2", "s", "8"])
    const("%w3", w3)
    binary("matmul", "%m3", "%z", "%w3", z4, ty([K, "8"]), o8)
    const("%b3", b3)
    binary("add", "%t3", "%b3", "%m3", ty(["8"]), o8, o8)

    const("%w4", w4)
    binary("matmul", "%m4", "%x", "%w4", x3, ty([K, N]), h24)
    const("%b4", b4)
    binary("add", "%t4", "%m4", "%b4", h24, ty([N]), h24)
    g4 = gelu_a("u", "%t4", h24)

    xd3, hd = ty(["2", "s", K], "f64"), ty(["2", "s", N], "f64")
    const("%wd", wd)
    binary("matmul", "%md", "%xd", "%wd", xd3, ty([K, N], "f64"), hd)
    const("%bd", bd)
    binary("add", "%td", "%md", "%bd", hd, ty([N], "f64"), hd)
    gd = gelu_a("v", "%td", hd, "f64")

    const("%w5", w5)
    binary("matmul", "%m5", "%x", "%w5", x3, ty([K, N]), h24)
    const("%b5", b5)
    binary("add", "%t5", "%m5", "%b5", h24, ty([N]), h24)
    op("%%r5 = relax.relu %%t5 : (%s) -> %s" % (h24, h24))

    const("%w6", w6)
    binary("matmul", "%m6", "%x", "%w6", x3, ty([K, N]), h24)
    binary("add", "%t6", "%m6", "%h", h24, h24, h24)
    const("%w7", w7)
    binary("matmul", "%m7", "%x", "%w7", x3, ty([K, N]), h24)
    const("%b7", b7)
    binary("add", "%a7", "%m7", "%b7", h24, ty([N]), h24)
    binary("add", "%t7", "%h", "%a7", h24, h24, h24)

    results = [h24, o24, o8, h24, h24, hd, h24, h24, h24]
    module = ("relax.func @main(%%x: %s, %%y: %s, %%z: %s, %%xd: %s, %%h: %s)\n"
              "    -> (%s) {\n%s\n  relax.return %s, %%g2, %%t3, %%t4, %s, %s, %%r5, %%t6, %%t7 : %s\n}\n"
              % (x3, y2, z4, xd3, h24, ", ".join(results), "\n".join(lines),
                 g1, g4, gd, ", ".join(results)))
    with open(os.path.join(outdir, "model.mlir"), "w") as f:
        f.write(module)


if __name__ == "__main__":
    main(*[sys.argv[1]] + [int(a) for a in sys.argv[2:]])
