"""Writes the ONNX models of onnx-sequences.test: sequences and optionals
through Loop and If over a symbolic batch, and malformed sequence use.

usage: make_sequence_model.py KIND OUTDIR
       make_sequence_model.py reference REFDIR   (onnxruntime, by hand)

KIND `flow` writes OUTDIR/model.onnx. Its inputs and expected outputs are
committed under Inputs/sequences/{a,b,c}: `reference` (run by hand with a
Python that has onnxruntime, e.g. /work/venv-gen/bin/python) writes the
model, seeded inputs and onnxruntime's outputs there, each sequence output
as the importer's two relax results (the elements flattened and
concatenated, their dims padded with -1 to 8) and each optional as its flag
then its element (docs/onnx.md, "Sequences and optionals"). The other
kinds write one model each for the error cases.
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_model import save  # noqa: E402

F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL
SEQ_MAX_RANK = 8


def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def seq_vi(name, dtype):
    return helper.make_value_info(
        name, helper.make_sequence_type_proto(
            helper.make_tensor_type_proto(dtype, None)))


def const(name, values, dtype=I64, dims=None):
    values = list(np.atleast_1d(values))
    return helper.make_node(
        "Constant", [], [name],
        value=helper.make_tensor(name + "_v", dtype,
                                 [len(values)] if dims is None else dims,
                                 values))


def flow_graph():
    """x: [batch, 4] f32; m: trip count; flag: If condition; k: a run-time
    position.

    - Loop(m) grows a sequence from SequenceEmpty: iteration i inserts
      Transpose(x)[:i + 1] * (i + 1), of shape [i + 1, batch] (a run-time
      Slice: each element has its own shape); SequenceLength inside the body
      is the iteration count so far, added to the element.
    - After it: the sequence itself, ConcatFromSequence along axis 0
      ([m (m + 1) / 2, batch]), SequenceAt at -1 and at the run-time k,
      SequenceLength.
    - If(flag): SplitToSequence(x, 2, axis 1) (2 elements [batch, 2]) or
      SequenceConstruct of three [batch, 2] slices of x: lists of different
      lengths, joined as one packed sequence; stacked by ConcatFromSequence
      (new_axis), SequenceErase(_, 0) then SequenceAt(_, 0).
    - If(flag): Optional(that sequence) or an empty Optional: an optional
      decided at run time; OptionalHasElement and the optional itself.
    - The grown sequence with element k erased, and with x inserted at k
      (run-time positions in a packed sequence).
    - SplitToSequence(x, axis 1, keepdims 0): four [batch] columns, the
      first erased, the next one read; all four stacked back into x
      (ConcatFromSequence with new_axis at axis 1): list edits.
    - SequenceMap over the grown sequence and x (a relax.while over a
      packed sequence: element + 2 * x[0, 0]) and over the columns (mapped
      at import time: squares, and the column sums as a second output).
    """
    x = vi("x", F, ["batch", 4])
    m = vi("m", I64, [])
    flag = vi("flag", B, [])
    k = vi("k", I64, [])

    body = helper.make_graph(
        [helper.make_node("Identity", ["c_in"], ["c_out"]),
         helper.make_node("Transpose", ["x"], ["xt"], perm=[1, 0]),
         const("one", 1, dims=[]),
         const("zero1", [0]),
         helper.make_node("Add", ["i", "one"], ["i1"]),
         const("ax0", [0]),
         helper.make_node("Unsqueeze", ["i1", "ax0"], ["end"]),
         helper.make_node("Slice", ["xt", "zero1", "end", "ax0"], ["part"]),
         helper.make_node("Cast", ["i1"], ["fi1"], to=F),
         helper.make_node("Mul", ["part", "fi1"], ["scaled"]),
         helper.make_node("SequenceLength", ["s_in"], ["len"]),
         helper.make_node("Cast", ["len"], ["flen"], to=F),
         helper.make_node("Add", ["scaled", "flen"], ["elem"]),
         helper.make_node("SequenceInsert", ["s_in", "elem"], ["s_out"])],
        "grow",
        [vi("i", I64, []), vi("c_in", B, []), seq_vi("s_in", F)],
        [vi("c_out", B, []), seq_vi("s_out", F)])

    then_g = helper.make_graph(
        [const("two", 2, dims=[]),
         helper.make_node("SplitToSequence", ["x", "two"], ["st"], axis=1)],
        "then", [], [seq_vi("st", F)])
    else_g = helper.make_graph(
        [const("b0", [0]), const("e0", [2]), const("b1", [2]),
         const("e1", [4]), const("b2", [1]), const("e2", [3]),
         const("axis1", [1]),
         helper.make_node("Slice", ["x", "b0", "e0", "axis1"], ["p0"]),
         helper.make_node("Slice", ["x", "b1", "e1", "axis1"], ["p1"]),
         helper.make_node("Slice", ["x", "b2", "e2", "axis1"], ["p2"]),
         helper.make_node("Neg", ["p0"], ["n0"]),
         helper.make_node("SequenceConstruct", ["n0", "p1", "p2"], ["se"])],
        "else", [], [seq_vi("se", F)])

    opt_type = helper.make_optional_type_proto(
        helper.make_sequence_type_proto(
            helper.make_tensor_type_proto(F, ["batch", 2])))
    some_g = helper.make_graph(
        [helper.make_node("Optional", ["pieces"], ["o1"])],
        "some", [], [helper.make_value_info("o1", opt_type)])
    none_g = helper.make_graph(
        [helper.make_node("Optional", [], ["o0"], type=opt_type.optional_type
                          .elem_type)],
        "none", [], [helper.make_value_info("o0", opt_type)])

    map_grown = helper.make_graph(
        [const("zz", [0, 0], dims=[2]),
         helper.make_node("GatherND", ["xx", "zz"], ["x00"]),
         helper.make_node("Add", ["x00", "x00"], ["twice"]),
         helper.make_node("Add", ["e", "twice"], ["mo"])],
        "map_grown", [vi("e", F, None), vi("xx", F, ["batch", 4])],
        [vi("mo", F, None)])
    map_cols = helper.make_graph(
        [helper.make_node("Mul", ["c", "c"], ["sq"]),
         helper.make_node("ReduceSum", ["c"], ["cs"], keepdims=1)],
        "map_cols", [vi("c", F, ["batch"])],
        [vi("sq", F, None), vi("cs", F, None)])

    nodes = [
        helper.make_node("SequenceEmpty", [], ["empty"], dtype=F),
        helper.make_node("Constant", [], ["yes"],
                         value=helper.make_tensor("yes_v", B, [], [True])),
        helper.make_node("Loop", ["m", "yes", "empty"], ["grown"],
                         body=body),
        helper.make_node("ConcatFromSequence", ["grown"], ["cat"], axis=0),
        const("last", -1, dims=[]),
        helper.make_node("SequenceAt", ["grown", "last"], ["tail"]),
        helper.make_node("SequenceAt", ["grown", "k"], ["at_k"]),
        helper.make_node("SequenceLength", ["grown"], ["count"]),
        helper.make_node("If", ["flag"], ["pieces"], then_branch=then_g,
                         else_branch=else_g),
        helper.make_node("ConcatFromSequence", ["pieces"], ["stacked"],
                         axis=0, new_axis=1),
        const("first", 0, dims=[]),
        helper.make_node("SequenceErase", ["pieces", "first"], ["rest"]),
        helper.make_node("SequenceAt", ["rest", "first"], ["second"]),
        helper.make_node("If", ["flag"], ["maybe"], then_branch=some_g,
                         else_branch=none_g),
        helper.make_node("OptionalHasElement", ["maybe"], ["has"]),
        helper.make_node("SequenceErase", ["grown", "k"], ["erased"]),
        helper.make_node("SequenceInsert", ["grown", "x", "k"], ["inserted"]),
        helper.make_node("SplitToSequence", ["x"], ["cols"], axis=1,
                         keepdims=0),
        helper.make_node("SequenceErase", ["cols", "first"], ["cols3"]),
        helper.make_node("SequenceAt", ["cols3", "first"], ["col1"]),
        helper.make_node("ConcatFromSequence", ["cols"], ["restacked"],
                         axis=1, new_axis=1),
        helper.make_node("SequenceMap", ["grown", "x"], ["mapped"],
                         body=map_grown),
        helper.make_node("SequenceMap", ["cols"], ["squares", "sums"],
                         body=map_cols),
    ]
    outputs = [seq_vi("grown", F), vi("cat", F, None), vi("tail", F, None),
               vi("at_k", F, None), vi("count", I64, None),
               vi("stacked", F, None), vi("second", F, None),
               vi("has", B, None), helper.make_value_info("maybe", opt_type),
               seq_vi("erased", F), seq_vi("inserted", F),
               vi("col1", F, None), vi("restacked", F, None),
               seq_vi("mapped", F), seq_vi("squares", F), seq_vi("sums", F)]
    return helper.make_graph(nodes, "sequences", [x, m, flag, k], outputs)


# (batch, m, flag, k) of each size set: k counts from the end where
# negative.
SIZES = {"a": (3, 4, True, 1), "b": (1, 1, False, -1), "c": (5, 6, True, -3)}


def flat(value):
    """An output as the importer's relax results."""
    if isinstance(value, list):
        data = (np.concatenate([e.ravel() for e in value]) if value
                else np.zeros([0], np.float32))
        shapes = np.full([len(value), SEQ_MAX_RANK], -1, np.int64)
        for i, e in enumerate(value):
            shapes[i, :e.ndim] = e.shape
        return [data, shapes]
    return [value]


