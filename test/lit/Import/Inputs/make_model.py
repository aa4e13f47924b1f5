"""Writes the small ONNX models (and numpy inputs/references) that the
importer tests use, built at test time with onnx.helper.

usage: make_model.py KIND OUTDIR [ARGS...]

(`encoder` takes the sequence lengths to write data for.)

Every model is saved as OUTDIR/model.onnx; where a test runs the imported
module, the inputs are OUTDIR/in<i>.npy and the numpy references
OUTDIR/out<i>.npy.
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def save(outdir, graph, opset=13, inputs=(), outputs=()):
    os.makedirs(outdir, exist_ok=True)
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, os.path.join(outdir, "model.onnx"))
    for i, a in enumerate(inputs):
        np.save(os.path.join(outdir, "in%d.npy" % i), a)
    for i, a in enumerate(outputs):
        np.save(os.path.join(outdir, "out%d.npy" % i), a)


def mlp(outdir):
    """dim_param, an unnamed dynamic dim, small and large initializers."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 8])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, [None, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 16])
    y2 = helper.make_tensor_value_info("y2", TensorProto.FLOAT, [None, 3])
    w = rng.standard_normal((8, 16)).astype(np.float32)
    b = np.arange(16, dtype=np.float32) * 0.25
    c = np.array([1.0, -2.0, 3.0], dtype=np.float32)
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["h"], name="matmul0"),
        helper.make_node("Add", ["h", "b"], ["a"], name="add0"),
        helper.make_node("Relu", ["a"], ["y"], name="relu0"),
        helper.make_node("Mul", ["z", "c"], ["y2"], name="scale0"),
    ]
    graph = helper.make_graph(
        nodes, "mlp", [x, z], [y, y2],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"),
         numpy_helper.from_array(c, "c")])
    xv = rng.standard_normal((5, 8)).astype(np.float32)
    zv = rng.standard_normal((7, 3)).astype(np.float32)
    save(outdir, graph, inputs=[xv, zv],
         outputs=[np.maximum(xv @ w + b, 0), zv * c])


