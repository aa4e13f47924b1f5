"""Writes the malformed or unsupported ONNX models of the onnx-*-errors
tests, one diagnostic of the importer each: OUTDIR/<case>.onnx for every
case of FAMILY, and OUTDIR/cases.txt listing them in order (the lit test
imports each and checks its located error and exit status 1 in that
order). The control family also has one valid model, loop_shape_chain, with
its inputs and expected outputs (chain_*.npy).

usage: make_diag_errors.py FAMILY OUTDIR
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_attr_errors import const, model, x  # noqa: E402

F, I64, I32 = TensorProto.FLOAT, TensorProto.INT64, TensorProto.INT32
U = ("input", F, None)  # a graph input of unknown rank
IMAGE = x(1, 4, 8, 8)
SYM_IMAGE = x(1, 4, "H", "W")
X3 = x(2, 3, 4)
WEIGHT = const(np.ones((4, 4, 3, 3)), np.float32)
ONES4 = const(np.ones(4), np.float32)


def fconst(values):
    return const(values, np.float32)


# family -> {case: (op, inputs, attrs[, outputs[, opset]]) or a function of
# the case name returning a ModelProto}. Cases keep the order the lit test
# checks them in.
FAMILIES = {}

FAMILIES["nn"] = {
    # Normalizations.
    "layernorm_unranked": ("LayerNormalization", [U, ONES4], {}),
    "batchnorm_training_rank1": ("BatchNormalization",
                                 [x(4)] + [ONES4] * 4,
                                 {"training_mode": 1}, 3),
    "instancenorm_symbolic_channels": (
        "InstanceNormalization",
        [x(1, "C", 4, 4), ("input", F, ["K"]), ("input", F, ["K"])], {}),
    "lrn_no_size": ("LRN", [IMAGE], {}),
    "lrn_size0": ("LRN", [IMAGE], {"size": 0}),
    "dropout_training": ("Dropout", [X3, fconst(0.5), const(True, np.bool_)],
                         {}),
    # DepthToSpace / SpaceToDepth.
    "d2s_rank3": ("DepthToSpace", [X3], {"blocksize": 2}),
    "d2s_no_blocksize": ("DepthToSpace", [IMAGE], {}),
    "d2s_blocksize0": ("DepthToSpace", [IMAGE], {"blocksize": 0}),
    "d2s_channels": ("DepthToSpace", [x(1, 6, 4, 4)], {"blocksize": 2}),
    # Upsample (scales an attribute at opset 7).
    "upsample_no_scales": ("Upsample", [IMAGE], {}, 1, 7),
    "upsample_linear": ("Upsample", [IMAGE],
                        {"mode": "linear", "scales": [1.0, 1.0, 2.0, 2.0]},
                        1, 7),
    "upsample_scales_len": ("Upsample", [IMAGE], {"scales": [2.0, 2.0]}, 1,
                            7),
    "upsample_fraction": ("Upsample", [IMAGE],
                          {"scales": [1.0, 1.0, 1.5, 2.0]}, 1, 7),
    # Resize.
    "resize_cubic": ("Resize", [IMAGE, None, fconst([1, 1, 2, 2])],
                     {"mode": "cubic"}),
    "resize_exclude_outside": ("Resize", [IMAGE, None, fconst([1, 1, 2, 2])],
                               {"exclude_outside": 1}),
    "resize_antialias": ("Resize", [IMAGE, None, fconst([1, 1, 2, 2])],
                         {"antialias": 1}),
    "resize_policy": ("Resize", [IMAGE, None, fconst([1, 1, 2, 2])],
                      {"keep_aspect_ratio_policy": "not_larger"}),
    "resize_rank3": ("Resize", [X3, None, fconst([1, 2, 2])], {}),
    "resize_scales_and_sizes": ("Resize", [IMAGE, None, fconst([1, 1, 2, 2]),
                                           const([1, 4, 16, 16])], {}),
    "resize_scales_len": ("Resize", [IMAGE, None, fconst([2, 2])], {}),
    "resize_channels": ("Resize", [IMAGE, None, fconst([1, 2, 2, 2])], {}),
    "resize_scale0": ("Resize", [IMAGE, None, fconst([1, 1, 0, 2])], {}),
    "einsum_no_equation": ("Einsum", [X3], {}),
    # The relax op's own inference refuses the operands.
    "matmul_mismatch": ("MatMul", [x(2, 3), x(4, 5)], {}),
    # Conv / ConvTranspose.
    "conv_same_symbolic": ("Conv", [SYM_IMAGE, WEIGHT],
                           {"auto_pad": "SAME_UPPER"}),
    "conv_rank2": ("Conv", [x(4, 8), const(np.ones((4, 8)), np.float32)],
                   {}),
    "conv_3d": ("Conv", [x(1, 4, 4, 4, 4),
                         const(np.ones((4, 4, 3, 3, 3)), np.float32)], {}),
    "conv_symbolic_kernel": ("Conv", [IMAGE, ("input", F, [4, 4, "K", "K"])],
                             {}),
    "conv_strides_len": ("Conv", [IMAGE, WEIGHT], {"strides": [1]}),
    "conv_stride0": ("Conv", [IMAGE, WEIGHT], {"strides": [0, 1]}),
    "convt_output_shape_symbolic": ("ConvTranspose", [SYM_IMAGE, WEIGHT],
                                    {"output_shape": [10, 10]}),
    # Pooling.
    "maxpool_no_kernel": ("MaxPool", [IMAGE], {}),
    "maxpool_4d": ("MaxPool", [x(1, 1, 4, 4, 4, 4)],
                   {"kernel_shape": [2, 2, 2, 2]}),
    "maxpool_strides_len": ("MaxPool", [IMAGE], {"kernel_shape": [2, 2],
                                                 "strides": [1]}),
    "maxpool_kernel0": ("MaxPool", [IMAGE], {"kernel_shape": [0, 2]}),
    "maxpool_rank": ("MaxPool", [X3], {"kernel_shape": [2, 2]}),
    "maxpool_indices_symbolic": ("MaxPool", [SYM_IMAGE],
                                 {"kernel_shape": [2, 2]}, 2),
    "maxpool_indices_window": ("MaxPool", [x(1, 1, 40, 40)],
                               {"kernel_shape": [33, 33]}, 2),
    "maxpool_indices_1d": ("MaxPool", [x(1, 1, 8)], {"kernel_shape": [2]},
                           2),
    "avgpool_include_pad_symbolic": ("AveragePool", [SYM_IMAGE],
                                     {"kernel_shape": [3, 3],
                                      "pads": [1, 1, 1, 1],
                                      "count_include_pad": 1}),
    "avgpool_include_pad_window": ("AveragePool", [x(1, 1, 1 << 21, 1)],
                                   {"kernel_shape": [(1 << 20) + 1, 1],
                                    "pads": [1, 0, 1, 0],
                                    "count_include_pad": 1}),
    "avgpool_include_pad_output": ("AveragePool", [x(1, 1, 5000, 5000)],
                                   {"kernel_shape": [2, 2],
                                    "pads": [1, 1, 1, 1],
                                    "count_include_pad": 1}),
    # A pooled dim past int64 (dilation * (kernel - 1)): 3-D pooling runs
    # as a 2-D pool over H, W then one over D.
    "maxpool3d_overflow_hw": ("MaxPool", [x(1, 1, 4, 4, 4)],
                              {"kernel_shape": [2, 3, 2],
                               "dilations": [1, 1 << 62, 1]}),
    "maxpool3d_overflow_depth": ("MaxPool", [x(1, 1, 4, 4, 4)],
                                 {"kernel_shape": [3, 2, 2],
                                  "dilations": [1 << 62, 1, 1]}),
    "globalpool_rank2": ("GlobalAveragePool", [x(4, 8)], {}),
    # Losses.
    "nll_rank1": ("NegativeLogLikelihoodLoss",
                  [x(5), x(5, dtype=I64)], {}),
    "nll_target_rank": ("NegativeLogLikelihoodLoss",
                        [x(2, 5), x(2, 3, dtype=I64)], {}),
    "nll_target_float": ("NegativeLogLikelihoodLoss", [x(2, 5), x(2)], {}),
    "nll_weight_2d": ("NegativeLogLikelihoodLoss",
                      [x(2, 5), x(2, dtype=I64), x(5, 1)], {}),
    # Recurrent.
    "rnn_layout2": ("RNN", [x(5, 2, 3), fconst(np.ones((1, 4, 3))),
                            fconst(np.ones((1, 4, 4)))],
                    {"hidden_size": 4, "layout": 2}),
    "rnn_clip_negative": ("RNN", [x(5, 2, 3), fconst(np.ones((1, 4, 3))),
                                  fconst(np.ones((1, 4, 4)))],
                          {"hidden_size": 4, "clip": -1.0}),
    "rnn_int_x": ("RNN", [x(5, 2, 3, dtype=I32),
                          const(np.ones((1, 4, 3)), np.int32),
                          const(np.ones((1, 4, 4)), np.int32)],
                  {"hidden_size": 4}),
    "rnn_float_lens": ("RNN", [x(5, 2, 3), fconst(np.ones((1, 4, 3))),
                               fconst(np.ones((1, 4, 4))), None, x(2)],
                       {"hidden_size": 4}),
}

FAMILIES["shape"] = {
    # Reshape.
    "reshape_no_shape_attr": ("Reshape", [X3], {}, 1, 4),
    "reshape_zero_unranked": ("Reshape", [U, const([0, -1])], {}),
    "reshape_two_inferred": ("Reshape", [X3, const([-1, -1])], {}),
    "reshape_minus2": ("Reshape", [X3, const([-2, 12])], {}),
    "reshape_inferred_zero": ("Reshape", [X3, const([0, -1])],
                              {"allowzero": 1}),
    # N * 2^64 elements: the product is no int64 expression.
    "reshape_inferred_overflow": ("Reshape",
                                  [x("N", 1 << 32, 1 << 32), const([-1, 2])],
                                  {}),
    # Split.
    "split_runtime_sizes_count": ("Split", [x(6, 3), x(3, dtype=I64)], {},
                                  2),
    "split_sizes_count": ("Split", [x(6, 3), const([2, 2, 2])], {}, 2),
    "split_negative": ("Split", [x(6, 3), const([-1, 7])], {}, 2),
    "split_overflow": ("Split", [x(6, 3), const([1 << 62, 1 << 62])], {},
                       2),
    "split_num_outputs": ("Split", [x(6, 3)], {"num_outputs": 3}, 2),
    # Slice.
    "slice_runtime_starts_length": ("Slice", [X3, ("input", I64, ["K"]),
                                              const([1])], {}),
    "slice_runtime_axes_length": ("Slice", [X3, x(2, dtype=I64),
                                            x(2, dtype=I64), const([0])],
                                  {}),
    "slice_no_starts": ("Slice", [X3], {"ends": [1]}, 1, 9),
    "slice_lengths": ("Slice", [X3, const([0, 0]), const([1])], {}),
    "slice_step0": ("Slice", [X3, const([0]), const([1]), const([0]),
                              const([0])], {}),
    "unsqueeze_no_axes": ("Unsqueeze", [X3], {}, 1, 11),
    # Shape values.
    "constant_no_value": ("Constant", [], {}),
    "shape_start_opset13": ("Shape", [X3], {"start": 1}, 1, 13),
    "constantofshape_negative": ("ConstantOfShape", [const([-1, 2])], {}),
    "range_runtime_vector": ("Range", [x(1), x(1), x(1)], {}),
    "range_delta0": ("Range", [fconst(0), fconst(4), fconst(0)], {}),
    "range_too_long": ("Range", [fconst(0), fconst(1e15), fconst(1)], {}),
    # Elementwise and index ops.
    "bitshift_no_direction": ("BitShift",
                              [x(3, dtype=TensorProto.UINT8),
                               x(3, dtype=TensorProto.UINT8)], {}),
    "eyelike_rank3": ("EyeLike", [X3], {}),
    "onehot_depth_vector": ("OneHot", [x(3, dtype=I64), const([3, 4]),
                                       fconst([0, 1])], {}),
    "onehot_depth_shape": lambda _: graph_model(
        [helper.make_node("Shape", ["y"], ["d"]),
         helper.make_node("OneHot", ["i", "d", "v"], ["out"],
                          name="onehot_depth_shape")],
        [vi("i", I64, [3]), vi("y", F, ["N", "M"]), vi("v", F, [2])],
        [vi("out")]),
    "onehot_depth0": ("OneHot", [x(3, dtype=I64), const(0), fconst([0, 1])],
                      {}),
    "onehot_values3": ("OneHot", [x(3, dtype=I64), const(4),
                                  fconst([0, 1, 2])], {}),
    "onehot_unranked": ("OneHot", [("input", I64, None), const(4),
                                   fconst([0, 1])], {}),
    "trilu_k_vector": ("Trilu", [x(3, 3), const([1, 2])], {}),
    "trilu_runtime_k_rank1": ("Trilu", [x(3), ("input", I64, [])], {}),
    "pad_value_vector": ("Pad", [X3, const([1, 1, 1, 1, 1, 1]),
                                 fconst([0, 1])], {}),
    "pad_unranked": ("Pad", [U, const([1, 1])], {}),
    "pad_axes_count": ("Pad", [X3, const([1, 1, 1, 1]), None, const([0])],
                       {}),
    "cumsum_axis_vector": ("CumSum", [X3, const([0, 1])], {}),
    # A NaN bound (a valid ONNX model): relax.clip refuses it, then the
    # importer names the node.
    "clip_nan_min": ("Clip", [X3, fconst(np.nan)], {}),
}


def vi(name, dtype=F, shape=None):
    return helper.make_tensor_value_info(name, dtype, shape)


def graph_model(nodes, inputs, outputs, inits=(), opset=18, opsets=None):
    """A model of `nodes` over value infos `inputs` and `outputs`."""
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(graph, opset_imports=opsets or [
        helper.make_opsetid("", opset)])


def identity_model(**graph_args):
    """x -> Identity -> y, with `graph_args` replacing parts of it."""
    args = dict(nodes=[helper.make_node("Identity", ["x"], ["y"],
                                        name="id")],
                inputs=[vi("x", F, [2])], outputs=[vi("y")])
    args.update(graph_args)
    return graph_model(**args)


def tensor(name, dims, values=()):
    """A float TensorProto built field by field (make_tensor would refuse
    the malformed ones)."""
    t = TensorProto(name=name, data_type=F)
    t.dims.extend(dims)
    t.float_data.extend(values)
    return t


def with_init(init):
    """x + init -> y."""
    return identity_model(
        nodes=[helper.make_node("Add", ["x", init.name], ["y"], name="add")],
        inits=[init])


def external_init():
    t = tensor("w", [2], values=[1.0, 2.0])
    t.data_location = TensorProto.EXTERNAL
    return with_init(t)


def nested_ifs(depth):
    """`depth` Ifs, each the then_branch of the one around it (the
    else_branches are leaves: a copy of the nest in both would grow as
    2^depth)."""
    leaf = helper.make_graph([helper.make_node("Identity", ["x"], ["l"])],
                             "leaf", [], [vi("l")])
    inner = None
    for k in range(depth):
        nodes = ([helper.make_node("Identity", ["x"], ["o%d" % k])]
                 if inner is None else
                 [helper.make_node("If", ["c"], ["o%d" % k], name="if%d" % k,
                                   then_branch=inner, else_branch=leaf)])
        inner = helper.make_graph(nodes, "b%d" % k, [], [vi("o%d" % k)])
    return graph_model(inner.node, [vi("c", TensorProto.BOOL, []),
                                    vi("x", F, [2])], [vi("o%d" % (depth - 1))])


def if_model(then_nodes, then_outs, else_nodes, else_outs, outputs=("y",),
             then_inits=(), inputs=None):
    """If(c) over x: [2, 3] with the given branch graphs."""
    then_g = helper.make_graph(then_nodes, "then", [], then_outs,
                               list(then_inits))
    else_g = helper.make_graph(else_nodes, "else", [], else_outs)
    return graph_model(
        [helper.make_node("If", ["c"], list(outputs), name="if",
                          then_branch=then_g, else_branch=else_g)],
        inputs or [vi("c", TensorProto.BOOL, []), vi("x", F, [2, 3]),
                   vi("v", F, [3])],
        [vi(o) for o in outputs if o])


def ident(src, dst):
    return helper.make_node("Identity", [src], [dst])


def loop_model(inputs, outputs, body_nodes, body_ins, body_outs,
               graph_inputs=None, opset=18):
    """Loop(inputs) -> outputs, its body of the given nodes and value infos;
    m: trip count, c: condition, x: [2, 3], u: unknown rank."""
    body = helper.make_graph(body_nodes, "body", body_ins, body_outs)
    return graph_model(
        [helper.make_node("Loop", inputs, outputs, name="loop", body=body)],
        graph_inputs or [vi("m", I64, []), vi("c", TensorProto.BOOL, []),
                         vi("x", F, [2, 3]), vi("u")],
        [vi(o) for o in outputs if o], opset=opset)


BODY_IC = [vi("i", I64, []), vi("ci", TensorProto.BOOL, [])]


def scan_model(inputs, outputs, body_nodes, body_ins, body_outs, opset=18,
               **attrs):
    """Scan(inputs) -> outputs over s: [3], x: [4, 3], z: [5, 3]."""
    body = helper.make_graph(body_nodes, "body", body_ins, body_outs)
    return graph_model(
        [helper.make_node("Scan", inputs, outputs, name="scan", body=body,
                          **attrs)],
        [vi("s", F, [3]), vi("x", F, [4, 3]), vi("z", F, [5, 3]),
         vi("lens", I64, [4]), vi("r", F, [])],
        [vi(o) for o in outputs if o], opset=opset)


SCAN_BODY = dict(body_nodes=[helper.make_node("Add", ["a", "e"], ["a2"]),
                             ident("a2", "o")],
                 body_ins=[vi("a"), vi("e")],
                 body_outs=[vi("a2"), vi("o")])


FAMILIES["graph"] = {
    "opset99": lambda _: identity_model(opset=99),
    "input_untyped": lambda _: identity_model(
        inputs=[onnx.ValueInfoProto(name="x")]),
    "input_string": lambda _: identity_model(
        inputs=[vi("x", TensorProto.STRING, [2])]),
    "input_negative_dim": lambda _: identity_model(inputs=[vi("x", F, [-3])]),
    "init_external": lambda _: external_init(),
    "init_string": lambda _: with_init(helper.make_tensor(
        "w", TensorProto.STRING, [1], [b"a"])),
    "init_negative_dim": lambda _: with_init(tensor("w", [-2])),
    "init_short": lambda _: with_init(tensor("w", [2], values=[1.0])),
    "init_no_name": lambda _: with_init(tensor("", [2], values=[1.0, 2.0])),
    "input_no_name": lambda _: identity_model(
        inputs=[vi("x", F, [2]), vi("", F, [2])]),
    "input_twice": lambda _: identity_model(
        inputs=[vi("x", F, [2]), vi("x", F, [2])]),
    "output_not_produced": lambda _: identity_model(
        outputs=[vi("y"), vi("nowhere")]),
    "no_outputs": lambda _: identity_model(outputs=[]),
    "no_default_opset": lambda _: identity_model(
        opsets=[helper.make_opsetid("com.example", 1)]),
    "subgraph_no_outputs": lambda _: if_model(
        [ident("x", "a")], [], [ident("x", "b")], [vi("b")]),
    "subgraph_init_no_name": lambda _: if_model(
        [helper.make_node("Add", ["x", ""], ["a"])], [vi("a")],
        [ident("x", "b")], [vi("b")],
        then_inits=[tensor("", [3], values=[1.0, 2.0, 3.0])]),
    "subgraph_input_no_name": lambda _: loop_model(
        ["m", "", "x"], ["y"], [ident("ci", "co"), ident("x", "xo")],
        BODY_IC[:1] + [vi("", TensorProto.BOOL, []), vi("xi")],
        [vi("co", TensorProto.BOOL, []), vi("xo")]),
    "subgraph_input_twice": lambda _: loop_model(
        ["m", "", "x"], ["y"], [ident("ci", "co"), ident("ci", "xo")],
        BODY_IC + [vi("ci")],
        [vi("co", TensorProto.BOOL, []), vi("xo")]),
    # 32 nested subgraphs import; protobuf refuses 33 (each is three
    # message levels, it parses 100).
    "subgraphs_32_deep": lambda _: nested_ifs(33),
    "subgraphs_33_deep": lambda _: nested_ifs(34),
}

def loop_shape_chain(n=8):
    """A Loop whose carried v0 doubles its length each iteration and v1..vn-1
    each take the previous one's value: v_k's shape settles only after v_(k-1)
    has, one body import per link (the importer gave up after 6)."""
    nodes = [ident("ci", "co"),
             helper.make_node("Concat", ["v0_in", "v0_in"], ["v0_out"],
                              axis=0)]
    nodes += [ident("v%d_in" % (k - 1), "v%d_out" % k) for k in range(1, n)]
    body = helper.make_graph(
        nodes, "body", BODY_IC + [vi("v%d_in" % k) for k in range(n)],
        [vi("co", TensorProto.BOOL, [])] + [vi("v%d_out" % k)
                                            for k in range(n)])
    return graph_model(
        [helper.make_node("Loop", ["m", ""] + ["x"] * n,
                          ["y%d" % k for k in range(n)], name="loop",
                          body=body)],
        [vi("m", I64, []), vi("x", F, ["n"])],
        [vi("y%d" % k) for k in range(n)])


def loop_shape_chain_data(outdir, trips=3, n=8):
    """Inputs and expected outputs of loop_shape_chain: after the loop,
    v_k is x tiled 2^(trips - k) times (once where k >= trips)."""
    x = np.array([1.5, -2.0, 3.0], np.float32)
    np.save(os.path.join(outdir, "chain_m.npy"), np.array(trips, np.int64))
    np.save(os.path.join(outdir, "chain_x.npy"), x)
    for k in range(n):
        np.save(os.path.join(outdir, "chain_y%d.npy" % k),
                np.tile(x, 2 ** max(trips - k, 0)))


FAMILIES["control"] = {
    "if_branch_outputs": lambda _: if_model(
        [ident("x", "a"), ident("x", "a2")], [vi("a"), vi("a2")],
        [ident("x", "b")], [vi("b")]),
    "if_branch_ranks": lambda _: if_model(
        [ident("x", "a")], [vi("a")], [ident("v", "b")], [vi("b")]),
    "loop_unranked_carried": lambda _: loop_model(
        ["m", "", "u"], ["y"], [ident("ci", "co"), ident("ui", "uo")],
        BODY_IC + [vi("ui")], [vi("co", TensorProto.BOOL, []), vi("uo")]),
    "loop_sequence_scan_output": lambda _: loop_model(
        ["m", ""], ["y"],
        [ident("ci", "co"),
         helper.make_node("SequenceEmpty", [], ["so"])],
        BODY_IC, [vi("co", TensorProto.BOOL, []), vi("so")]),
    "loop_one_input": lambda _: loop_model(
        ["m"], ["y"], [ident("ci", "co")], BODY_IC,
        [vi("co", TensorProto.BOOL, [])]),
    "loop_missing_carried": lambda _: loop_model(
        ["m", "", ""], ["y"], [ident("ci", "co"), ident("ci", "xo")],
        BODY_IC + [vi("xi")], [vi("co", TensorProto.BOOL, []), vi("xo")]),
    "loop_body_outputs": lambda _: loop_model(
        ["m", "", "x"], ["y"], [], BODY_IC + [vi("xi")], []),
    "loop_shape_chain": lambda _: loop_shape_chain(),
    "loop_node_outputs": lambda _: loop_model(
        ["m", ""], ["y", "y2"], [ident("ci", "co")], BODY_IC,
        [vi("co", TensorProto.BOOL, [])]),
    "scan_lengths": lambda _: scan_model(
        ["s", "x", "z"], ["y"],
        [helper.make_node("Add", ["a", "e"], ["a2"]),
         helper.make_node("Add", ["a2", "f"], ["o"])],
        [vi("a"), vi("e"), vi("f")], [vi("o")], num_scan_inputs=2),
    "scan_axes_count": lambda _: scan_model(
        ["s", "x"], ["y", "ys"], num_scan_inputs=1,
        scan_input_axes=[0, 0], **SCAN_BODY),
    "scan_direction2": lambda _: scan_model(
        ["s", "x"], ["y", "ys"], num_scan_inputs=1,
        scan_input_directions=[2], **SCAN_BODY),
    "scan_num_scan_inputs": lambda _: scan_model(
        ["s", "x"], ["y", "ys"], num_scan_inputs=3, **SCAN_BODY),
    "scan_body_outputs": lambda _: scan_model(
        ["s", "x"], ["y"], [], [vi("a"), vi("e")], [], num_scan_inputs=1),
    "scan_node_outputs": lambda _: scan_model(
        ["s", "x"], ["y", "ys", "y3"], num_scan_inputs=1, **SCAN_BODY),
    "scan8_sequence_lens": lambda _: scan_model(
        ["lens", "s", "x"], ["y", "ys"], opset=8, num_scan_inputs=1,
        **SCAN_BODY),
    "scan8_one_input": lambda _: scan_model(
        [""], ["y"], opset=8, num_scan_inputs=1, **SCAN_BODY),
    "scan8_no_batch_axis": lambda _: scan_model(
        ["", "r", "x"], ["y", "ys"], opset=8, num_scan_inputs=1,
        **SCAN_BODY),
}


def seq_vi(name, dtype=F, shape=None):
    return helper.make_value_info(name, helper.make_sequence_type_proto(
        helper.make_tensor_type_proto(dtype, shape)))


def typed_vi(name, setup):
    """A value info whose TypeProto `setup` fills in."""
    v = onnx.ValueInfoProto(name=name)
    setup(v.type)
    return v


def seq_model(nodes, outputs=("y",), inputs=(), opset=18, output_vis=None):
    """`nodes` over x: [2, 3] f32, k: [3] i64, p: a run-time f32 scalar,
    s: a sequence of [n] f32 tensors, su: a sequence of tensors of unknown
    rank, plus `inputs`."""
    return graph_model(
        nodes, [vi("x", F, [2, 3]), vi("k", I64, [3]), vi("p", F, []),
                seq_vi("s", F, ["n"]), seq_vi("su")] + list(inputs),
        output_vis or [vi(o) for o in outputs], opset=opset)


def node(op, inputs, outputs=("y",), **attrs):
    return helper.make_node(op, inputs, list(outputs), name=op.lower(),
                            **attrs)


def map_body(ins, outs, nodes=None):
    """A SequenceMap body: `nodes`, by default out #0 = Identity(in #0);
    `outs` are names or value infos."""
    outs = [v if isinstance(v, onnx.ValueInfoProto) else vi(v)
            for v in outs]
    if nodes is None:
        nodes = [ident(ins[0], outs[0].name)]
    return helper.make_graph(nodes, "body", [vi(i) for i in ins], outs)


def rank9():
    return [vi("x9", F, [1] * 9)]


FAMILIES["sequence"] = {
    # Graph inputs of types the importer does not take.
    "input_optional_no_elem": lambda _: seq_model(
        [ident("x", "y")], inputs=[typed_vi(
            "o", lambda t: t.optional_type.SetInParent())]),
    "input_seq_of_seq": lambda _: seq_model(
        [ident("x", "y")], inputs=[helper.make_value_info(
            "ss", helper.make_sequence_type_proto(
                helper.make_sequence_type_proto(
                    helper.make_tensor_type_proto(F, None))))]),
    "input_seq_of_strings": lambda _: seq_model(
        [ident("x", "y")], inputs=[seq_vi("st", TensorProto.STRING)]),
    "input_seq_rank9": lambda _: seq_model(
        [ident("x", "y")], inputs=[seq_vi("s9", F, [1] * 9)]),
    "input_map": lambda _: seq_model(
        [ident("x", "y")], inputs=[typed_vi(
            "mp", lambda t: t.map_type.SetInParent())]),
    # Sequences that cannot be packed (graph outputs are packed).
    "output_seq_unranked_elem": lambda _: seq_model(
        [node("SequenceConstruct", ["u"])], inputs=[vi("u")],
        output_vis=[seq_vi("y")]),
    "output_seq_rank9_elem": lambda _: seq_model(
        [node("SequenceConstruct", ["x9"])], inputs=rank9(),
        output_vis=[seq_vi("y")]),
    # Sequence ops.
    "seqat_float_position": lambda _: seq_model(
        [node("SequenceAt", ["s", "p"])]),
    "seqat_unknown_rank": lambda _: seq_model(
        [node("SequenceAt", ["su", "pos"])],
        inputs=[vi("pos", I64, [])]),
    "construct_no_inputs": lambda _: seq_model(
        [node("SequenceConstruct", [])], output_vis=[seq_vi("y")]),
    "construct_dtypes": lambda _: seq_model(
        [node("SequenceConstruct", ["x", "k"])], output_vis=[seq_vi("y")]),
    "split_to_seq_chunk0": lambda _: seq_model(
        [node("Constant", [], ["zero"], value=helper.make_tensor(
            "z", I64, [], [0])),
         node("SplitToSequence", ["x", "zero"], axis=1)],
        output_vis=[seq_vi("y")]),
    "split_to_seq_negative": lambda _: seq_model(
        [node("Constant", [], ["sz"], value=helper.make_tensor(
            "z", I64, [2], [-1, 4])),
         node("SplitToSequence", ["x", "sz"], axis=1)],
        output_vis=[seq_vi("y")]),
    "split_to_seq_sum": lambda _: seq_model(
        [node("Constant", [], ["sz"], value=helper.make_tensor(
            "z", I64, [2], [2, 2])),
         node("SplitToSequence", ["x", "sz"], axis=1)],
        output_vis=[seq_vi("y")]),
    "concat_packed_axis1": lambda _: seq_model(
        [node("ConcatFromSequence", ["s2"], axis=1)],
        inputs=[seq_vi("s2", F, ["a", "b"])]),
    # An empty list has no element rank to concatenate along.
    "concat_empty": lambda _: seq_model(
        [node("SequenceEmpty", [], ["e"]),
         node("ConcatFromSequence", ["e"], axis=0)]),
    # Optionals.
    "optional_unranked_type": lambda _: seq_model(
        [node("Optional", [], type=helper.make_tensor_type_proto(F, None))],
        output_vis=[helper.make_value_info("y", helper.make_optional_type_proto(
            helper.make_tensor_type_proto(F, None)))]),
    "optional_no_type": lambda _: seq_model(
        [node("Optional", [])],
        output_vis=[helper.make_value_info("y", helper.make_optional_type_proto(
            helper.make_tensor_type_proto(F, None)))]),
    "has_element_tensor_opset15": lambda _: seq_model(
        [node("OptionalHasElement", ["x"])], opset=15),
    "has_element_no_input_opset15": lambda _: seq_model(
        [node("OptionalHasElement", [])], opset=15),
    "get_element_tensor_opset15": lambda _: seq_model(
        [node("OptionalGetElement", ["x"])], opset=15),
    # SequenceMap.
    "seqmap_no_body": lambda _: seq_model([node("SequenceMap", ["s"])],
                                          output_vis=[seq_vi("y")]),
    "seqmap_no_inputs": lambda _: seq_model(
        [node("SequenceMap", [], body=map_body([], ["x"], []))],
        output_vis=[seq_vi("y")]),
    "seqmap_body_inputs": lambda _: seq_model(
        [node("SequenceMap", ["s", "x"], body=map_body(["e"], ["o"]))],
        output_vis=[seq_vi("y")]),
    "seqmap_lengths": lambda _: seq_model(
        [node("SequenceConstruct", ["x", "x"], ["l2"]),
         node("SequenceConstruct", ["x", "x", "x"], ["l3"]),
         node("SequenceMap", ["l2", "l3"],
              body=map_body(["a", "b"], ["o"]))],
        output_vis=[seq_vi("y")]),
    "seqmap_empty_untyped_output": lambda _: seq_model(
        [node("SequenceEmpty", [], ["e"]),
         node("SequenceMap", ["e"], body=map_body(
             ["a"], [onnx.ValueInfoProto(name="o")]))],
        output_vis=[seq_vi("y")]),
    "seqmap_unknown_rank": lambda _: seq_model(
        [node("SequenceMap", ["su"], body=map_body(["a"], ["o"]))],
        output_vis=[seq_vi("y")]),
    "seqmap_untyped_output": lambda _: seq_model(
        [node("SequenceMap", ["s"], body=map_body(
            ["a"], [onnx.ValueInfoProto(name="o")]))],
        output_vis=[seq_vi("y")]),
    "seqmap_sequence_output": lambda _: seq_model(
        [node("SequenceMap", ["s"], body=map_body(
            ["a"], ["q"],
            [helper.make_node("SequenceConstruct", ["a"], ["q"])]))],
        output_vis=[seq_vi("y")]),
}


def main(family, outdir):
    os.makedirs(outdir, exist_ok=True)
    cases = FAMILIES[family]
    for name, spec in cases.items():
        if callable(spec):
            m = spec(name)
        else:
            op, inputs, attrs = spec[:3]
            outputs = spec[3] if len(spec) > 3 else 1
            opset = spec[4] if len(spec) > 4 else 18
            m = model(name, op, inputs, attrs, outputs, opset)
        onnx.save(m, os.path.join(outdir, name + ".onnx"))
    if family == "control":
        loop_shape_chain_data(outdir)
    with open(os.path.join(outdir, "cases.txt"), "w") as f:
        f.write("\n".join(cases) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