def reference(refdir):
    import onnxruntime as ort
    save(refdir, flow_graph(), opset=18)
    model = os.path.join(refdir, "model.onnx")
    sess = ort.InferenceSession(model)
    rng = np.random.default_rng(11)
    for name, (batch, m, flag, k) in SIZES.items():
        inputs = [rng.standard_normal([batch, 4]).astype(np.float32),
                  np.array(m, np.int64), np.array(flag), np.array(k, np.int64)]
        outs = sess.run(None, dict(zip(["x", "m", "flag", "k"], inputs)))
        d = os.path.join(refdir, name)
        os.makedirs(d, exist_ok=True)
        for i, a in enumerate(inputs):
            np.save(os.path.join(d, "in%d.npy" % i), a)
        values = []
        for o in outs[:8]:
            values += flat(o)
        maybe = outs[8]
        values.append(np.array(maybe is not None))
        values += flat(maybe if maybe is not None else [])
        for o in outs[9:]:
            values += flat(o)
        for i, a in enumerate(values):
            np.save(os.path.join(d, "out%d.npy" % i), a)
    os.remove(model)


def typed_seq(name):
    """A sequence of 1-D f32 tensors."""
    return helper.make_value_info(
        name, helper.make_sequence_type_proto(
            helper.make_tensor_type_proto(F, ["k"])))


