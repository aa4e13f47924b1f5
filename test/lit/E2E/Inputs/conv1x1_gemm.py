"""Module, inputs and numpy references for conv1x1-gemm.test.

usage: conv1x1_gemm.py OUTDIR N H W SEED

1x1 convolutions with constant weights, bias, residual and ReLU, which the
runtime runs as GEMMs on the tensors where they are (no reorder into
oneDNN's blocked layouts), in each layout the library dispatch gives them:
  0: relu(conv1x1(x) + b + x2) with x, x2 and the result NCHW
  1: the same on NHWC inputs read through permute_dims [0, 3, 1, 2], the
     result read back as NHWC (all three channels-last)
  2: conv1x1(relu(conv1x1(u) + b6 + u)) + b4 for u = relu(conv1x1(x) +
     b3): u and the middle result are read by convs only, so they stay
     NHWC: the middle conv reads, adds and writes channels-last (the ReLU
     after the residual), the outer two change layout
  3: relu(conv1x1(x) + b) without a residual, 24 output channels
  4: conv1x1(relu(conv1x1(u) + b6)) + b4 for u as in 2: the middle conv
     reads and writes channels-last, its bias and ReLU post-ops of the
     packed product
References in float64, cast to f32.
"""
import os
import sys

import numpy as np


def dense(a):
    return 'dense<"0x%s"> : tensor<%s>' % (
        a.tobytes().hex().upper(), "x".join(str(d) for d in a.shape) + "xf32")


def conv1x1(x, w):
    # x [n, c, h, w], w [o, c, 1, 1]
    return np.einsum("nchw,oc->nohw", x, w[:, :, 0, 0])


def main(outdir, n, h, w, seed):
    os.makedirs(outdir, exist_ok=True)
    wr = np.random.default_rng(0)
    C, O = 16, 24

    def weight(*shape):
        return (wr.uniform(-1, 1, size=shape) / np.sqrt(shape[1] if len(shape) > 1 else 1)).astype(np.float32)

    w1, b1 = weight(C, C, 1, 1), weight(C)
    w2, b2 = weight(C, C, 1, 1), weight(C)
    w3, b3 = weight(C, C, 1, 1), weight(C)
    w4, b4 = weight(C, C, 1, 1), weight(C)
    w6, b6 = weight(C, C, 1, 1), weight(C)
    w5, b5 = weight(O, C, 1, 1), weight(O)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(n, C, h, w)).astype(np.float32)
    x2 = rng.uniform(-1, 1, size=(n, C, h, w)).astype(np.float32)
    xh = rng.uniform(-1, 1, size=(n, h, w, C)).astype(np.float32)
    for i, a in enumerate([x, x2, xh]):
        np.save(os.path.join(outdir, "in%d.npy" % i), a)
    d = lambda a: a.astype(np.float64)
    bias = lambda b: d(b).reshape(1, -1, 1, 1)
    relu = lambda a: np.maximum(a, 0)
    v = d(xh).transpose(0, 3, 1, 2)
    outs = [relu(conv1x1(d(x), d(w1)) + bias(b1) + d(x2)),
            relu(conv1x1(v, d(w2)) + bias(b2) + v).transpose(0, 2, 3, 1),
            None,
            relu(conv1x1(d(x), d(w5)) + bias(b5))]
    u = relu(conv1x1(d(x), d(w3)) + bias(b3))
    outs[2] = conv1x1(relu(conv1x1(u, d(w6)) + bias(b6) + u), d(w4)) + bias(b4)
    outs.append(conv1x1(relu(conv1x1(u, d(w6)) + bias(b6)), d(w4)) + bias(b4))
    for i, o in enumerate(outs):
        np.save(os.path.join(outdir, "out%d.npy" % i), o.astype(np.float32))

    t = lambda c: "!relax.tensor<[n, %d, h, w], f32>" % c
    th = "!relax.tensor<[n, h, w, %d], f32>" % C
    wt = lambda o: "!relax.tensor<[%d, %d, 1, 1], f32>" % (o, C)
    bt = lambda o: "!relax.tensor<[%d, 1, 1], f32>" % o
    lines = []
    emit = lines.append

    def const(name, a):
        emit("  %%%s = relax.constant %s" % (name, dense(a)))

    def conv_bias(res, inp, wname, wa, bname, ba, o):
        const(wname, wa)
        emit("  %%%s_c = relax.conv2d %s, %%%s : (%s, %s) -> %s" % (res, inp, wname, t(C), wt(o), t(o)))
        const(bname + "_v", ba)
        emit("  %%%s = relax.expand_dims %%%s_v {axes = array<i64: 1, 2>} : (!relax.tensor<[%d], f32>) -> %s" % (bname, bname, o, bt(o)))
        emit("  %%%s = relax.add %%%s_c, %%%s : (%s, %s) -> %s" % (res, res, bname, t(o), bt(o), t(o)))

    conv_bias("a0", "%x", "w1", w1, "b1", b1, C)
    emit("  %%s0 = relax.add %%a0, %%x2 : (%s, %s) -> %s" % (t(C), t(C), t(C)))
    emit("  %%o0 = relax.relu %%s0 : (%s) -> %s" % (t(C), t(C)))
    emit("  %%v = relax.permute_dims %%xh {axes = array<i64: 0, 3, 1, 2>} : (%s) -> %s" % (th, t(C)))
    conv_bias("a1", "%v", "w2", w2, "b2", b2, C)
    emit("  %%s1 = relax.add %%a1, %%v : (%s, %s) -> %s" % (t(C), t(C), t(C)))
    emit("  %%r1 = relax.relu %%s1 : (%s) -> %s" % (t(C), t(C)))
    emit("  %%o1 = relax.permute_dims %%r1 {axes = array<i64: 0, 2, 3, 1>} : (%s) -> %s" % (t(C), th))
    conv_bias("a2", "%x", "w3", w3, "b3", b3, C)
    emit("  %%r2 = relax.relu %%a2 : (%s) -> %s" % (t(C), t(C)))
    conv_bias("a6", "%r2", "w6", w6, "b6", b6, C)
    emit("  %%s6 = relax.add %%a6, %%r2 : (%s, %s) -> %s" % (t(C), t(C), t(C)))
    emit("  %%r6 = relax.relu %%s6 : (%s) -> %s" % (t(C), t(C)))
    conv_bias("o2", "%r6", "w4", w4, "b4", b4, C)
    conv_bias("a3", "%x", "w5", w5, "b5", b5, O)
    emit("  %%o3 = relax.relu %%a3 : (%s) -> %s" % (t(O), t(O)))
    conv_bias("a7", "%x", "w3b", w3, "b3b", b3, C)
    emit("  %%r7 = relax.relu %%a7 : (%s) -> %s" % (t(C), t(C)))
    conv_bias("a8", "%r7", "w6b", w6, "b6b", b6, C)
    emit("  %%r8 = relax.relu %%a8 : (%s) -> %s" % (t(C), t(C)))
    conv_bias("o4", "%r8", "w4b", w4, "b4b", b4, C)
    emit("  relax.return %%o0, %%o1, %%o2, %%o3, %%o4 : %s, %s, %s, %s, %s" % (t(C), th, t(C), t(O), t(C)))
    with open(os.path.join(outdir, "model.mlir"), "w") as f:
        f.write("relax.func @main(%%x: %s, %%x2: %s, %%xh: %s)\n    -> (%s, %s, %s, %s, %s) {\n"
                % (t(C), t(C), th, t(C), th, t(C), t(O), t(C)))
        f.write("\n".join(lines) + "\n}\n")


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:6]))
