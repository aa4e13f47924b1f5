#!/usr/bin/env python3
"""Writes a ResNet-18-sized ONNX model with random weights (no torch needed).

The layer structure of torchvision's resnet18 (conv 7x7/2, max pool, four
stages of two basic blocks with 64/128/256/512 channels, global average
pool, a 1000-way linear layer: 11.7 M parameters, 47 MB of f32), with batch
normalisation folded into the convolutions' biases as inference exports do.
Batch, height and width are symbolic (dim_params N, H, W).

    /usr/bin/python3 bench/compile/make_resnet18.py out/resnet18.onnx
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
nodes, inits = [], []


def const(name, array):
    inits.append(numpy_helper.from_array(array.astype(np.float32), name))
    return name


def conv(x, cin, cout, k, stride, relu, name):
    std = np.sqrt(2.0 / (cin * k * k))
    w = const(name + ".w", rng.normal(0, std, (cout, cin, k, k)))
    b = const(name + ".b", rng.normal(0, 0.01, (cout,)))
    y = name + ".y"
    nodes.append(helper.make_node("Conv", [x, w, b], [y], kernel_shape=[k, k],
                                  strides=[stride, stride],
                                  pads=[k // 2] * 4))
    if not relu:
        return y
    nodes.append(helper.make_node("Relu", [y], [name + ".r"]))
    return name + ".r"


def block(x, cin, cout, stride, name):
    y = conv(x, cin, cout, 3, stride, True, name + ".c1")
    y = conv(y, cout, cout, 3, 1, False, name + ".c2")
    skip = x if stride == 1 and cin == cout else conv(
        x, cin, cout, 1, stride, False, name + ".down")
    nodes.append(helper.make_node("Add", [y, skip], [name + ".add"]))
    nodes.append(helper.make_node("Relu", [name + ".add"], [name + ".out"]))
    return name + ".out"


x = conv("x", 3, 64, 7, 2, True, "stem")
nodes.append(helper.make_node("MaxPool", [x], ["pool"], kernel_shape=[3, 3],
                              strides=[2, 2], pads=[1, 1, 1, 1]))
x, cin = "pool", 64
for stage, cout in enumerate([64, 128, 256, 512]):
    for i in range(2):
        x = block(x, cin, cout, 2 if stage > 0 and i == 0 else 1,
                  "l%d.%d" % (stage + 1, i))
        cin = cout
nodes.append(helper.make_node("GlobalAveragePool", [x], ["gap"]))
nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], axis=1))
fc_w = const("fc.w", rng.normal(0, 0.02, (1000, 512)))
fc_b = const("fc.b", np.zeros(1000))
nodes.append(helper.make_node("Gemm", ["flat", fc_w, fc_b], ["logits"],
                              transB=1))

graph = helper.make_graph(
    nodes, "resnet18", [helper.make_tensor_value_info(
        "x", TensorProto.FLOAT, ["N", 3, "H", "W"])],
    [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", 1000])],
    inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
onnx.checker.check_model(model)
onnx.save(model, sys.argv[1])
print("%s: %.1f M parameters" % (sys.argv[1], sum(
    np.prod(t.dims) for t in inits) / 1e6))
