"""Writes the ONNX model (and numpy inputs/references) of onnx-nn.test:
ConvTranspose (2-D and 1-D), Resize (nearest and linear, scales and sizes),
InstanceNormalization and Einsum over symbolic dims.

usage: make_nn_model.py OUTDIR

The model is OUTDIR/model.onnx; each size S in a, b has its inputs in
OUTDIR/S/in<i>.npy and numpy references in OUTDIR/S/out<i>.npy.
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from onnx.backend.test.case.node.resize import (interpolate_nd, linear_coeffs,
                                                 nearest_coeffs)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_model import save, save_data  # noqa: E402

rng = np.random.default_rng(1)


def conv_transpose(x, w, stride, pads, out_pad):
    """N-D ConvTranspose (no dilation, group 1) by scattering each kernel
    tap; pads are ONNX's (begins, then ends)."""
    n = x.ndim - 2
    ks = w.shape[2:]
    full = [(x.shape[2 + i] - 1) * stride[i] + ks[i] + out_pad[i]
            for i in range(n)]
    y = np.zeros((x.shape[0], w.shape[1], *full), np.float64)
    for tap in np.ndindex(*ks):
        contrib = np.einsum("nc...,co->no...", x, w[(slice(None),) * 2 + tap])
        idx = tuple(slice(tap[i], tap[i] + (x.shape[2 + i] - 1) * stride[i] + 1,
                          stride[i]) for i in range(n))
        y[(slice(None),) * 2 + idx] += contrib
    crop = tuple(slice(pads[i], full[i] - pads[n + i]) for i in range(n))
    return y[(slice(None),) * 2 + crop].astype(np.float32)


def nn(outdir):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      ["batch", 4, "h", "w"])
    s = helper.make_tensor_value_info("s", TensorProto.FLOAT,
                                      ["batch", 2, "seq"])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT,
                                      ["batch", "c", "seq"])
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
            for n in ("convt", "convt1d", "up", "lin", "inorm", "ein")]
    w2 = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    b2 = rng.standard_normal(3).astype(np.float32)
    w1 = rng.standard_normal((2, 5, 3)).astype(np.float32)
    scales_up = np.array([1, 1, 2, 3], np.float32)
    scales_lin = np.array([1, 1, 0.5, 1.5], np.float32)
    gamma = rng.standard_normal(3).astype(np.float32)
    beta = rng.standard_normal(3).astype(np.float32)
    empty = np.zeros((0,), np.float32)
    nodes = [
        helper.make_node("ConvTranspose", ["x", "w2", "b2"], ["convt"],
                         strides=[2, 2], pads=[1, 1, 1, 1],
                         output_padding=[1, 1]),
        helper.make_node("ConvTranspose", ["s", "w1"], ["convt1d"],
                         strides=[2], auto_pad="SAME_UPPER"),
        helper.make_node("Resize", ["x", "", "scales_up"], ["up"],
                         mode="nearest", nearest_mode="floor",
                         coordinate_transformation_mode="asymmetric"),
        helper.make_node("Resize", ["x", "empty", "scales_lin"], ["lin"],
                         mode="linear"),
        helper.make_node("InstanceNormalization", ["z", "gamma", "beta"],
                         ["inorm"], epsilon=1e-3),
        helper.make_node("Einsum", ["s", "s"], ["ein"],
                         equation="bij,bkj->bik"),
    ]
    inits = [numpy_helper.from_array(a, n) for a, n in (
        (w2, "w2"), (b2, "b2"), (w1, "w1"), (scales_up, "scales_up"),
        (scales_lin, "scales_lin"), (gamma, "gamma"), (beta, "beta"),
        (empty, "empty"))]
    save(outdir, helper.make_graph(nodes, "nn", [x, s, z], outs, inits))
    for name, (n, h, w, seq) in (("a", (2, 3, 4, 5)), ("b", (1, 5, 2, 8))):
        xv = rng.standard_normal((n, 4, h, w)).astype(np.float32)
        sv = rng.standard_normal((n, 2, seq)).astype(np.float32)
        zv = rng.standard_normal((n, 3, seq)).astype(np.float32)
        convt = conv_transpose(xv, w2, [2, 2], [1, 1, 1, 1], [1, 1])
        convt += b2[None, :, None, None]
        # SAME_UPPER: output seq * 2, total padding 3 - 2 = 1, at the end.
        convt1d = conv_transpose(sv, w1, [2], [0, 1], [0])
        up = interpolate_nd(
            xv, lambda r: nearest_coeffs(r, mode="floor"),
            scale_factors=scales_up,
            coordinate_transformation_mode="asymmetric").astype(np.float32)
        lin = interpolate_nd(xv, linear_coeffs,
                             scale_factors=scales_lin).astype(np.float32)
        mean = zv.mean(axis=2, keepdims=True)
        var = zv.var(axis=2, keepdims=True)
        inorm = ((zv - mean) / np.sqrt(var + 1e-3) * gamma[None, :, None]
                 + beta[None, :, None]).astype(np.float32)
        ein = np.einsum("bij,bkj->bik", sv, sv).astype(np.float32)
        save_data(outdir, name, [xv, sv, zv],
                  [convt, convt1d, up, lin, inorm, ein])


if __name__ == "__main__":
    nn(sys.argv[1])