def shapes(outdir):
    """Shape -> Gather -> Mul/Concat -> Reshape stays symbolic."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      ["batch", "seq", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    s = helper.make_tensor_value_info("s", TensorProto.INT64, None)
    i0 = numpy_helper.from_array(np.array([0], np.int64), "i0")
    i1 = numpy_helper.from_array(np.array(1, np.int64), "i1")
    four = numpy_helper.from_array(np.array(4, np.int64), "four")
    ax = numpy_helper.from_array(np.array([0], np.int64), "ax")
    nodes = [
        helper.make_node("Shape", ["x"], ["shp"], name="shape0"),
        helper.make_node("Gather", ["shp", "i0"], ["b"], name="gather_b"),
        helper.make_node("Gather", ["shp", "i1"], ["sq"], name="gather_s"),
        helper.make_node("Mul", ["sq", "four"], ["sq4"], name="mul0"),
        helper.make_node("Unsqueeze", ["sq4", "ax"], ["sq4v"], name="unsq0"),
        helper.make_node("Concat", ["b", "sq4v"], ["target"], axis=0,
                         name="concat0"),
        helper.make_node("Reshape", ["x", "target"], ["y"], name="reshape0"),
        helper.make_node("Shape", ["y"], ["s"], name="shape1"),
    ]
    graph = helper.make_graph(nodes, "shapes", [x], [y, s],
                              [i0, i1, four, ax])
    xv = rng.standard_normal((2, 3, 4)).astype(np.float32)
    save(outdir, graph, inputs=[xv],
         outputs=[xv.reshape(2, 12), np.array([2, 12], np.int64)])


def dims(outdir):
    """dim_param expressions, an undecided broadcast and opset 18 forms."""
    past = helper.make_tensor_value_info("past", TensorProto.FLOAT,
                                         ["batch", "past_sequence"])
    new = helper.make_tensor_value_info("new", TensorProto.FLOAT,
                                        ["batch", "sequence"])
    mask = helper.make_tensor_value_info("mask", TensorProto.FLOAT,
                                         ["batch", "past_sequence + sequence"])
    row = helper.make_tensor_value_info("row", TensorProto.FLOAT, ["m"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, None)
    axes = numpy_helper.from_array(np.array([1], np.int64), "axes")
    nodes = [
        helper.make_node("Concat", ["past", "new"], ["cat"], axis=1),
        helper.make_node("Mul", ["cat", "mask"], ["masked"]),
        # [batch, past_sequence + sequence] with [m]: m is not provably
        # either, so the dim is max(m, past_sequence + sequence).
        helper.make_node("Add", ["masked", "row"], ["y"]),
        # Opset 18: the axes are an input.
        helper.make_node("ReduceMean", ["y", "axes"], ["z"], keepdims=0),
    ]
    graph = helper.make_graph(nodes, "dims", [past, new, mask, row], [y, z],
                              [axes])
    p, n = rng.standard_normal((2, 3)).astype(np.float32), \
        rng.standard_normal((2, 2)).astype(np.float32)
    m = rng.standard_normal((2, 5)).astype(np.float32)
    r = rng.standard_normal((1,)).astype(np.float32)
    yv = np.concatenate([p, n], 1) * m + r
    save(outdir, graph, opset=18, inputs=[p, n, m, r],
         outputs=[yv, yv.mean(axis=1)])
    np.save(os.path.join(outdir, "row_bad.npy"),
            rng.standard_normal((3,)).astype(np.float32))


def runtime_values(outdir):
    """Sizes, bounds and lengths that are run-time data become dims bound at
    run time: Split sizes, OneHot depth, Range limits, Slice bounds,
    Expand and ConstantOfShape of a graph-input shape, Tile repeats, Pad
    pads."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])
    sizes = helper.make_tensor_value_info("sizes", TensorProto.INT64, [2])
    depth = helper.make_tensor_value_info("depth", TensorProto.INT64, [])
    ids = helper.make_tensor_value_info("ids", TensorProto.INT64, ["k"])
    limit = helper.make_tensor_value_info("limit", TensorProto.FLOAT, [])
    starts = helper.make_tensor_value_info("starts", TensorProto.INT64, [1])
    shape = helper.make_tensor_value_info("shape", TensorProto.INT64, [3])
    reps = helper.make_tensor_value_info("reps", TensorProto.INT64, [2])
    pads = helper.make_tensor_value_info("pads", TensorProto.INT64, [4])
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
            for n in ("a", "b", "onehot", "range", "sliced", "expanded",
                      "filled", "tiled", "padded")]
    inits = [numpy_helper.from_array(np.array([0.0, 1.0], np.float32), "vals"),
             numpy_helper.from_array(np.array(0.5, np.float32), "start"),
             numpy_helper.from_array(np.array(1.5, np.float32), "delta"),
             numpy_helper.from_array(np.array([2**63 - 1], np.int64), "end"),
             numpy_helper.from_array(np.array([0], np.int64), "axis0")]
    nodes = [
        helper.make_node("Split", ["x", "sizes"], ["a", "b"], axis=0),
        helper.make_node("OneHot", ["ids", "depth", "vals"], ["onehot"]),
        helper.make_node("Range", ["start", "limit", "delta"], ["range"]),
        helper.make_node("Slice", ["x", "starts", "end", "axis0"], ["sliced"]),
        helper.make_node("Expand", ["a", "shape"], ["expanded"]),
        helper.make_node("ConstantOfShape", ["shape"], ["filled"],
                         value=numpy_helper.from_array(
                             np.array([2.0], np.float32))),
        helper.make_node("Tile", ["x", "reps"], ["tiled"]),
        helper.make_node("Pad", ["x", "pads"], ["padded"], mode="edge"),
    ]
    xv = np.arange(15, dtype=np.float32).reshape(5, 3)
    iv = np.array([0, 3, 1], np.int64)
    shp = np.array([4, 2, 3], np.int64)
    inputs = [xv, np.array([2, 3], np.int64), np.array(4, np.int64), iv,
              np.array(6.0, np.float32), np.array([-2], np.int64), shp,
              np.array([2, 3], np.int64), np.array([1, 0, 2, 1], np.int64)]
    expected = [xv[:2], xv[2:], np.eye(4, dtype=np.float32)[iv],
                np.arange(0.5, 6.0, 1.5, dtype=np.float32), xv[-2:],
                np.broadcast_to(xv[:2], (4, 2, 3)).copy(),
                np.full((4, 2, 3), 2.0, np.float32), np.tile(xv, (2, 3)),
                np.pad(xv, ((1, 2), (0, 1)), mode="edge")]
    save(outdir, helper.make_graph(nodes, "runtime_values",
                                   [x, sizes, depth, ids, limit, starts,
                                    shape, reps, pads], outs, inits),
         inputs=inputs, outputs=expected)
    np.save(os.path.join(outdir, "sizes_bad.npy"), np.array([2, 2], np.int64))
    np.save(os.path.join(outdir, "shape_bad.npy"),
            np.array([4, 3, 3], np.int64))


