"""Module, inputs and numpy references for conv-epilogue.mlir.

usage: conv_epilogue.py OUTDIR N H W SEED [C]

Writes OUTDIR/model.mlir (symbolic n, h, w; weights and biases are
relax.constant, seeded with 0, so the convolutions take the fused
built-in), OUTDIR/in<i>.npy (seeded with SEED) and OUTDIR/out<i>.npy:
  0: a ResNet basic block, f32: relu(conv(relu(conv(x) + b1)) + b2 + x),
     3x3 pad 1 (the first output stays NHWC, read in place by the second)
  1: conv(x) + b3, 3x3 stride 2 pad 1, the bias a [1, 8, 1, 1] constant
  2, 3: u = relu(conv1x1(x)) (no bias) read by two convs (u stays NHWC),
     conv(u) + b5 and relu(conv(u) + x)
  4: the block of 0 in f64 (the runtime's general path: im2col + GEMM,
     then the epilogue through the NHWC view)
  5: an NHWC input xh read as NCHW through permute_dims [0, 3, 1, 2]:
     relu(conv(v) + b7 + v) for v = that view, read in place as input and
     as residual
  6: a ResNet bottleneck with a shortcut conv and the next block's conv:
     r = relu(conv1x1(relu(conv1x1(x))) + b8 + conv1x1(x) + b9),
     conv(r) + b10 + r (3x3 pad 1); the shortcut conv comes after the
     block's last conv, which absorbs the add first, and writes NHWC for
     it; r stays NHWC, read as input and as residual
  7, 8: t = conv(conv1x1(u, stride 2) + b11) + b12 (3x3 pad 1), read by a
     3x3 max pool (stride 1, pad 1: output 7) and as input and residual by
     relu(conv1x1(t) + b13 + t) (output 8): u and the strided conv's output
     are conv-private (blocked where the runtime's block divides C), t is
     NCHW (the pool reads it)
References in float64 (ref.conv2d_ref), cast to each output's dtype. The
f32 convolutions have C channels (default 16; pool-pieces.test uses 64,
which the runtime's pool cuts into pieces of output channels).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from ref import conv2d_ref, pool2d_ref  # noqa: E402

C = 16


def dense(a):
    # The raw little-endian bytes: exact, and short to parse.
    return 'dense<"0x%s"> : tensor<%s>' % (
        a.tobytes().hex().upper(), "x".join(str(d) for d in a.shape) + "x" +
        ("f32" if a.dtype == np.float32 else "f64"))


def main(outdir, n, h, w, seed):
    os.makedirs(outdir, exist_ok=True)
    wr = np.random.default_rng(0)

    def weight(*shape, dtype=np.float32):
        return (wr.uniform(-1, 1, size=shape) / np.sqrt(np.prod(shape[1:]))
                ).astype(dtype)

    w1, b1 = weight(C, C, 3, 3), weight(C)
    w2, b2 = weight(C, C, 3, 3), weight(C)
    w3, b3 = weight(C, C, 3, 3), weight(1, C, 1, 1)
    w4 = weight(C, C, 1, 1)
    w5, b5 = weight(C, C, 3, 3), weight(C)
    w6 = weight(C, C, 3, 3)
    w7, b7 = weight(C, C, 3, 3), weight(C)
    w8a, w8b, b8 = weight(C, C, 1, 1), weight(C, C, 1, 1), weight(C)
    w9, b9 = weight(C, C, 1, 1), weight(C)
    w10, b10 = weight(C, C, 3, 3), weight(C)
    w11, b11 = weight(C, C, 1, 1), weight(C)
    w12, b12 = weight(C, C, 3, 3), weight(C)
    w13, b13 = weight(C, C, 1, 1), weight(C)
    v1, c1 = weight(4, 4, 3, 3, dtype=np.float64), weight(4, dtype=np.float64)
    v2, c2 = weight(4, 4, 3, 3, dtype=np.float64), weight(4, dtype=np.float64)

    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size=(n, C, h, w)).astype(np.float32)
    xd = rng.uniform(-1, 1, size=(n, 4, h, w))
    np.save(os.path.join(outdir, "in0.npy"), x)
    np.save(os.path.join(outdir, "in1.npy"), xd)
    xh = rng.uniform(-1, 1, size=(n, h, w, C)).astype(np.float32)
    np.save(os.path.join(outdir, "in2.npy"), xh)
    v = xh.transpose(0, 3, 1, 2).astype(np.float64)

    def bias(b):
        return b.reshape(1, -1, 1, 1).astype(np.float64)

    def relu(a):
        return np.maximum(a, 0)

    def block(x, w1, b1, w2, b2):
        y = relu(conv2d_ref(x.astype(np.float64), w1, padding=[1]) + bias(b1))
        return relu(conv2d_ref(y, w2, padding=[1]) + bias(b2) + x)

    u = relu(conv2d_ref(x.astype(np.float64), w4))
    outs = [block(x, w1, b1, w2, b2).astype(np.float32),
            (conv2d_ref(x.astype(np.float64), w3, strides=[2], padding=[1]) +
             b3).astype(np.float32),
            (conv2d_ref(u, w5, padding=[1]) + bias(b5)).astype(np.float32),
            relu(conv2d_ref(u, w6, padding=[1]) + x).astype(np.float32),
            block(xd, v1, c1, v2, c2),
            relu(conv2d_ref(v, w7, padding=[1]) + bias(b7) + v
                 ).astype(np.float32)]
    xf = x.astype(np.float64)
    r = relu(conv2d_ref(relu(conv2d_ref(xf, w8a)), w8b) + bias(b8) +
             conv2d_ref(xf, w9) + bias(b9))
    outs.append((conv2d_ref(r, w10, padding=[1]) + bias(b10) + r
                 ).astype(np.float32))
    t = (conv2d_ref(conv2d_ref(u, w11, strides=[2]) + bias(b11), w12,
                    padding=[1]) + bias(b12))
    outs.append(pool2d_ref(t, [3], padding=[1]).astype(np.float32))
    outs.append(relu(conv2d_ref(t, w13) + bias(b13) + t).astype(np.float32))
    for i, o in enumerate(outs):
        np.save(os.path.join(outdir, "out%d.npy" % i), o)

    t = "!relax.tensor<[n, %d, h, w], %s>"
    x8, x4 = t % (C, "f32"), t % (4, "f64")
    half = "!relax.tensor<[n, %d, (h + 1) floordiv 2, (w + 1) floordiv 2], f32>" % C
    w3x3 = "!relax.tensor<[%d, %d, 3, 3], %s>"

    def conv(res, inp, wt, ty_in, ty_w, ty_out, attrs="{padding = array<i64: 1>}"):
        return ("  %s = relax.conv2d %s, %s %s : (%s, %s) -> %s\n"
                % (res, inp, wt, attrs, ty_in, ty_w, ty_out))

    def add(res, a, b, ta, tb, tr):
        return "  %s = relax.add %s, %s : (%s, %s) -> %s\n" % (res, a, b, ta, tb, tr)

    def relu_op(res, a, ty):
        return "  %s = relax.relu %s : (%s) -> %s\n" % (res, a, ty, ty)

    def const(res, a):
        return "  %s = relax.constant %s\n" % (res, dense(a))

    def expand(res, a, ty, count):
        return ("  %s = relax.expand_dims %s {axes = array<i64: 1, 2>} : "
                "(!relax.tensor<[%d], %s>) -> !relax.tensor<[%d, 1, 1], %s>\n"
                % (res, a, count, ty, count, ty))

    def block_ir(p, x, ty, dt, c, wa, ba, wb, bb):
        wty = w3x3 % (c, c, dt)
        bty = "!relax.tensor<[%d, 1, 1], %s>" % (c, dt)
        return (const("%" + p + "w1", wa) + conv("%" + p + "c1", x, "%" + p + "w1", ty, wty, ty) +
                const("%" + p + "b1", ba) + expand("%" + p + "e1", "%" + p + "b1", dt, c) +
                add("%" + p + "a1", "%" + p + "c1", "%" + p + "e1", ty, bty, ty) +
                relu_op("%" + p + "r1", "%" + p + "a1", ty) +
                const("%" + p + "w2", wb) + conv("%" + p + "c2", "%" + p + "r1", "%" + p + "w2", ty, wty, ty) +
                const("%" + p + "b2", bb) + expand("%" + p + "e2", "%" + p + "b2", dt, c) +
                add("%" + p + "a2", "%" + p + "c2", "%" + p + "e2", ty, bty, ty) +
                add("%" + p + "a3", "%" + p + "a2", x, ty, ty, ty) +
                relu_op("%" + p + "r2", "%" + p + "a3", ty))

    body = block_ir("k", "%x", x8, "f32", C, w1, b1, w2, b2)
    body += const("%w3", w3) + conv("%s1", "%x", "%w3", x8, w3x3 % (C, C, "f32"), half,
                                    "{padding = array<i64: 1>, strides = array<i64: 2>}")
    body += const("%b3", b3) + add("%s2", "%s1", "%b3", half, "!relax.tensor<[1, %d, 1, 1], f32>" % C, half)
    body += const("%w4", w4) + conv("%u0", "%x", "%w4", x8, "!relax.tensor<[%d, %d, 1, 1], f32>" % (C, C), x8, "")
    body += relu_op("%u", "%u0", x8)
    body += const("%w5", w5) + conv("%p0", "%u", "%w5", x8, w3x3 % (C, C, "f32"), x8)
    body += const("%b5", b5) + expand("%e5", "%b5", "f32", C)
    body += add("%p", "%p0", "%e5", x8, "!relax.tensor<[%d, 1, 1], f32>" % C, x8)
    body += const("%w6", w6) + conv("%q0", "%u", "%w6", x8, w3x3 % (C, C, "f32"), x8)
    body += add("%q1", "%q0", "%x", x8, x8, x8) + relu_op("%q", "%q1", x8)
    body += block_ir("d", "%xd", x4, "f64", 4, v1, c1, v2, c2)
    nhwc = "!relax.tensor<[n, h, w, %d], f32>" % C
    body += ("  %%v = relax.permute_dims %%xh {axes = array<i64: 0, 3, 1, 2>} : "
             "(%s) -> %s\n" % (nhwc, x8))
    body += const("%w7", w7) + conv("%g0", "%v", "%w7", x8, w3x3 % (C, C, "f32"), x8)
    body += const("%b7", b7) + expand("%e7", "%b7", "f32", C)
    body += add("%g1", "%g0", "%e7", x8, "!relax.tensor<[%d, 1, 1], f32>" % C, x8)
    body += add("%g2", "%g1", "%v", x8, x8, x8) + relu_op("%g", "%g2", x8)
    w1x1 = "!relax.tensor<[%d, %d, 1, 1], f32>" % (C, C)
    bty = "!relax.tensor<[%d, 1, 1], f32>" % C
    body += const("%w8a", w8a) + conv("%h0", "%x", "%w8a", x8, w1x1, x8, "")
    body += relu_op("%h1", "%h0", x8)
    body += const("%w8b", w8b) + conv("%h2", "%h1", "%w8b", x8, w1x1, x8, "")
    body += const("%b8", b8) + expand("%e8", "%b8", "f32", C)
    body += add("%h3", "%h2", "%e8", x8, bty, x8)
    body += const("%w9", w9) + conv("%sc0", "%x", "%w9", x8, w1x1, x8, "")
    body += const("%b9", b9) + expand("%e9", "%b9", "f32", C)
    body += add("%sc", "%sc0", "%e9", x8, bty, x8)
    body += add("%h4", "%h3", "%sc", x8, x8, x8) + relu_op("%br", "%h4", x8)
    body += const("%w10", w10) + conv("%n0", "%br", "%w10", x8, w3x3 % (C, C, "f32"), x8)
    body += const("%b10", b10) + expand("%e10", "%b10", "f32", C)
    body += add("%n1", "%n0", "%e10", x8, bty, x8)
    body += add("%nb", "%n1", "%br", x8, x8, x8)
    w1h = "!relax.tensor<[%d, %d, 1, 1], f32>" % (C, C)
    body += const("%w11", w11) + conv("%t0", "%u", "%w11", x8, w1h, half,
                                      "{strides = array<i64: 2>}")
    body += const("%b11", b11) + expand("%e11", "%b11", "f32", C)
    body += add("%t1", "%t0", "%e11", half, bty, half)
    body += const("%w12", w12) + conv("%t2", "%t1", "%w12", half, w3x3 % (C, C, "f32"), half)
    body += const("%b12", b12) + expand("%e12", "%b12", "f32", C)
    body += add("%t", "%t2", "%e12", half, bty, half)
    body += ("  %%pool = relax.max_pool2d %%t {padding = array<i64: 1>, "
             "pool_size = array<i64: 3>} : (%s) -> %s\n" % (half, half))
    body += const("%w13", w13) + conv("%m0", "%t", "%w13", half, w1h, half, "")
    body += const("%b13", b13) + expand("%e13", "%b13", "f32", C)
    body += add("%m1", "%m0", "%e13", half, bty, half)
    body += add("%m2", "%m1", "%t", half, half, half) + relu_op("%m", "%m2", half)
    results = [x8, half, x8, x8, x4, x8, x8, half, half]
    module = ("relax.func @main(%%x: %s, %%xd: %s, %%xh: %s)\n    -> (%s) {\n%s"
              "  relax.return %%kr2, %%s2, %%p, %%q, %%dr2, %%g, %%nb, %%pool, %%m"
              " : %s\n}\n"
              % (x8, x4, nhwc, ", ".join(results), body, ", ".join(results)))
    with open(os.path.join(outdir, "model.mlir"), "w") as f:
        f.write(module)


if __name__ == "__main__":
    if len(sys.argv) > 6:
        C = int(sys.argv[6])
    main(sys.argv[1], *(int(a) for a in sys.argv[2:6]))
