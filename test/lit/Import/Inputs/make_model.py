"""Writes the small ONNX models (and numpy inputs/references) that the
importer tests use, built at test time with onnx.helper.

usage: make_model.py KIND OUTDIR

Every model is saved as OUTDIR/model.onnx; where a test runs the imported
module, the inputs are OUTDIR/in<i>.npy and the numpy references
OUTDIR/out<i>.npy.
"""
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


def unsupported_op(outdir):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])
    node = helper.make_node("Softsign", ["x"], ["y"], name="my_softsign")
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


KINDS = {f.__name__: f for f in (mlp, shapes, maxpool_indices, unsupported_op,
                                 unsupported_attr, undefined_input,
                                 bad_initializer)}

if __name__ == "__main__":
    KINDS[sys.argv[1]](sys.argv[2])
