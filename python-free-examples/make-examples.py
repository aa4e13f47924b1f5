#!/usr/bin/env python3
"""Writes the small model files the README's "Try it" commands use, so that
each runs as written from a fresh clone:

  model.onnx       a 2-layer MLP (MatMul, Add, Relu) with a symbolic batch
                   dim "n" on its input x [n, 8] and output y [n, 4], as an
                   exporter writes it (opset 17, weights as initializers);
  model-tosa.mlir  the same MLP, same weights, as torch-mlir emits it in
                   TOSA (nn.Linear's [out, in] weight transposed, 2-D
                   activations reshaped to TOSA's 3-D matmul, ReLU as
                   clamp), entry @forward with a dynamic batch;
  x.npy, y.npy     an input (n = 3) and the expected output, computed here
                   with numpy in float64 and rounded to float32.

Run by hand with the system Python (numpy and onnx: python3-numpy,
python3-onnx); the outputs are committed. The same seed writes the same
files.
"""
import os

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
IN, HIDDEN, OUT, BATCH = 8, 32, 4, 3


def weights():
    rng = np.random.default_rng(2026)
    w1 = rng.uniform(-0.5, 0.5, (IN, HIDDEN)).astype(np.float32)
    b1 = rng.uniform(-0.5, 0.5, (HIDDEN,)).astype(np.float32)
    w2 = rng.uniform(-0.5, 0.5, (HIDDEN, OUT)).astype(np.float32)
    b2 = rng.uniform(-0.5, 0.5, (OUT,)).astype(np.float32)
    x = rng.uniform(-1, 1, (BATCH, IN)).astype(np.float32)
    return w1, b1, w2, b2, x


def reference(w1, b1, w2, b2, x):
    f = lambda a: a.astype(np.float64)
    h = np.maximum(f(x) @ f(w1) + f(b1), 0)
    return (h @ f(w2) + f(b2)).astype(np.float32)


def write_onnx(w1, b1, w2, b2, path):
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["m1"]),
        helper.make_node("Add", ["m1", "b1"], ["h1"]),
        helper.make_node("Relu", ["h1"], ["r1"]),
        helper.make_node("MatMul", ["r1", "w2"], ["m2"]),
        helper.make_node("Add", ["m2", "b2"], ["y"]),
    ]
    inits = [numpy_helper.from_array(a, name)
             for a, name in [(w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2")]]
    graph = helper.make_graph(
        nodes, "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", IN])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", OUT])],
        inits)
    model = helper.make_model(
        graph, producer_name="make-examples.py",
        opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def dense(a):
    """A dense literal whose values read back as the same float32s."""
    if a.ndim == 1:
        return "[" + ", ".join("%.9g" % v for v in a) + "]"
    return "[" + ", ".join(dense(row) for row in a) + "]"


def tensor(shape):
    return "tensor<%sxf32>" % "x".join(str(d) for d in shape)


def write_tosa(w1, b1, w2, b2, path):
    # torch.nn.Linear keeps its weight as [out, in].
    w1t, w2t = w1.T.copy(), w2.T.copy()
    t = tensor
    lines = [
        "// The MLP of model.onnx (same weights) as torch-mlir emits it in TOSA",
        "// (torch-backend-to-tosa-backend-pipeline): nn.Linear's [out, in] weight",
        "// transposed, 2-D activations reshaped to TOSA's 3-D matmul, ReLU as",
        "// clamp, a dynamic batch. Written by make-examples.py; convert with",
        "// relax-opt --convert-tosa-to-relax (docs/passes.md) or run directly.",
        "func.func @forward(%arg0: tensor<?x8xf32>) -> tensor<?x4xf32> {",
        '  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>',
    ]
    def layer(k, x, n_in, n_out, w, b, relu):
        lines.extend([
            '  %%w%d = "tosa.const"() {values = dense<%s> : %s} : () -> %s'
            % (k, dense(w), t([n_out, n_in]), t([n_out, n_in])),
            '  %%b%d = "tosa.const"() {values = dense<%s> : %s} : () -> %s'
            % (k, dense(b.reshape(1, -1)), t([1, n_out]), t([1, n_out])),
            "  %%wt%d = tosa.transpose %%w%d {perms = array<i32: 1, 0>} : (%s) -> %s"
            % (k, k, t([n_out, n_in]), t([n_in, n_out])),
            "  %%sx%d = tosa.const_shape {values = dense<[1, -1, %d]> : tensor<3xindex>} : () -> !tosa.shape<3>"
            % (k, n_in),
            "  %%x3_%d = tosa.reshape %s, %%sx%d : (tensor<?x%dxf32>, !tosa.shape<3>) -> tensor<1x?x%dxf32>"
            % (k, x, k, n_in, n_in),
            "  %%sw%d = tosa.const_shape {values = dense<[1, %d, %d]> : tensor<3xindex>} : () -> !tosa.shape<3>"
            % (k, n_in, n_out),
            "  %%w3_%d = tosa.reshape %%wt%d, %%sw%d : (%s, !tosa.shape<3>) -> tensor<1x%dx%dxf32>"
            % (k, k, k, t([n_in, n_out]), n_in, n_out),
            "  %%m%d = tosa.matmul %%x3_%d, %%w3_%d, %%zp, %%zp : (tensor<1x?x%dxf32>, tensor<1x%dx%dxf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x%dxf32>"
            % (k, k, k, n_in, n_in, n_out, n_out),
            "  %%so%d = tosa.const_shape {values = dense<[-1, %d]> : tensor<2xindex>} : () -> !tosa.shape<2>"
            % (k, n_out),
            "  %%m2_%d = tosa.reshape %%m%d, %%so%d : (tensor<1x?x%dxf32>, !tosa.shape<2>) -> tensor<?x%dxf32>"
            % (k, k, k, n_out, n_out),
            "  %%h%d = tosa.add %%m2_%d, %%b%d : (tensor<?x%dxf32>, tensor<1x%dxf32>) -> tensor<?x%dxf32>"
            % (k, k, k, n_out, n_out, n_out),
        ])
        if relu:
            lines.append(
                "  %%r%d = tosa.clamp %%h%d {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<?x%dxf32>) -> tensor<?x%dxf32>"
                % (k, k, n_out, n_out))
            return "%%r%d" % k
        return "%%h%d" % k
    r1 = layer(1, "%arg0", IN, HIDDEN, w1t, b1, relu=True)
    y = layer(2, r1, HIDDEN, OUT, w2t, b2, relu=False)
    lines += ["  return %s : tensor<?x4xf32>" % y, "}", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def main():
    w1, b1, w2, b2, x = weights()
    write_onnx(w1, b1, w2, b2, os.path.join(HERE, "model.onnx"))
    write_tosa(w1, b1, w2, b2, os.path.join(HERE, "model-tosa.mlir"))
    np.save(os.path.join(HERE, "x.npy"), x)
    np.save(os.path.join(HERE, "y.npy"), reference(w1, b1, w2, b2, x))


if __name__ == "__main__":
    main()