def unsupported_op(outdir):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])
    node = helper.make_node("Det", ["x"], ["y"], name="my_det")
    save(outdir, helper.make_graph([node], "g", [x], [y]), opset=15)


def unsupported_attr(outdir):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 4])
    node = helper.make_node("Relu", ["x"], ["y"], name="relu_with_extra",
                            mystery=3)
    save(outdir, helper.make_graph([node], "g", [x], [y]), opset=14)


def undefined_input(outdir):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])
    node = helper.make_node("Add", ["x", "nowhere"], ["y"], name="add_bad")
    save(outdir, helper.make_graph([node], "g", [x], [y]))


def runtime_shape(outdir):
    """A Reshape whose target is a graph input (run-time data)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 4])
    t = helper.make_tensor_value_info("t", TensorProto.INT64, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    node = helper.make_node("Reshape", ["x", "t"], ["y"], name="reshape_rt")
    save(outdir, helper.make_graph([node], "g", [x, t], [y]))


def split_sizes(outdir, rows, opset):
    """Split with constant sizes [2, 3] over an axis of `rows` ('n' for a
    dim_param): the sizes must add up to the axis. Opset 13 takes them as an
    initializer input, opset 11 as the 'split' attribute."""
    opset = int(opset)
    dim = rows if rows == "n" else int(rows)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [dim, 3])
    y0 = helper.make_tensor_value_info("y0", TensorProto.FLOAT, None)
    y1 = helper.make_tensor_value_info("y1", TensorProto.FLOAT, None)
    if opset >= 13:
        sizes = numpy_helper.from_array(np.array([2, 3], np.int64), "sizes")
        node = helper.make_node("Split", ["x", "sizes"], ["y0", "y1"],
                                name="split_23", axis=0)
        inits = [sizes]
    else:
        node = helper.make_node("Split", ["x"], ["y0", "y1"],
                                name="split_23", axis=0, split=[2, 3])
        inits = []
    save(outdir, helper.make_graph([node], "g", [x], [y0, y1], inits),
         opset=opset)


def bad_initializer(outdir):
    """An initializer whose raw data is shorter than its shape needs."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])
    w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[4],
                    raw_data=b"\0" * 12)
    node = helper.make_node("Add", ["x", "w"], ["y"], name="add0")
    save(outdir, helper.make_graph([node], "g", [x], [y], [w]))


