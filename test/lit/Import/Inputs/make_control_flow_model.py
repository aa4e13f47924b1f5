"""Writes the ONNX models (and numpy inputs/references) of
onnx-control-flow.test: If, Loop and Scan over symbolic dims, and malformed
control flow for the error cases.

usage: make_control_flow_model.py KIND OUTDIR

KIND `flow` writes OUTDIR/model.onnx and, for each size S in a, b, c, the
inputs OUTDIR/S/in<i>.npy and numpy references OUTDIR/S/out<i>.npy. The
other kinds write one malformed model each (OUTDIR/model.onnx).
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_model import save, save_data  # noqa: E402

rng = np.random.default_rng(7)
F, I64, B = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def vi(name, dtype, shape):
    return helper.make_tensor_value_info(name, dtype, shape)


def scalar_const(name, value, dtype=F):
    return helper.make_node(
        "Constant", [], [name],
        value=helper.make_tensor(name + "_v", dtype, [], [value]))


def flow(outdir):
    """x: [batch, n]; m: trip count; flag: If condition; limit: early exit.

    - If(flag): then Relu(x) * 2 (a branch initializer, and a node output
      't' that shadows the outer 't'), else Concat(x, t) + 1 with the outer
      t = -x and a Constant node: [batch, n] or [batch, 2n], joined into a
      fresh dim.
    - Loop(m): s <- s * 0.5 + x, g grows by one element (the iteration
      number) an iteration, scan output ReduceSum(s, axis 1): [m, batch].
    - Loop(2^62, cond): v <- v * 2 while max(abs(v)) < limit (early exit: a
      huge trip count simply runs, nothing is allocated by it); the
      iteration count as a scan output.
    - Scan over axis 1 of x: running sum of the columns (state [batch]),
      scan outputs the running sum at axis 1 and x's columns reversed.
    """
    x = vi("x", F, ["batch", "n"])
    m = vi("m", I64, [])
    flag = vi("flag", B, [])
    limit = vi("limit", F, [])
    outs = [vi(n, F, None) for n in ("y_if", "s", "g", "sums", "v")] + [
        vi("its", I64, None), vi("state", F, None), vi("run", F, None),
        vi("rev", F, None)]

    then_g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["t"]),
         helper.make_node("Mul", ["t", "two"], ["yt"])],
        "then", [], [vi("yt", F, None)],
        initializer=[numpy_helper.from_array(np.array(2, np.float32), "two")])
    else_g = helper.make_graph(
        [helper.make_node("Concat", ["x", "t"], ["c"], axis=1),
         scalar_const("one", 1.0),
         helper.make_node("Add", ["c", "one"], ["ye"])],
        "else", [], [vi("ye", F, None)])

    body1 = helper.make_graph(
        [scalar_const("half", 0.5),
         helper.make_node("Mul", ["s_in", "half"], ["sh"]),
         helper.make_node("Add", ["sh", "x"], ["s_out"]),
         helper.make_node("Cast", ["i"], ["fi"], to=F),
         helper.make_node("Unsqueeze", ["fi", "ax0"], ["fi1"]),
         helper.make_node("Concat", ["g_in", "fi1"], ["g_out"], axis=0),
         helper.make_node("ReduceSum", ["s_out", "ax1"], ["row"],
                          keepdims=0),
         helper.make_node("Identity", ["c_in"], ["c_out"])],
        "body1",
        [vi("i", I64, []), vi("c_in", B, []), vi("s_in", F, None),
         vi("g_in", F, None)],
        [vi("c_out", B, []), vi("s_out", F, None), vi("g_out", F, None),
         vi("row", F, None)],
        initializer=[numpy_helper.from_array(np.array([0], np.int64), "ax0"),
                     numpy_helper.from_array(np.array([1], np.int64), "ax1")])

    # v_in doubled as v + v on even and v * 2 on odd iterations: an If
    # nested in a Loop body (its branches use the body's values by name).
    dbl_add = helper.make_graph(
        [helper.make_node("Add", ["v_in", "v_in"], ["da"])], "dbl_add", [],
        [vi("da", F, None)])
    dbl_mul = helper.make_graph(
        [scalar_const("two_f", 2.0),
         helper.make_node("Mul", ["v_in", "two_f"], ["dm"])], "dbl_mul", [],
        [vi("dm", F, None)])
    body2 = helper.make_graph(
        [helper.make_node("Mod", ["i", "two_i"], ["odd"]),
         helper.make_node("Equal", ["odd", "zero_i"], ["even"]),
         helper.make_node("If", ["even"], ["v_out"], then_branch=dbl_add,
                          else_branch=dbl_mul, name="inner_if"),
         helper.make_node("Abs", ["v_out"], ["av"]),
         helper.make_node("ReduceMax", ["av"], ["mx"], keepdims=0),
         helper.make_node("Less", ["mx", "limit"], ["c_out"]),
         helper.make_node("Identity", ["i"], ["it"])],
        "body2",
        [vi("i", I64, []), vi("c_in", B, []), vi("v_in", F, None)],
        [vi("c_out", B, []), vi("v_out", F, None), vi("it", I64, None)],
        initializer=[numpy_helper.from_array(np.array(2, np.int64), "two_i"),
                     numpy_helper.from_array(np.array(0, np.int64), "zero_i")])

    scan_body = helper.make_graph(
        [helper.make_node("Add", ["acc", "col"], ["acc_out"]),
         helper.make_node("Identity", ["acc_out"], ["run_out"]),
         helper.make_node("Identity", ["col"], ["col_out"])],
        "scan_body",
        [vi("acc", F, None), vi("col", F, None)],
        [vi("acc_out", F, None), vi("run_out", F, None),
         vi("col_out", F, None)])

    nodes = [
        helper.make_node("Neg", ["x"], ["t"]),
        helper.make_node("If", ["flag"], ["y_if"], then_branch=then_g,
                         else_branch=else_g, name="if0"),
        helper.make_node("Loop", ["m", "", "x", "g_empty"],
                         ["s", "g", "sums"], body=body1, name="loop1"),
        helper.make_node("Constant", [], ["hundred"],
                         value=helper.make_tensor("h", I64, [], [2**62])),
        helper.make_node("Constant", [], ["yes"],
                         value=helper.make_tensor("y", B, [], [True])),
        helper.make_node("Loop", ["hundred", "yes", "x"], ["v", "its"],
                         body=body2, name="loop2"),
        helper.make_node("ReduceSum", ["x", "ax1o"], ["zero_state0"],
                         keepdims=0),
        helper.make_node("Mul", ["zero_state0", "zerof"], ["zero_state"]),
        helper.make_node("Scan", ["zero_state", "x"], ["state", "run", "rev"],
                         body=scan_body, num_scan_inputs=1,
                         scan_input_axes=[1],
                         scan_output_axes=[1, 1],
                         scan_output_directions=[0, 1], name="scan0"),
    ]
    inits = [numpy_helper.from_array(np.zeros(0, np.float32), "g_empty"),
             numpy_helper.from_array(np.array([1], np.int64), "ax1o"),
             numpy_helper.from_array(np.array(0, np.float32), "zerof")]
    graph = helper.make_graph(nodes, "flow", [x, m, flag, limit], outs,
                              initializer=inits)
    save(outdir, graph, opset=13)

    for name, (batch, n, trips, fl) in {"a": (2, 3, 4, True),
                                        "b": (3, 5, 0, False),
                                        "c": (1, 2, 7, False)}.items():
        xv = rng.standard_normal((batch, n)).astype(np.float32)
        lim = np.array(20, np.float32)
        y_if = (np.maximum(xv, 0) * 2 if fl
                else np.concatenate([xv, -xv], 1) + 1).astype(np.float32)
        s = xv.copy()
        g = np.zeros(0, np.float32)
        sums = []
        for i in range(trips):
            s = s * np.float32(0.5) + xv
            g = np.concatenate([g, np.array([i], np.float32)])
            sums.append(s.sum(1))
        sums = (np.stack(sums) if sums
                else np.zeros((0, batch), np.float32)).astype(np.float32)
        v = xv.copy()
        its = []
        while True:
            v = v + v
            its.append(len(its))
            if not np.abs(v).max() < lim:
                break
        its = np.array(its, np.int64)
        run = np.cumsum(xv, 1, dtype=np.float32)
        state = run[:, -1].copy()
        rev = xv[:, ::-1].copy()
        outs = [y_if, s, g, sums, v, its, state, run, rev]
        save_data(outdir, name,
                  [xv, np.array(trips, np.int64), np.array(fl), lim],
                  outs)


def nested(outdir):
    """A Loop in a Loop body: the inner loop adds x to the carried value twice
    and stacks its sums; the outer one runs it m times and stacks the inner
    stacks ([m, 2]). Data for n = 3, m = 3 in `a` and n = 4, m = 1 in `b`."""
    inner = helper.make_graph(
        [helper.make_node("Add", ["u", "x"], ["u2"]),
         helper.make_node("Identity", ["c"], ["co"]),
         helper.make_node("ReduceSum", ["u2"], ["rs"], keepdims=0)],
        "inner", [vi("j", I64, []), vi("c", B, []), vi("u", F, None)],
        [vi("co", B, []), vi("u2", F, None), vi("rs", F, None)])
    outer = helper.make_graph(
        [helper.make_node("Loop", ["two", "", "s"], ["s2", "sc"], body=inner,
                          name="inner_loop"),
         helper.make_node("Identity", ["c"], ["co"])],
        "outer", [vi("i", I64, []), vi("c", B, []), vi("s", F, None)],
        [vi("co", B, []), vi("s2", F, None), vi("sc", F, None)],
        initializer=[numpy_helper.from_array(np.array(2, np.int64), "two")])
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", "", "x"], ["y", "z"], body=outer,
                          name="outer_loop")],
        "nested", [vi("x", F, ["n"]), vi("m", I64, [])],
        [vi("y", F, None), vi("z", F, None)])
    save(outdir, graph, opset=13)
    for name, (n, trips) in {"a": (3, 3), "b": (4, 1)}.items():
        xv = rng.standard_normal(n).astype(np.float32)
        s = xv.copy()
        zs = []
        for _ in range(trips):
            row = []
            for _ in range(2):
                s = s + xv
                row.append(s.sum())
            zs.append(row)
        z = np.array(zs, np.float32).reshape(trips, 2)
        save_data(outdir, name, [xv, np.array(trips, np.int64)], [s, z])


def _loop_model(outdir, inputs, body, extra_inputs=(), **attrs):
    """A model of one Loop node over x: [n] with graph inputs
    `extra_inputs`."""
    x = vi("x", F, ["n"])
    nodes = [helper.make_node("Loop", inputs, ["y"], body=body, name="loop",
                              **attrs)]
    graph = helper.make_graph(nodes, "bad", [x, *extra_inputs],
                              [vi("y", F, None)])
    save(outdir, graph, opset=13)


def _add_body(num_inputs=3):
    ins = [vi("i", I64, []), vi("c", B, []), vi("v", F, None)][:num_inputs]
    return helper.make_graph(
        [helper.make_node("Add", ["v", "v"], ["w"]),
         helper.make_node("Identity", ["c"], ["c_out"])],
        "body", ins, [vi("c_out", B, []), vi("w", F, None)])


def if_missing_else(outdir):
    """If without else_branch."""
    x = vi("x", F, ["n"])
    c = vi("c", B, [])
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["r"])], "then",
                          [], [vi("r", F, None)])
    graph = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=g, name="if0")],
        "bad", [x, c], [vi("y", F, None)])
    save(outdir, graph, opset=13)


def if_vector_cond(outdir):
    """If on a condition of two elements."""
    x = vi("x", F, ["n"])
    c = vi("c", B, [2])
    g = helper.make_graph([helper.make_node("Relu", ["x"], ["r"])], "b",
                          [], [vi("r", F, None)])
    graph = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=g, else_branch=g,
                          name="if0")],
        "bad", [x, c], [vi("y", F, None)])
    save(outdir, graph, opset=13)


def loop_body_inputs(outdir):
    """A Loop body with 2 inputs for 1 loop-carried value (3 expected)."""
    m = vi("m", I64, [])
    _loop_model(outdir, ["m", "", "x"], _add_body(2), [m])


def loop_negative(outdir):
    """A constant trip count of -1."""
    body = _add_body()
    x = vi("x", F, ["n"])
    nodes = [helper.make_node("Constant", [], ["m"],
                              value=helper.make_tensor("mv", I64, [], [-1])),
             helper.make_node("Loop", ["m", "", "x"], ["y"], body=body,
                              name="loop")]
    graph = helper.make_graph(nodes, "bad", [x], [vi("y", F, None)])
    save(outdir, graph, opset=13)


def loop_endless(outdir):
    """A Loop with neither a trip count nor a condition."""
    _loop_model(outdir, ["", "", "x"], _add_body())


def loop_float_cond(outdir):
    """A Loop whose condition is a float."""
    c = vi("c", F, [])
    _loop_model(outdir, ["", "c", "x"], _add_body(), [c])


def loop_rank_change(outdir):
    """A loop-carried value whose rank changes."""
    m = vi("m", I64, [])
    body = helper.make_graph(
        [helper.make_node("Unsqueeze", ["v", "ax"], ["w"]),
         helper.make_node("Identity", ["c"], ["c_out"])],
        "body", [vi("i", I64, []), vi("c", B, []), vi("v", F, None)],
        [vi("c_out", B, []), vi("w", F, None)],
        initializer=[numpy_helper.from_array(np.array([0], np.int64), "ax")])
    _loop_model(outdir, ["m", "", "x"], body, [m])


def run_vector_cond(outdir):
    """A Loop condition of a run-time length: one element is checked when
    the model runs."""
    c = vi("c", B, ["k"])
    m = vi("m", I64, [])
    _loop_model(outdir, ["m", "c", "x"], _add_body(), [m, c])
    save_data(outdir, "data", [np.ones(3, np.float32), np.array(2),
                               np.array([True, True])], [])


def main():
    kind, outdir = sys.argv[1], sys.argv[2]
    globals()[kind](outdir)


if __name__ == "__main__":
    main()
