"""Module, inputs and numpy references for conv-depthwise.test.

usage: depthwise_conv.py OUTDIR N H W SEED C

Writes OUTDIR/model.mlir (symbolic n, h, w; weights and biases are
relax.constant, seeded with 0, so the convolutions take the runtime's
oneDNN convolution), OUTDIR/in0.npy (x [n, C, h, w], seeded with SEED) and
OUTDIR/out<i>.npy:
  0: ConvNeXt's depthwise 7x7, pad 3, + bias
  1: MobileNet's depthwise 3x3 stride 2 pad 1, + bias, ReLU
  2: a grouped 3x3 pad 1 conv, 4 groups of C/4 channels, 2 outputs per
     input channel (o = 2C)
  3: output 0 again, read only channels-last (permute_dims [0, 2, 3, 1],
     [n, h, w, C]): the convolution writes NHWC itself
References in float64 (ref.conv2d_ref), cast to f32.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from ref import conv2d_ref  # noqa: E402


def dense(a):
    return 'dense<"0x%s"> : tensor<%s>' % (
        a.tobytes().hex().upper(), "x".join(str(d) for d in a.shape) + "xf32")


def main(outdir, n, h, w, seed, c):
    os.makedirs(outdir, exist_ok=True)
    wr = np.random.default_rng(0)

    def weight(*shape):
        return (wr.uniform(-1, 1, size=shape) / np.sqrt(np.prod(shape[1:]))
                ).astype(np.float32)

    w0, b0 = weight(c, 1, 7, 7), weight(c)
    w1, b1 = weight(c, 1, 3, 3), weight(c)
    w2 = weight(2 * c, c // 4, 3, 3)
    x = np.random.default_rng(seed).uniform(-1, 1, size=(n, c, h, w)).astype(
        np.float32)
    np.save(os.path.join(outdir, "in0.npy"), x)
    x64 = x.astype(np.float64)

    def bias(b):
        return b.reshape(1, -1, 1, 1).astype(np.float64)

    outs = [conv2d_ref(x64, w0, padding=[3], groups=c) + bias(b0),
            np.maximum(conv2d_ref(x64, w1, strides=[2], padding=[1],
                                  groups=c) + bias(b1), 0),
            conv2d_ref(x64, w2, padding=[1], groups=4)]
    outs.append(outs[0].transpose(0, 2, 3, 1))
    for i, o in enumerate(outs):
        np.save(os.path.join(outdir, "out%d.npy" % i), o.astype(np.float32))

    def ty(ch, hh="h", ww="w"):
        return "!relax.tensor<[n, %d, %s, %s], f32>" % (ch, hh, ww)

    xt, half = ty(c), ty(c, "(h + 1) floordiv 2", "(w + 1) floordiv 2")
    wide = ty(2 * c)
    bty = "!relax.tensor<[%d, 1, 1], f32>" % c
    lines = []

    def op(text):
        lines.append("  " + text + "\n")

    def wty(a):
        return "!relax.tensor<[%s], f32>" % ", ".join(str(d) for d in a.shape)

    def conv(res, wname, wt, attrs, out):
        op("%s = relax.constant %s" % (wname, dense(wt)))
        op("%s = relax.conv2d %%x, %s {%s} : (%s, %s) -> %s"
           % (res, wname, attrs, xt, wty(wt), out))

    def add_bias(res, inp, bname, b, out):
        op("%s = relax.constant %s" % (bname, dense(b.reshape(-1, 1, 1))))
        op("%s = relax.add %s, %s : (%s, %s) -> %s" % (res, inp, bname, out, bty, out))

    conv("%c0", "%w0", w0, "padding = array<i64: 3>, groups = %d" % c, xt)
    add_bias("%y0", "%c0", "%b0", b0, xt)
    conv("%c1", "%w1", w1,
         "padding = array<i64: 1>, strides = array<i64: 2>, groups = %d" % c,
         half)
    add_bias("%a1", "%c1", "%b1", b1, half)
    op("%%y1 = relax.relu %%a1 : (%s) -> %s" % (half, half))
    conv("%y2", "%w2", w2, "padding = array<i64: 1>, groups = 4", wide)
    conv("%c3", "%w3", w0, "padding = array<i64: 3>, groups = %d" % c, xt)
    add_bias("%a3", "%c3", "%b3", b0, xt)
    last = "!relax.tensor<[n, h, w, %d], f32>" % c
    op("%%y3 = relax.permute_dims %%a3 {axes = array<i64: 0, 2, 3, 1>} : "
       "(%s) -> %s" % (xt, last))
    results = [xt, half, wide, last]
    with open(os.path.join(outdir, "model.mlir"), "w") as f:
        f.write("relax.func @main(%%x: %s)\n    -> (%s) {\n%s"
                "  relax.return %%y0, %%y1, %%y2, %%y3 : %s\n}\n"
                % (xt, ", ".join(results), "".join(lines), ", ".join(results)))


if __name__ == "__main__":
    main(sys.argv[1], *(int(a) for a in sys.argv[2:7]))