def maxpool_indices(outdir):
    """MaxPool with its Indices output over a dim_param batch, with padding
    (3x3 window, stride 2, pads 1) and numpy references."""
    n, c, h, w = 3, 2, 5, 6
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", c, h, w])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    i = helper.make_tensor_value_info("i", TensorProto.INT64, None)
    node = helper.make_node("MaxPool", ["x"], ["y", "i"], name="pool0",
                            kernel_shape=[3, 3], strides=[2, 2],
                            pads=[1, 1, 1, 1])
    xv = rng.standard_normal((n, c, h, w)).astype(np.float32)
    oh, ow = (h + 2 - 3) // 2 + 1, (w + 2 - 3) // 2 + 1
    yv = np.zeros((n, c, oh, ow), np.float32)
    iv = np.zeros((n, c, oh, ow), np.int64)
    for a in range(n):
        for b in range(c):
            for p in range(oh):
                for q in range(ow):
                    best, arg = -np.inf, -1
                    for r in range(p * 2 - 1, p * 2 + 2):
                        for s_ in range(q * 2 - 1, q * 2 + 2):
                            if 0 <= r < h and 0 <= s_ < w and xv[a, b, r, s_] > best:
                                best, arg = xv[a, b, r, s_], ((a * c + b) * h + r) * w + s_
                    yv[a, b, p, q], iv[a, b, p, q] = best, arg
    save(outdir, helper.make_graph([node], "g", [x], [y, i]), opset=12,
         inputs=[xv], outputs=[yv, iv])


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def save_data(outdir, name, inputs, outputs):
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    for i, a in enumerate(inputs):
        np.save(os.path.join(d, "in%d.npy" % i), a)
    for i, a in enumerate(outputs):
        np.save(os.path.join(d, "out%d.npy" % i), a)


def attention(outdir):
    """A self-attention block over [batch, seq, 8] with 2 heads: the head
    split and merge reshape targets come from Shape/Gather/Concat, then a
    residual LayerNormalization. Data for (batch, seq) = (2, 3) and (1, 5)."""
    dm, heads, hd = 8, 2, 4
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      ["batch", "seq", dm])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                      ["batch", "seq", dm])
    ws = {n: rng.standard_normal((dm, dm)).astype(np.float32) * 0.5
          for n in ("wq", "wk", "wv")}
    gamma = (1 + 0.1 * rng.standard_normal(dm)).astype(np.float32)
    beta = (0.1 * rng.standard_normal(dm)).astype(np.float32)
    inits = [numpy_helper.from_array(v, k) for k, v in ws.items()] + [
        numpy_helper.from_array(gamma, "gamma"),
        numpy_helper.from_array(beta, "beta"),
        numpy_helper.from_array(np.array([0, 1], np.int64), "idx01"),
        numpy_helper.from_array(np.array([heads, hd], np.int64), "hsplit"),
        numpy_helper.from_array(np.array([dm], np.int64), "dmodel"),
        numpy_helper.from_array(np.array(np.sqrt(hd), np.float32), "scale"),
    ]
    N = helper.make_node
    nodes = [
        N("Shape", ["x"], ["xs"]),
        N("Gather", ["xs", "idx01"], ["bs"]),
        N("Concat", ["bs", "hsplit"], ["split_shape"], axis=0),
        N("Concat", ["bs", "dmodel"], ["merge_shape"], axis=0),
    ]
    for t, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]),
                    ("v", [0, 2, 1, 3])):
        nodes += [N("MatMul", ["x", "w" + t], [t + "0"]),
                  N("Reshape", [t + "0", "split_shape"], [t + "1"]),
                  N("Transpose", [t + "1"], [t], perm=perm)]
    nodes += [
        N("MatMul", ["q", "k"], ["s0"]),
        N("Div", ["s0", "scale"], ["s1"]),
        N("Softmax", ["s1"], ["p"], axis=-1),
        N("MatMul", ["p", "v"], ["o0"]),
        N("Transpose", ["o0"], ["o1"], perm=[0, 2, 1, 3]),
        N("Reshape", ["o1", "merge_shape"], ["o"]),
        N("Add", ["o", "x"], ["r"]),
        N("LayerNormalization", ["r", "gamma", "beta"], ["y"], axis=-1,
          epsilon=1e-5),
    ]
    save(outdir, helper.make_graph(nodes, "attention", [x], [y], inits),
         opset=17)
    for name, (b, sq) in (("a", (2, 3)), ("b", (1, 5))):
        xv = rng.standard_normal((b, sq, dm)).astype(np.float32)
        def heads_of(w):
            return (xv @ w).reshape(b, sq, heads, hd).transpose(0, 2, 1, 3)
        q, k, v = heads_of(ws["wq"]), heads_of(ws["wk"]), heads_of(ws["wv"])
        p = np_softmax(q @ k.transpose(0, 1, 3, 2) / np.sqrt(hd))
        o = (p @ v).transpose(0, 2, 1, 3).reshape(b, sq, dm) + xv
        mu = o.mean(-1, keepdims=True)
        var = ((o - mu) ** 2).mean(-1, keepdims=True)
        yv = (o - mu) / np.sqrt(var + 1e-5) * gamma + beta
        save_data(outdir, name, [xv], [yv.astype(np.float32)])