def errors(kind, outdir):
    x = vi("x", F, ["n"])
    p = vi("p", I64, [])
    construct = helper.make_node("SequenceConstruct", ["x", "x"], ["s"])
    if kind == "at_out_of_range":
        g = helper.make_graph(
            [construct, const("five", 5, dims=[]),
             helper.make_node("SequenceAt", ["s", "five"], ["y"], name="at")],
            "g", [x], [vi("y", F, None)])
    elif kind == "at_runtime":
        g = helper.make_graph(
            [construct,
             helper.make_node("SequenceAt", ["s", "p"], ["y"], name="at")],
            "g", [x, p], [vi("y", F, None)])
    elif kind == "insert_dtype":
        g = helper.make_graph(
            [construct, const("i", 1, dims=[]),
             helper.make_node("SequenceInsert", ["s", "i"], ["t"],
                              name="ins")],
            "g", [x], [seq_vi("t", F)])
    elif kind == "at_tensor":
        g = helper.make_graph(
            [helper.make_node("SequenceAt", ["x", "p"], ["y"], name="at")],
            "g", [x, p], [vi("y", F, None)])
    elif kind == "add_sequence":
        g = helper.make_graph(
            [construct, helper.make_node("Add", ["s", "x"], ["y"],
                                         name="add")],
            "g", [x], [vi("y", F, None)])
    elif kind == "if_mixed":
        then_g = helper.make_graph(
            [helper.make_node("SequenceConstruct", ["x"], ["t"])], "then",
            [], [seq_vi("t", F)])
        else_g = helper.make_graph(
            [helper.make_node("Identity", ["x"], ["e"])], "else", [],
            [vi("e", F, None)])
        g = helper.make_graph(
            [helper.make_node("If", ["c"], ["y"], then_branch=then_g,
                              else_branch=else_g, name="if0")],
            "g", [x, vi("c", B, [])], [vi("y", F, None)])
    elif kind == "map_lengths":
        body = helper.make_graph(
            [helper.make_node("Add", ["a", "b"], ["c"])], "body",
            [vi("a", F, None), vi("b", F, None)], [vi("c", F, None)])
        g = helper.make_graph(
            [helper.make_node("SequenceMap", ["s", "t"], ["u"], body=body,
                              name="map")],
            "g", [typed_seq("s"), typed_seq("t")], [seq_vi("u", F)])
    elif kind == "get_empty":
        g = helper.make_graph(
            [helper.make_node("Optional", [], ["o"],
                              type=helper.make_tensor_type_proto(F, [2])),
             helper.make_node("OptionalGetElement", ["o"], ["y"],
                              name="get")],
            "g", [x], [vi("y", F, None)])
    elif kind == "get_runtime_empty":
        g = helper.make_graph(
            [helper.make_node("OptionalGetElement", ["o"], ["y"],
                              name="get")],
            "g", [helper.make_value_info(
                "o", helper.make_optional_type_proto(
                    helper.make_tensor_type_proto(F, ["n"])))],
            [vi("y", F, None)])
    else:
        sys.exit("unknown kind " + kind)
    save(outdir, g, opset=18)


def main():
    kind, outdir = sys.argv[1], sys.argv[2]
    if kind == "flow":
        save(outdir, flow_graph(), opset=18)
    elif kind == "reference":
        reference(outdir)
    else:
        errors(kind, outdir)


if __name__ == "__main__":
    main()
