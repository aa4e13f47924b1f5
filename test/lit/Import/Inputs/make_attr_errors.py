"""Writes one single-node ONNX model per attribute contract that onnx's
checker or the op's spec imposes (OUTDIR/<case>.onnx), each breaking it, for
onnx-attr-errors.test: relax-translate must refuse every one with a located
error naming the node, the attribute and the value.

usage: make_attr_errors.py OUTDIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def x(*shape, dtype=F):
    return ("input", dtype, list(shape))


def const(values, dtype=np.int64):
    return ("init", np.asarray(values, dtype))


def model(name, op, inputs, attrs=None, outputs=1, opset=18):
    """One node `name` of `op` over graph inputs and initializers; `attrs`
    is a dict or a list of (name, value) pairs (which may repeat a name),
    `outputs` a count or a list of names (which may repeat one)."""
    graph_inputs, inits, names = [], [], []
    for k, v in enumerate(inputs):
        if v is None:
            names.append("")
            continue
        n = "in%d" % k
        names.append(n)
        if v[0] == "input":
            graph_inputs.append(helper.make_tensor_value_info(n, v[1], v[2]))
        else:
            inits.append(numpy_helper.from_array(v[1], n))
    outs = (outputs if isinstance(outputs, list)
            else ["out%d" % k for k in range(outputs)])
    node = helper.make_node(op, names, outs, name=name)
    pairs = attrs.items() if isinstance(attrs, dict) else attrs or []
    node.attribute.extend(helper.make_attribute(k, v) for k, v in pairs)
    graph = helper.make_graph(
        [node], "g", graph_inputs,
        [helper.make_tensor_value_info(o, F, None)
         for o in dict.fromkeys(outs)], inits)
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", opset)])


IMAGE = x(1, 4, 8, 8)
WEIGHT = const(np.ones((4, 4, 3, 3)), np.float32)
X3 = x(2, 3, 4)
CHANNELS = const(np.ones(4), np.float32)

CASES = {
    # Flags are 0 or 1 (onnxruntime reads keepdims = 2 as false).
    "keepdims2": ("ReduceSum", [X3, const([0])], {"keepdims": 2}),
    "noop2": ("ReduceSum", [X3, const([0])], {"noop_with_empty_axes": 2}),
    "argmax_keepdims2": ("ArgMax", [X3], {"keepdims": 2}),
    "select_last2": ("ArgMax", [X3], {"select_last_index": -1}),
    "cumsum_exclusive2": ("CumSum", [X3, const(0)], {"exclusive": 2}),
    "cumsum_reverse2": ("CumSum", [X3, const(0)], {"reverse": 3}),
    "trilu_upper2": ("Trilu", [x(3, 3)], {"upper": 2}),
    "allowzero2": ("Reshape", [X3, const([2, 12])], {"allowzero": 2}),
    "ceil_mode2": ("MaxPool", [IMAGE], {"kernel_shape": [2, 2],
                                        "ceil_mode": 2}),
    "count_include_pad2": ("AveragePool", [IMAGE],
                           {"kernel_shape": [2, 2], "count_include_pad": 2}),
    "training_mode2": ("BatchNormalization", [IMAGE] + [CHANNELS] * 4,
                       {"training_mode": 2}),
    "isinf_flag2": ("IsInf", [X3], {"detect_negative": 2}),
    "gru_lbr2": ("GRU", [x(5, 2, 3), const(np.ones((1, 12, 3)), np.float32),
                         const(np.ones((1, 12, 4)), np.float32)],
                 {"hidden_size": 4, "linear_before_reset": 2}),
    # Other values.
    "transpose_negative": ("Transpose", [X3], {"perm": [-1, 0, 1]}),
    "concat_no_axis": ("Concat", [X3, X3], {}),
    "tile_repeats_len": ("Tile", [X3, const([2, 2])], {}),
    "resize_axes_repeated": ("Resize", [IMAGE, None,
                                        const([2, 2], np.float32)],
                             {"axes": [2, -2]}),
    "pad_axes_repeated": ("Pad", [X3, const([1, 1, 1, 1]), None,
                                  const([0, -3])], {}),
    "conv_pads_with_auto_pad": ("Conv", [IMAGE, WEIGHT],
                                {"auto_pad": "VALID", "pads": [1, 1, 1, 1]}),
    "convt_pads_with_auto_pad": ("ConvTranspose", [IMAGE, WEIGHT],
                                 {"auto_pad": "SAME_UPPER",
                                  "pads": [1, 1, 1, 1]}),
    "pool_pads_ge_kernel": ("MaxPool", [IMAGE], {"kernel_shape": [2, 2],
                                                 "pads": [0, 2, 0, 0]}),
    "mod_float_fmod0": ("Mod", [X3, X3], {"fmod": 0}),
    "dropout_ratio": ("Dropout", [X3, const(1.5, np.float32)], {}),
    "dropout_ratio_attr": ("Dropout", [X3], {"ratio": -0.5}, 1, 10),
    "epsilon_nan": ("BatchNormalization", [IMAGE] + [CHANNELS] * 4,
                    {"epsilon": float("nan")}),
    "epsilon_negative": ("LayerNormalization", [X3, const(np.ones(4),
                                                          np.float32)],
                         {"epsilon": -1.0}),
    "hidden_size0": ("RNN", [x(5, 2, 3), const(np.ones((1, 4, 3)), np.float32),
                             const(np.ones((1, 4, 4)), np.float32)],
                     {"hidden_size": -4}),
    "split_both": ("Split", [x(6, 3), const([3, 3])], {"num_outputs": 2},
                   2),
    # Type constraints whose breach the importer used to turn into another
    # program (a cast, an empty range, a wrapping negation).
    "slice_float_starts": ("Slice", [X3, const([0.0], np.float32),
                                     const([1.0], np.float32)], {}),
    "range_mixed_types": ("Range", [const(0.0, np.float32), const(5),
                                    const(1.0, np.float32)], {}),
    "reshape_shape_2d": ("Reshape", [X3, const([[2, 12]])], {}),
    "neg_unsigned": ("Neg", [x(3, dtype=TensorProto.UINT8)], {}),
    "bitshift_signed": ("BitShift", [x(3, dtype=TensorProto.INT32),
                                     x(3, dtype=TensorProto.INT32)],
                        {"direction": "LEFT"}),
    "conv_int": ("Conv", [x(1, 4, 8, 8, dtype=TensorProto.INT32),
                          const(np.ones((4, 4, 3, 3)), np.int32)], {}),
    "avgpool_int": ("AveragePool", [x(1, 4, 8, 8, dtype=TensorProto.INT32)],
                    {"kernel_shape": [2, 2]}),
    "lrn_int": ("LRN", [x(1, 4, 8, 8, dtype=TensorProto.INT32)], {"size": 3}),
    "split_num_outputs_gt_dim": ("Split", [x(2, 3)], {"num_outputs": 3}, 3),
    # onnx's checker: no attribute twice, no output name twice (SSA).
    "attr_twice": ("Softmax", [X3], [("axis", 1), ("axis", 0)]),
    "output_twice": ("Split", [x(6, 3)], {"axis": 0}, ["y", "y"]),
}


def main(outdir):
    os.makedirs(outdir, exist_ok=True)
    for name, spec in CASES.items():
        op, inputs, attrs = spec[:3]
        outputs = spec[3] if len(spec) > 3 else 1
        opset = spec[4] if len(spec) > 4 else 18
        onnx.save(model(name, op, inputs, attrs, outputs, opset),
                  os.path.join(outdir, name + ".onnx"))


if __name__ == "__main__":
    main(sys.argv[1])