def encoder(outdir, *seqs):
    """A BERT-style encoder layer (post-norm) over [batch, seq, 32] with 2
    heads of 16: Q/K/V projections with biases, scaled scores plus the
    additive mask (1 - attention_mask) * -10000, softmax, output projection,
    residual LayerNormalization, an Erf-GELU feed-forward of width 64 and a
    second residual LayerNormalization. Data for batch 1 and each sequence
    length in `seqs` (default 7), the last 3 positions masked."""
    dm, heads, hd, ff = 32, 2, 16, 64
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      ["batch", "seq", dm])
    mask = helper.make_tensor_value_info("attention_mask", TensorProto.INT64,
                                         ["batch", "seq"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                      ["batch", "seq", dm])
    def f(*shape, scale=0.2):
        return (rng.standard_normal(shape) * scale).astype(np.float32)
    w = dict(wq=f(dm, dm), wk=f(dm, dm), wv=f(dm, dm), wo=f(dm, dm),
             bq=f(dm), bk=f(dm), bv=f(dm), bo=f(dm), w1=f(dm, ff),
             b1=f(ff), w2=f(ff, dm), b2=f(dm), g1=1 + f(dm), be1=f(dm),
             g2=1 + f(dm), be2=f(dm))
    inits = [numpy_helper.from_array(v, k) for k, v in w.items()] + [
        numpy_helper.from_array(np.array([0, 0, heads, hd], np.int64),
                                "hsplit"),
        numpy_helper.from_array(np.array([0, 0, dm], np.int64), "hmerge"),
        numpy_helper.from_array(np.array([1, 2], np.int64), "mask_axes"),
        numpy_helper.from_array(np.array(np.sqrt(hd), np.float32), "scale"),
        numpy_helper.from_array(np.array(1.0, np.float32), "one"),
        numpy_helper.from_array(np.array(-10000.0, np.float32), "neg"),
        numpy_helper.from_array(np.array(0.5, np.float32), "half"),
        numpy_helper.from_array(np.array(np.sqrt(2.0), np.float32), "sqrt2"),
    ]
    N = helper.make_node
    nodes = [
        N("Cast", ["attention_mask"], ["mf"], to=TensorProto.FLOAT),
        N("Unsqueeze", ["mf", "mask_axes"], ["m4"]),
        N("Sub", ["one", "m4"], ["m5"]),
        N("Mul", ["m5", "neg"], ["madd"]),
    ]
    for t, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]),
                    ("v", [0, 2, 1, 3])):
        nodes += [N("MatMul", ["x", "w" + t], [t + "0"]),
                  N("Add", [t + "0", "b" + t], [t + "1"]),
                  N("Reshape", [t + "1", "hsplit"], [t + "2"]),
                  N("Transpose", [t + "2"], [t], perm=perm)]
    nodes += [
        N("MatMul", ["q", "k"], ["s0"]),
        N("Div", ["s0", "scale"], ["s1"]),
        N("Add", ["s1", "madd"], ["s2"]),
        N("Softmax", ["s2"], ["p"], axis=-1),
        N("MatMul", ["p", "v"], ["o0"]),
        N("Transpose", ["o0"], ["o1"], perm=[0, 2, 1, 3]),
        N("Reshape", ["o1", "hmerge"], ["o2"]),
        N("MatMul", ["o2", "wo"], ["o3"]),
        N("Add", ["o3", "bo"], ["o4"]),
        N("Add", ["o4", "x"], ["r1"]),
        N("LayerNormalization", ["r1", "g1", "be1"], ["h1"], axis=-1,
          epsilon=1e-12),
        N("MatMul", ["h1", "w1"], ["f0"]),
        N("Add", ["f0", "b1"], ["f1"]),
        N("Div", ["f1", "sqrt2"], ["f2"]),
        N("Erf", ["f2"], ["f3"]),
        N("Add", ["f3", "one"], ["f4"]),
        N("Mul", ["f1", "f4"], ["f5"]),
        N("Mul", ["f5", "half"], ["f6"]),
        N("MatMul", ["f6", "w2"], ["f7"]),
        N("Add", ["f7", "b2"], ["f8"]),
        N("Add", ["f8", "h1"], ["r2"]),
        N("LayerNormalization", ["r2", "g2", "be2"], ["y"], axis=-1,
          epsilon=1e-12),
    ]
    save(outdir, helper.make_graph(nodes, "encoder", [x, mask], [y], inits),
         opset=17)
    d = {k: v.astype(np.float64) for k, v in w.items()}

    def layer_norm(t, g, b):
        mu = t.mean(-1, keepdims=True)
        var = ((t - mu) ** 2).mean(-1, keepdims=True)
        return (t - mu) / np.sqrt(var + 1e-12) * g + b

    for sq in [int(s) for s in seqs] or [7]:
        xv = rng.standard_normal((1, sq, dm)).astype(np.float32)
        mv = np.ones((1, sq), np.int64)
        mv[:, -3:] = 0
        x64 = xv.astype(np.float64)
        def heads_of(t):
            return (x64 @ d["w" + t] + d["b" + t]).reshape(
                1, sq, heads, hd).transpose(0, 2, 1, 3)
        q, k, v = heads_of("q"), heads_of("k"), heads_of("v")
        s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(hd)
        s = s + ((1.0 - mv) * -10000.0)[:, None, None, :]
        p = np_softmax(s)
        o = (p @ v).transpose(0, 2, 1, 3).reshape(1, sq, dm)
        h1 = layer_norm(o @ d["wo"] + d["bo"] + x64, d["g1"], d["be1"])
        f1 = h1 @ d["w1"] + d["b1"]
        f = 0.5 * f1 * (1.0 + np.vectorize(math.erf)(f1 / np.sqrt(2.0)))
        yv = layer_norm(f @ d["w2"] + d["b2"] + h1, d["g2"], d["be2"])
        save_data(outdir, "s%d" % sq, [xv, mv], [yv.astype(np.float32)])


