"""Module, inputs and numpy references for conv-inplace-residual.test.

usage: conv_inplace.py OUTDIR N H W SEED [C]

Writes OUTDIR/model.mlir, OUTDIR/in0.npy (x, seeded with SEED) and
OUTDIR/out<i>.npy. @main has symbolic n, h, w and C channels (default 16);
every convolution has constant weights (seeded with 0) and "same" padding,
so each becomes the fused convolution built-in and every tensor is
[n, C, h, w]. The residual adds are the cases of the memory plan's
decision to write a convolution's output over its residual
(relax.output_may_alias, include/RelaxDialect/Relax/Transforms/MemoryPlan.h):

  written over (the residual dies at the add):
    y1 = relu(conv3(a1) + b + s)    s conv-private (read by convs only)
    y2 = relu(conv1(a2) + b + y1)   y1 conv-private, a 1x1 window
    u  = relu(conv1(a3) + b + t)    t NCHW (a pool reads it first): the
                                    runtime's 1x1 GEMM path
    v  = conv3(a4) + b + u          u NCHW, a 3x3 window
  refused:
    o = relu(conv3(a0) + b + x)     x is the function's argument
    p = relu(conv3(a5) + b + w)     w is read again after the add
    z = relu(conv3(m) + b + m)      m is also the convolution's input
Outputs (in0 is x): 0 pool(t), 1 pool(u), 2 pool(v), 3 pool(o),
4 conv3(w) + b + p, 5 conv1(z) + b.

@const_residual (static [1, C, 5, 6]) adds a relax.constant residual,
which is never written over: 6 = pool(relu(conv3(xs) + b + K)) for
OUTDIR/in1.npy.

References in float64 (ref.conv2d_ref, ref.pool2d_ref), cast to f32.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from ref import conv2d_ref, pool2d_ref  # noqa: E402


def dense(a):
    # The raw little-endian bytes: exact, and short to parse.
    return 'dense<"0x%s"> : tensor<%sxf32>' % (
        a.astype(np.float32).tobytes().hex().upper(),
        "x".join(str(d) for d in a.shape))


class Net:
    """Writes relax ops and computes their float64 values side by side."""

    def __init__(self, channels, ty, weights):
        self.c, self.ty, self.wr = channels, ty, weights
        self.lines, self.vals, self.count = [], {}, 0

    def fresh(self):
        self.count += 1
        return "%%t%d" % self.count

    def const(self, a):
        name = self.fresh()
        self.lines.append("  %s = relax.constant %s" % (name, dense(a)))
        return name

    def weight(self, *shape):
        return (self.wr.uniform(-1, 1, size=shape) /
                np.sqrt(np.prod(shape[1:]))).astype(np.float32)

    def binary(self, op, a, b, bty=None, value=None):
        name = self.fresh()
        self.lines.append("  %s = relax.%s %s, %s : (%s, %s) -> %s" % (
            name, op, a, b, self.ty, bty or self.ty, self.ty))
        self.vals[name] = value
        return name

    def conv(self, x, k, bias=True, residual=None, relu=False):
        """relu?(conv_k(x) + b? + residual?), the fused built-in's epilogue."""
        c, ty = self.c, self.ty
        w = self.weight(c, c, k, k)
        wname = self.const(w)
        name = self.fresh()
        pad = "{padding = array<i64: %d>}" % (k // 2) if k > 1 else ""
        self.lines.append("  %s = relax.conv2d %s, %s %s : (%s, "
                          "!relax.tensor<[%d, %d, %d, %d], f32>) -> %s" % (
                              name, x, wname, pad, ty, c, c, k, k, ty))
        value = conv2d_ref(self.vals[x], w.astype(np.float64), padding=[k // 2])
        self.vals[name] = value
        if bias:
            b = self.weight(c)
            bname = self.const(b)
            e = self.fresh()
            self.lines.append(
                "  %s = relax.expand_dims %s {axes = array<i64: 1, 2>} : "
                "(!relax.tensor<[%d], f32>) -> !relax.tensor<[%d, 1, 1], f32>"
                % (e, bname, c, c))
            value = value + b.reshape(1, -1, 1, 1)
            name = self.binary("add", name, e,
                               "!relax.tensor<[%d, 1, 1], f32>" % c, value)
        if residual:
            value = value + self.vals[residual]
            name = self.binary("add", name, residual, value=value)
        if relu:
            value = np.maximum(value, 0)
            relu_name = self.fresh()
            self.lines.append("  %s = relax.relu %s : (%s) -> %s" % (
                relu_name, name, ty, ty))
            self.vals[relu_name] = value
            name = relu_name
        return name

    def pool(self, x):
        name = self.fresh()
        self.lines.append(
            "  %s = relax.max_pool2d %s {padding = array<i64: 1>, "
            "pool_size = array<i64: 3>} : (%s) -> %s" % (name, x, self.ty,
                                                         self.ty))
        self.vals[name] = pool2d_ref(self.vals[x], [3], padding=[1])
        return name

    def function(self, fn, arg, results):
        types = ", ".join([self.ty] * len(results))
        return ("relax.func @%s(%s: %s) -> (%s) {\n%s\n"
                "  relax.return %s : %s\n}\n" % (
                    fn, arg, self.ty, types, "\n".join(self.lines),
                    ", ".join(results), types))


def main(outdir, n, h, w, seed, c):
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(n, c, h, w)).astype(np.float32)
    np.save(os.path.join(outdir, "in0.npy"), x)
    net = Net(c, "!relax.tensor<[n, %d, h, w], f32>" % c,
              np.random.default_rng(0))
    net.vals["%x"] = x.astype(np.float64)
    # The argument as residual first: were it written over, every later
    # reader of x would see it.
    a0 = net.conv("%x", 3, relu=True)
    o = net.conv(a0, 3, residual="%x", relu=True)
    s = net.conv("%x", 3, relu=True)
    a1 = net.conv(s, 3, relu=True)
    y1 = net.conv(a1, 3, residual=s, relu=True)
    a2 = net.conv(y1, 3, relu=True)
    y2 = net.conv(a2, 1, residual=y1, relu=True)
    t = net.conv(y2, 3, relu=True)
    pt = net.pool(t)
    a3 = net.conv(t, 3, relu=True)
    u = net.conv(a3, 1, residual=t, relu=True)
    pu = net.pool(u)
    a4 = net.conv(u, 1, relu=True)
    v = net.conv(a4, 3, residual=u)
    pv = net.pool(v)
    wv = net.conv("%x", 3, relu=True)
    a5 = net.conv(wv, 3, relu=True)
    p = net.conv(a5, 3, residual=wv, relu=True)
    r = net.conv(wv, 3, residual=p)
    m = net.conv("%x", 3, relu=True)
    z = net.conv(m, 3, residual=m, relu=True)
    z2 = net.conv(z, 1)
    results = [pt, pu, pv, net.pool(o), r, z2]
    module = net.function("main", "%x", results)

    xs = rng.uniform(-1, 1, size=(1, c, 5, 6)).astype(np.float32)
    np.save(os.path.join(outdir, "in1.npy"), xs)
    static = Net(c, "!relax.tensor<[1, %d, 5, 6], f32>" % c,
                 np.random.default_rng(1))
    static.vals["%x"] = xs.astype(np.float64)
    k = static.weight(1, c, 5, 6)
    kname = static.const(k)
    static.vals[kname] = k.astype(np.float64)
    q = static.pool(static.conv("%x", 3, residual=kname, relu=True))
    module += static.function("const_residual", "%x", [q])

    outs = [net.vals[name] for name in results] + [static.vals[q]]
    for i, out in enumerate(outs):
        np.save(os.path.join(outdir, "out%d.npy" % i), out.astype(np.float32))
    with open(os.path.join(outdir, "model.mlir"), "w") as f:
        f.write(module)


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:6]),
         int(sys.argv[6]) if len(sys.argv) > 6 else 16)
