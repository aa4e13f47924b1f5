"""Writes the ONNX model (and numpy inputs/references) of onnx-rnn.test: a
recurrent classifier over symbolic batch and sequence, x [batch, seq, 6]
batch first:

  LSTM  bidirectional, layout 1, hidden 5, B, sequence_lens, initial_h,
        initial_c, peepholes P (Y, Y_h, Y_c)
  GRU   reverse, layout 0 over the LSTM's Y (reshaped to [batch, seq, 10],
        transposed), linear_before_reset 1, hidden 4, sequence_lens,
        initial_h (Y, Y_h)
  RNN   forward, layout 1 over x, LeakyRelu (alpha 0.1), clip 3, hidden 3,
        no B, lengths or initial state; only Y_h requested
  logits = concat(LSTM Y_h, GRU Y_h, RNN Y_h) * Wc + bc

usage: make_rnn_model.py OUTDIR [errors]

With `errors`, OUTDIR/<case>/model.onnx are single malformed recurrent nodes
for onnx-rnn-errors.test instead (see ERRORS).

The model is OUTDIR/model.onnx; each size S in a, b has its inputs in
OUTDIR/S/in<i>.npy and the references of a numpy implementation of the ONNX
equations (below) in OUTDIR/S/out<i>.npy: LSTM Y, LSTM Y_c, GRU Y, logits.
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_model import save, save_data  # noqa: E402

rng = np.random.default_rng(7)
INPUT, HL, HG, HR = 6, 5, 4, 3


def sigmoid(v):
    return 1 / (1 + np.exp(-v))


def run_dirs(x, lens, directions, step, state):
    """Runs `step` over x [seq, batch, ...] for each direction ("f" or "r"),
    with per-batch lengths; returns Y [seq, D, batch, H] and the final
    states (a tuple per direction)."""
    seq, batch = x.shape[:2]
    hsize = state[0][0].shape[-1]
    y = np.zeros((seq, len(directions), batch, hsize), np.float64)
    finals = []
    for di, dname in enumerate(directions):
        st = [s[di].copy() for s in state]
        for b in range(batch):
            cur = [s[b] for s in st]
            steps = range(lens[b]) if dname == "f" else \
                range(lens[b] - 1, -1, -1)
            for t in steps:
                cur = step(di, x[t, b], cur)
                y[t, di, b] = cur[0]
            for s, c in zip(st, cur):
                s[b] = c
        finals.append(st)
    return y, [np.stack([f[i] for f in finals]) for i in range(len(state))]


def lstm_ref(x, w, r, bias, lens, h0, c0, p, directions):
    hs = r.shape[-1]

    def step(d, xt, cur):
        h, c = cur
        g = w[d] @ xt + r[d] @ h + bias[d, :4 * hs] + bias[d, 4 * hs:]
        gi, go, gf, gc = np.split(g, 4)
        i = sigmoid(gi + p[d, :hs] * c)
        f = sigmoid(gf + p[d, 2 * hs:] * c)
        c = f * c + i * np.tanh(gc)
        o = sigmoid(go + p[d, hs:2 * hs] * c)
        return [o * np.tanh(c), c]

    return run_dirs(x, lens, directions, step, [h0, c0])


def gru_ref(x, w, r, bias, lens, h0, directions, lbr):
    hs = r.shape[-1]

    def step(d, xt, cur):
        h, = cur
        xw = w[d] @ xt + bias[d, :3 * hs]
        rb = bias[d, 3 * hs:]
        z = sigmoid(xw[:hs] + r[d, :hs] @ h + rb[:hs])
        rr = sigmoid(xw[hs:2 * hs] + r[d, hs:2 * hs] @ h + rb[hs:2 * hs])
        if lbr:
            cand = np.tanh(xw[2 * hs:] + rr * (r[d, 2 * hs:] @ h + rb[2 * hs:]))
        else:
            cand = np.tanh(xw[2 * hs:] + r[d, 2 * hs:] @ (rr * h) + rb[2 * hs:])
        return [(1 - z) * cand + z * h]

    return run_dirs(x, lens, directions, step, [h0])


def rnn_ref(x, w, r, h0, lens, alpha, clip):
    def step(d, xt, cur):
        v = np.clip(w[d] @ xt + r[d] @ cur[0], -clip, clip)
        return [np.where(v < 0, alpha * v, v)]

    return run_dirs(x, lens, "f", step, [h0])


def model(outdir):
    f32 = TensorProto.FLOAT
    inputs = [
        helper.make_tensor_value_info("x", f32, ["batch", "seq", INPUT]),
        helper.make_tensor_value_info("lens", TensorProto.INT32, ["batch"]),
        helper.make_tensor_value_info("h0", f32, ["batch", 2, HL]),
        helper.make_tensor_value_info("c0", f32, ["batch", 2, HL]),
        helper.make_tensor_value_info("hg", f32, [1, "batch", HG]),
    ]
    outputs = [helper.make_tensor_value_info(n, f32, None)
               for n in ("lstm_y", "lstm_yc", "gru_y", "logits")]
    par = {
        "wl": rng.uniform(-0.5, 0.5, (2, 4 * HL, INPUT)),
        "rl": rng.uniform(-0.5, 0.5, (2, 4 * HL, HL)),
        "bl": rng.uniform(-0.5, 0.5, (2, 8 * HL)),
        "pl": rng.uniform(-0.5, 0.5, (2, 3 * HL)),
        "wg": rng.uniform(-0.5, 0.5, (1, 3 * HG, 2 * HL)),
        "rg": rng.uniform(-0.5, 0.5, (1, 3 * HG, HG)),
        "bg": rng.uniform(-0.5, 0.5, (1, 6 * HG)),
        "wr": rng.uniform(-0.5, 0.5, (1, HR, INPUT)),
        "rr": rng.uniform(-0.5, 0.5, (1, HR, HR)),
        "wc": rng.uniform(-0.5, 0.5, (2 * HL + HG + HR, 3)),
        "bc": rng.uniform(-0.5, 0.5, (3,)),
    }
    par = {k: v.astype(np.float32) for k, v in par.items()}
    shape10 = np.array([0, 0, 2 * HL], np.int64)
    flat = np.array([0, -1], np.int64)
    nodes = [
        helper.make_node("LSTM", ["x", "wl", "rl", "bl", "lens", "h0", "c0",
                                  "pl"], ["lstm_y", "lstm_yh", "lstm_yc"],
                         hidden_size=HL, direction="bidirectional", layout=1),
        helper.make_node("Reshape", ["lstm_y", "shape10"], ["lstm_y10"]),
        helper.make_node("Transpose", ["lstm_y10"], ["gru_x"], perm=[1, 0, 2]),
        helper.make_node("GRU", ["gru_x", "wg", "rg", "bg", "lens", "hg"],
                         ["gru_y", "gru_yh"], hidden_size=HG,
                         direction="reverse", linear_before_reset=1),
        helper.make_node("RNN", ["x", "wr", "rr"], ["", "rnn_yh"],
                         hidden_size=HR, activations=["LeakyRelu"],
                         activation_alpha=[0.1], clip=3.0, layout=1),
        helper.make_node("Reshape", ["lstm_yh", "flat"], ["lstm_feat"]),
        helper.make_node("Squeeze", ["gru_yh", "axis0"], ["gru_feat"]),
        helper.make_node("Reshape", ["rnn_yh", "flat"], ["rnn_feat"]),
        helper.make_node("Concat", ["lstm_feat", "gru_feat", "rnn_feat"],
                         ["feat"], axis=1),
        helper.make_node("MatMul", ["feat", "wc"], ["mm"]),
        helper.make_node("Add", ["mm", "bc"], ["logits"]),
    ]
    inits = [numpy_helper.from_array(v, k) for k, v in par.items()]
    inits += [numpy_helper.from_array(shape10, "shape10"),
              numpy_helper.from_array(flat, "flat"),
              numpy_helper.from_array(np.array([0], np.int64), "axis0")]
    save(outdir, helper.make_graph(nodes, "rnn", inputs, outputs, inits),
         opset=14)

    p = {k: v.astype(np.float64) for k, v in par.items()}
    for name, lens in (("a", [5, 2, 3]), ("b", [4, 7])):
        batch, seq = len(lens), max(lens)
        x = rng.standard_normal((batch, seq, INPUT)).astype(np.float32)
        h0 = rng.standard_normal((batch, 2, HL)).astype(np.float32)
        c0 = rng.standard_normal((batch, 2, HL)).astype(np.float32)
        hg = rng.standard_normal((1, batch, HG)).astype(np.float32)
        xs = x.transpose(1, 0, 2).astype(np.float64)
        ly, (lh, lc) = lstm_ref(xs, p["wl"], p["rl"], p["bl"], lens,
                                h0.transpose(1, 0, 2), c0.transpose(1, 0, 2),
                                p["pl"], "fr")
        gx = ly.transpose(0, 2, 1, 3).reshape(seq, batch, 2 * HL)
        gy, (gh,) = gru_ref(gx, p["wg"], p["rg"], p["bg"], lens, hg, "r",
                            lbr=True)
        _, (rh,) = rnn_ref(xs, p["wr"], p["rr"], np.zeros((1, batch, HR)),
                           [seq] * batch, 0.1, 3.0)
        feat = np.concatenate([lh.transpose(1, 0, 2).reshape(batch, -1),
                               gh[0], rh[0]], axis=1)
        logits = feat @ p["wc"] + p["bc"]
        outs = [ly.transpose(2, 0, 1, 3), lc.transpose(1, 0, 2), gy, logits]
        save_data(outdir, name, [x, np.array(lens, np.int32), h0, c0, hg],
                  [o.astype(np.float32) for o in outs])


# Malformed single-node models: (case, op, X shape, W shape, R shape,
# attributes).
ERRORS = [
    ("hidden", "LSTM", ["b", "s", 4], [1, 20, 4], [1, 20, 5],
     {"hidden_size": 7}),
    ("activation", "GRU", ["s", "b", 4], [1, 15, 4], [1, 15, 5],
     {"activations": ["Sigmoid", "Gelu"]}),
    ("activation_count", "GRU", ["s", "b", 4], [2, 15, 4], [2, 15, 5],
     {"direction": "bidirectional",
      "activations": ["Sigmoid", "Tanh", "Tanh"]}),
    ("direction", "RNN", ["s", "b", 4], [1, 5, 4], [1, 5, 5],
     {"direction": "sideways"}),
    ("rank", "RNN", ["s", 4], [1, 5, 4], [1, 5, 5], {}),
    ("w_gates", "LSTM", ["s", "b", 4], [1, 16, 4], [1, 20, 5], {}),
    ("w_input", "GRU", ["s", "b", 4], [1, 15, 3], [1, 15, 5], {}),
    ("directions", "RNN", ["s", "b", 4], [1, 5, 4], [1, 5, 5],
     {"direction": "bidirectional"}),
]


def errors(outdir):
    for case, op, xs, ws, rs, attrs in ERRORS:
        x = helper.make_tensor_value_info("x", TensorProto.FLOAT, xs)
        y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
        w = numpy_helper.from_array(np.zeros(ws, np.float32), "w")
        r = numpy_helper.from_array(np.zeros(rs, np.float32), "r")
        node = helper.make_node(op, ["x", "w", "r"], ["y"], name=case,
                                **attrs)
        save(os.path.join(outdir, case),
             helper.make_graph([node], case, [x], [y], [w, r]), opset=14)


if __name__ == "__main__":
    if sys.argv[2:] == ["errors"]:
        errors(sys.argv[1])
    else:
        model(sys.argv[1])