def cnn(outdir):
    """Conv + bias, BatchNormalization, Relu, MaxPool, GlobalAveragePool,
    Flatten, Gemm (transB) and Softmax over a dim_param batch. Data for
    batch 2 and 3."""
    c, o, hw, classes = 3, 4, 6, 5
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      ["batch", c, hw, hw])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                      ["batch", classes])
    w = (rng.standard_normal((o, c, 3, 3)) * 0.3).astype(np.float32)
    b = (0.1 * rng.standard_normal(o)).astype(np.float32)
    g = (1 + 0.1 * rng.standard_normal(o)).astype(np.float32)
    bb = (0.1 * rng.standard_normal(o)).astype(np.float32)
    mean = (0.1 * rng.standard_normal(o)).astype(np.float32)
    var = (1 + 0.1 * rng.random(o)).astype(np.float32)
    fw = rng.standard_normal((classes, o)).astype(np.float32)
    fb = (0.1 * rng.standard_normal(classes)).astype(np.float32)
    arrays = dict(w=w, b=b, g=g, bb=bb, mean=mean, var=var, fw=fw, fb=fb)
    inits = [numpy_helper.from_array(v, k) for k, v in arrays.items()]
    N = helper.make_node
    nodes = [
        N("Conv", ["x", "w", "b"], ["c0"], kernel_shape=[3, 3],
          pads=[1, 1, 1, 1]),
        N("BatchNormalization", ["c0", "g", "bb", "mean", "var"], ["c1"],
          epsilon=1e-5),
        N("Relu", ["c1"], ["c2"]),
        N("MaxPool", ["c2"], ["c3"], kernel_shape=[2, 2], strides=[2, 2]),
        N("GlobalAveragePool", ["c3"], ["c4"]),
        N("Flatten", ["c4"], ["c5"], axis=1),
        N("Gemm", ["c5", "fw", "fb"], ["c6"], transB=1),
        N("Softmax", ["c6"], ["y"], axis=1),
    ]
    save(outdir, helper.make_graph(nodes, "cnn", [x], [y], inits), opset=13)
    for name, n in (("a", 2), ("b", 3)):
        xv = rng.standard_normal((n, c, hw, hw)).astype(np.float32)
        xp = np.pad(xv, ((0, 0), (0, 0), (1, 1), (1, 1)))
        conv = np.zeros((n, o, hw, hw), np.float32)
        for i in range(3):
            for j in range(3):
                conv += np.einsum("nchw,oc->nohw",
                                  xp[:, :, i:i + hw, j:j + hw], w[:, :, i, j])
        conv += b[None, :, None, None]
        bn = ((conv - mean[None, :, None, None]) /
              np.sqrt(var[None, :, None, None] + 1e-5) *
              g[None, :, None, None] + bb[None, :, None, None])
        r = np.maximum(bn, 0)
        mp = r.reshape(n, o, hw // 2, 2, hw // 2, 2).max(axis=(3, 5))
        gap = mp.mean(axis=(2, 3))
        yv = np_softmax(gap @ fw.T + fb, axis=1)
        save_data(outdir, name, [xv], [yv.astype(np.float32)])


def compositions(outdir):
    """Op types composed from relax ops, over symbolic dims: DepthToSpace
    (CRD), OneHot with negative indices, SoftmaxCrossEntropyLoss (weights,
    ignore_index, log_prob output)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      ["batch", 8, "h", "w"])
    scores = helper.make_tensor_value_info("scores", TensorProto.FLOAT,
                                           ["batch", 5, "seq"])
    labels = helper.make_tensor_value_info("labels", TensorProto.INT64,
                                           ["batch", "seq"])
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
            for n in ("d2s", "onehot", "loss", "log_prob")]
    wts = np.array([0.5, 1.0, 2.0, 1.5, 0.25], np.float32)
    values = np.array([-1.0, 3.0], np.float32)
    depth = np.array(5, np.int64)
    nodes = [
        helper.make_node("DepthToSpace", ["x"], ["d2s"], blocksize=2,
                         mode="CRD"),
        helper.make_node("OneHot", ["labels", "depth", "values"], ["onehot"],
                         axis=1),
        helper.make_node("SoftmaxCrossEntropyLoss", ["scores", "labels", "wts"],
                         ["loss", "log_prob"], ignore_index=-1,
                         reduction="mean"),
    ]
    inits = [numpy_helper.from_array(wts, "wts"),
             numpy_helper.from_array(values, "values"),
             numpy_helper.from_array(depth, "depth")]
    save(outdir, helper.make_graph(nodes, "compositions",
                                   [x, scores, labels], outs, inits))
    for name, (n, h, w, seq) in (("a", (2, 2, 3, 4)), ("b", (3, 1, 2, 7))):
        xv = rng.standard_normal((n, 8, h, w)).astype(np.float32)
        sv = rng.standard_normal((n, 5, seq)).astype(np.float32)
        lv = rng.integers(-1, 5, size=(n, seq)).astype(np.int64)
        lv[0, 0] = -1  # ignored by the loss, class 4 for OneHot
        d2s = xv.reshape(n, 2, 2, 2, h, w).transpose(0, 1, 4, 2, 5, 3)
        d2s = d2s.reshape(n, 2, 2 * h, 2 * w)
        idx = np.where(lv < 0, lv + 5, lv)
        onehot = np.where(idx[:, None, :] == np.arange(5)[None, :, None],
                          values[1], values[0]).astype(np.float32)
        lp = sv - sv.max(axis=1, keepdims=True)
        lp = lp - np.log(np.exp(lp).sum(axis=1, keepdims=True))
        keep = lv != -1
        safe = np.where(keep, lv, 0)
        picked = np.take_along_axis(lp, safe[:, None, :], axis=1)[:, 0, :]
        gw = np.where(keep, wts[safe], 0)
        loss = np.array((-picked * gw).sum() / gw.sum(), np.float32)
        save_data(outdir, name, [xv, sv, lv],
                  [d2s, onehot, loss, lp.astype(np.float32)])


def index_ops(outdir):
    """GatherND (batch_dims 1, the exporters' last-token pick), ScatterND
    (add) and Pad (opset 18 axes, reflect; a run-time constant_value) over
    symbolic dims."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      ["batch", "seq", 4])
    pick = helper.make_tensor_value_info("pick", TensorProto.INT64,
                                         ["batch", 1])
    where = helper.make_tensor_value_info("where", TensorProto.INT64,
                                          ["k", 2])
    upd = helper.make_tensor_value_info("upd", TensorProto.FLOAT, ["k", 4])
    value = helper.make_tensor_value_info("value", TensorProto.FLOAT, [])
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
            for n in ("last", "scattered", "reflected", "filled")]
    inits = [numpy_helper.from_array(np.array([1, 2], np.int64), "pads1"),
             numpy_helper.from_array(np.array([1], np.int64), "axes1"),
             numpy_helper.from_array(np.array([0, 1], np.int64), "pads2"),
             numpy_helper.from_array(np.array([-1], np.int64), "axes2")]
    nodes = [
        helper.make_node("GatherND", ["x", "pick"], ["last"], batch_dims=1),
        helper.make_node("ScatterND", ["x", "where", "upd"], ["scattered"],
                         reduction="add"),
        helper.make_node("Pad", ["x", "pads1", "", "axes1"], ["reflected"],
                         mode="reflect"),
        helper.make_node("Pad", ["x", "pads2", "value", "axes2"],
                         ["filled"]),
    ]
    save(outdir, helper.make_graph(nodes, "index_ops",
                                   [x, pick, where, upd, value], outs, inits),
         opset=18)
    for name, (n, seq, k) in (("a", (2, 5, 3)), ("b", (3, 4, 6))):
        xv = rng.standard_normal((n, seq, 4)).astype(np.float32)
        pv = rng.integers(-seq, seq, size=(n, 1)).astype(np.int64)
        wv = np.stack([rng.integers(0, n, size=k),
                       rng.integers(-seq, seq, size=k)], 1).astype(np.int64)
        uv = rng.standard_normal((k, 4)).astype(np.float32)
        vv = np.array(2.5, np.float32)
        last = xv[np.arange(n), pv[:, 0], :]
        scattered = xv.copy()
        np.add.at(scattered, (wv[:, 0], wv[:, 1]), uv)
        reflected = np.pad(xv, ((0, 0), (1, 2), (0, 0)), mode="reflect")
        filled = np.pad(xv, ((0, 0), (0, 0), (0, 1)), constant_values=vv)
        save_data(outdir, name, [xv, pv, wv, uv, vv],
                  [last, scattered, reflected, filled])


KINDS = {f.__name__: f for f in (mlp, shapes, dims, runtime_values,
                                 maxpool_indices, attention, encoder, cnn,
                                 compositions, index_ops, unsupported_op,
                                 unsupported_attr,
                                 undefined_input, runtime_shape,
                                 bad_initializer, split_sizes)}

if __name__ == "__main__":
    KINDS[sys.argv[1]](sys.argv[2], *sys.argv[3:])
