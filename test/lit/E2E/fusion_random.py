"""Random dataflow programs for testing fusion end to end.

usage: fusion_random.py OUTDIR [--programs N] [--seed S] [--ops K]
                         [--n N] [--m M]

Writes OUTDIR/p<i>/prog.mlir, a relax.func over x : [n, m] (symbolic n and
m) that applies K random ops (elementwise, broadcast, reductions with
keepdims, softmax, matmul, transposes, flattening reshapes) to earlier
values, so the dataflow
graph has fan-out and joins; its outputs are the last value and one random
earlier one. Also writes the inputs (x of shape [N, M], default [5, 8])
and the float64 numpy results as .npy files and OUTDIR/p<i>/args with the
relax-run flags that check them.
"""
import os
import sys

import numpy as np

T = "!relax.tensor<[n, m], f32>"
TT = "!relax.tensor<[m, n], f32>"
TC = "!relax.tensor<[n, 1], f32>"
V = "!relax.tensor<[m], f32>"
TF = "!relax.tensor<[n * m], f32>"
W = "!relax.tensor<[m, m], f32>"


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


UNARY = {
    "tanh": np.tanh,
    "sigmoid": lambda a: 1 / (1 + np.exp(-a)),
    "relu": lambda a: np.maximum(a, 0),
    "negative": lambda a: -a,
    "softmax": softmax,
}
BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "maximum": np.maximum,
}


def make_program(rng, num_ops, N, M):
    lines, env = [], {}
    values = ["%x"]
    env["%x"] = rng.uniform(-1, 1, (N, M))
    b = rng.uniform(-1, 1, (M,))
    w = rng.uniform(-1, 1, (M, M)) / M
    for i in range(num_ops):
        r = f"%v{i}"
        kind = rng.choice(["unary", "binary", "bias", "matmul", "center",
                           "transpose", "flatten"],
                          p=[.3, .2, .15, .1, .1, .08, .07])
        a = values[rng.integers(len(values))]
        if kind == "unary":
            op = rng.choice(sorted(UNARY))
            lines.append(f"{r} = relax.{op} {a} : ({T}) -> {T}")
            env[r] = UNARY[op](env[a])
        elif kind == "binary":
            c = values[rng.integers(len(values))]
            op = rng.choice(sorted(BINARY))
            lines.append(f"{r} = relax.{op} {a}, {c} : ({T}, {T}) -> {T}")
            env[r] = BINARY[op](env[a], env[c])
        elif kind == "bias":
            lines.append(f"{r} = relax.add {a}, %b : ({T}, {V}) -> {T}")
            env[r] = env[a] + b
        elif kind == "matmul":
            lines.append(f"{r}m = relax.matmul {a}, %w : ({T}, {W}) -> {T}")
            lines.append(f"{r} = relax.tanh {r}m : ({T}) -> {T}")
            env[r] = np.tanh(env[a] @ w)
        elif kind == "center":
            lines.append(f"{r}s = relax.mean {a} {{axes = array<i64: 1>, "
                         f"keepdims = true}} : ({T}) -> {TC}")
            lines.append(f"{r} = relax.subtract {a}, {r}s : ({T}, {TC}) -> {T}")
            env[r] = env[a] - env[a].mean(1, keepdims=True)
        elif kind == "flatten":
            lines.append(f"{r}f = relax.reshape {a} {{shape = #relax.shape<"
                         f"[n * m]>}} : ({T}) -> {TF}")
            lines.append(f"{r}g = relax.tanh {r}f : ({TF}) -> {TF}")
            lines.append(f"{r} = relax.reshape {r}g {{shape = #relax.shape<"
                         f"[n, m]>}} : ({TF}) -> {T}")
            env[r] = np.tanh(env[a])
        else:
            lines.append(f"{r}t = relax.permute_dims {a} : ({T}) -> {TT}")
            lines.append(f"{r}u = relax.sigmoid {r}t : ({TT}) -> {TT}")
            lines.append(f"{r} = relax.permute_dims {r}u : ({TT}) -> {T}")
            env[r] = 1 / (1 + np.exp(-env[a]))
        values.append(r)
    outs = [values[-1], values[1 + rng.integers(len(values) - 2)]]
    body = "\n".join("    " + l for l in lines)
    text = (f"relax.func @main(%x: {T}, %b: {V}, %w: {W}) -> ({T}, {T}) {{\n"
            f"  %r:2 = relax.dataflow -> {T}, {T} {{\n{body}\n"
            f"    relax.output {outs[0]}, {outs[1]} : {T}, {T}\n  }}\n"
            f"  relax.return %r#0, %r#1 : {T}, {T}\n}}\n")
    inputs = [env["%x"], b, w]
    return text, inputs, [env[o] for o in outs]


def main(argv):
    outdir = argv[0]
    opts = dict(zip(argv[1::2], argv[2::2]))
    rng = np.random.default_rng(int(opts.get("--seed", 0)))
    for p in range(int(opts.get("--programs", 6))):
        d = os.path.join(outdir, f"p{p}")
        os.makedirs(d, exist_ok=True)
        text, inputs, outputs = make_program(rng, int(opts.get("--ops", 10)),
                                             int(opts.get("--n", 5)),
                                             int(opts.get("--m", 8)))
        with open(os.path.join(d, "prog.mlir"), "w") as f:
            f.write(text)
        args = []
        for i, v in enumerate(inputs):
            np.save(os.path.join(d, f"in{i}.npy"), v.astype(np.float32))
            args += ["--input", os.path.join(d, f"in{i}.npy")]
        for i, v in enumerate(outputs):
            np.save(os.path.join(d, f"out{i}.npy"), np.ascontiguousarray(v))
            args += ["--expect", os.path.join(d, f"out{i}.npy")]
        with open(os.path.join(d, "args"), "w") as f:
            f.write(" ".join(args))


if __name__ == "__main__":
    main(sys.argv[1:])
