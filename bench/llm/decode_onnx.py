"""The decode step of a Llama of scripts/gen-llama-model.py as an ONNX graph
with past_key_values, for onnxruntime (bench/llm/run.sh).

The graph is what exporters write for one decode step: inputs `token`
[1, 1] and `past.N.key` / `past.N.value` [1, p, kv_heads, head_dim] (p a
dim_param), outputs `logits` [1, 1, vocab] and `present.N.key/value`
[1, p + 1, ...] = Concat(past, new) on the sequence axis; the rotary
position is Shape(past.0.key)[1]. Weights are initializers with the same
values as relax's (scripts/llama_weights.py, seed 18), the projections
pre-transposed to [in, out] for MatMul. Attention for one query groups the
query heads per kv head ([1, kv, group, d] x [1, kv, d, t]), so no kv head
is repeated in memory.

With a format (q8 or q4) the linear weights (not the embedding) are
quantized as relax's --quantize does (scripts/quantize.py: group 32, f16
scales, the same integers) and multiplied by com.microsoft's MatMulNBits
(bits 8 or 4, block 32; 8-bit values stored with the default zero 128,
4-bit ones packed as relax packs them, zero 8; the f16 scales widened
exactly to f32), accuracy_level ACCURACY (0: f32 arithmetic; 4: int8
activations, like llama.cpp's Q8_0/Q4_0 dot products). q8-f32 / q4-f32:
the same weights decoded to f32 and multiplied by MatMul (the reference a
quantized graph is checked against).

Subcommands (run inside bench/peers/.venv):
  write CONFIG.json OUT.onnx [q8|q4 [ACCURACY [SEED]]]
  inputs CONFIG.json P DIR        DIR/in<i>.npy in the order of relax's
                                  decode parameters (token, caches, weights)
  ort MODEL.onnx DIR THREADS RUNS prints 'median X ms' over RUNS timed runs
                                  after a warm-up; writes DIR/out<i>.npy
                                  (logits, then the present caches)
"""
import json
import sys
import time
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import llama_weights  # noqa: E402
import quantize  # noqa: E402

SEED = 18


def build(cfg, quant=None, accuracy=0, seed=SEED):
    H, F, V = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    nh, nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    L, d = cfg["num_hidden_layers"], H // cfg["num_attention_heads"]
    g, eps = nh // nkv, float(cfg["rms_norm_eps"])
    w = llama_weights.random_weights(cfg, seed)
    gen = llama_weights.gen_model()
    nodes, inits = [], []
    counter = [0]

    def const(array, base="c"):
        counter[0] += 1
        name = f"{base}_{counter[0]}"
        inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(op, ins, **attrs):
        counter[0] += 1
        out = f"{op.lower()}_{counter[0]}"
        nodes.append(helper.make_node(op, ins, [out], **attrs))
        return out

    def named(op, ins, out, **attrs):
        nodes.append(helper.make_node(op, ins, [out], **attrs))
        return out

    def shape(*dims):
        return const(np.array(dims, dtype=np.int64), "shape")

    def rms(x, weight):
        ms = node("ReduceMean", [node("Mul", [x, x])], axes=[-1], keepdims=1)
        r = node("Sqrt", [node("Add", [ms, const(np.float32(eps))])])
        return node("Mul", [node("Div", [x, r]), const(weight, "norm")])

    def linear(x, name, out=None):
        if not quant or not gen.is_quantized_weight(name) or \
                quant.endswith("-f32"):
            wt = w[name]
            if quant and gen.is_quantized_weight(name):
                # The reference of a format: its weights decoded, MatMul.
                bits = 8 if quant.startswith("q8") else 4
                f = quantize.quantize_q8 if bits == 8 else quantize.quantize_q4
                wt = quantize.dequantize(*f(wt, 32, np.float16), bits, 32)
            ins = [x, const(np.ascontiguousarray(wt.T), "w")]
            return named("MatMul", ins, out) if out else node("MatMul", ins)
        n, k = w[name].shape
        if quant == "q8":
            q, sc = quantize.quantize_q8(w[name], 32, np.float16)
            b = (q.astype(np.int16) + 128).astype(np.uint8).reshape(n, k // 32, 32)
        else:
            q, sc = quantize.quantize_q4(w[name], 32, np.float16)
            b = q.reshape(n, k // 32, 16)
        ins = [x, const(b, "qw"), const(sc.astype(np.float32).reshape(-1), "sc")]
        attrs = dict(K=k, N=n, bits=8 if quant == "q8" else 4, block_size=32,
                     accuracy_level=accuracy, domain="com.microsoft")
        if out:
            return named("MatMulNBits", ins, out, **attrs)
        return node("MatMulNBits", ins, **attrs)

    def rotary(x, cos, sin):
        half = d // 2
        lo = node("Slice", [x, const(np.array([0])), const(np.array([half])),
                            const(np.array([3]))])
        hi = node("Slice", [x, const(np.array([half])), const(np.array([d])),
                            const(np.array([3]))])
        rot = node("Concat", [node("Neg", [hi]), lo], axis=3)
        return node("Add", [node("Mul", [x, cos]), node("Mul", [rot, sin])])

    inputs = [helper.make_tensor_value_info("token", TensorProto.INT64, [1, 1])]
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT,
                                             [1, 1, V])]
    for i in range(L):
        for kind in ("key", "value"):
            inputs.append(helper.make_tensor_value_info(
                f"past.{i}.{kind}", TensorProto.FLOAT, [1, "p", nkv, d]))
            outputs.append(helper.make_tensor_value_info(
                f"present.{i}.{kind}", TensorProto.FLOAT, [1, "t", nkv, d]))

    x = node("Gather", [const(w["model.embed_tokens.weight"], "embed"),
                        "token"], axis=0)
    # Position p = the cache length, as relax's arange(p, p + 1).
    p = node("Slice", [node("Shape", ["past.0.key"]), const(np.array([1])),
                       const(np.array([2]))])
    pos = node("Cast", [p], to=TensorProto.FLOAT)
    inv = llama_weights.gen_model().inv_freq(cfg)
    freqs = node("Mul", [pos, const(inv, "inv_freq")])
    emb = node("Concat", [freqs, freqs], axis=0)
    cos = node("Reshape", [node("Cos", [emb]), shape(1, 1, 1, d)])
    sin = node("Reshape", [node("Sin", [emb]), shape(1, 1, 1, d)])
    scale = const(np.float32(1.0 / np.sqrt(d)))
    for i in range(L):
        pre = f"model.layers.{i}."
        h = rms(x, w[pre + "input_layernorm.weight"])
        q = node("Reshape", [linear(h, pre + "self_attn.q_proj.weight"),
                             shape(1, 1, nh, d)])
        k = node("Reshape", [linear(h, pre + "self_attn.k_proj.weight"),
                             shape(1, 1, nkv, d)])
        v = node("Reshape", [linear(h, pre + "self_attn.v_proj.weight"),
                             shape(1, 1, nkv, d)])
        kc = named("Concat", [f"past.{i}.key", rotary(k, cos, sin)],
                   f"present.{i}.key", axis=1)
        vc = named("Concat", [f"past.{i}.value", v], f"present.{i}.value",
                   axis=1)
        qg = node("Reshape", [rotary(q, cos, sin), shape(1, nkv, g, d)])
        kt = node("Transpose", [kc], perm=[0, 2, 3, 1])  # [1, kv, d, t]
        vt = node("Transpose", [vc], perm=[0, 2, 1, 3])  # [1, kv, t, d]
        scores = node("Mul", [node("MatMul", [qg, kt]), scale])
        attn = node("MatMul", [node("Softmax", [scores], axis=-1), vt])
        a = node("Reshape", [attn, shape(1, 1, H)])
        x1 = node("Add", [x, linear(a, pre + "self_attn.o_proj.weight")])
        h2 = rms(x1, w[pre + "post_attention_layernorm.weight"])
        gate = linear(h2, pre + "mlp.gate_proj.weight")
        act = node("Mul", [gate, node("Sigmoid", [gate])])
        up = linear(h2, pre + "mlp.up_proj.weight")
        x = node("Add", [x1, linear(node("Mul", [act, up]),
                                    pre + "mlp.down_proj.weight")])
    xn = rms(x, w["model.norm.weight"])
    linear(xn, "lm_head.weight", "logits")
    graph = helper.make_graph(nodes, "llama_decode", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[
        helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def write_inputs(cfg, p, out):
    """token, caches (seeded normal), weights: onnxruntime's inputs
    (in*.npy) and relax decode's (rin*.npy)."""
    H, nh = cfg["hidden_size"], cfg["num_attention_heads"]
    nkv, d = cfg["num_key_value_heads"], H // nh
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(p)
    arrays = [np.array([[5]], dtype=np.int64)]
    for _ in range(2 * cfg["num_hidden_layers"]):
        arrays.append(rng.standard_normal((1, p, nkv, d)).astype(np.float32))
    arrays += list(llama_weights.random_weights(cfg, SEED).values())
    for i, a in enumerate(arrays):
        np.save(out / f"in{i:03d}.npy", a)
    (out / "num_runtime_inputs").write_text(
        str(1 + 2 * cfg["num_hidden_layers"]))
    # relax's decode: token, past_length [p], the caches preallocated with
    # one free row ([1, p + 1, ...], updated in place: they come back equal
    # to onnxruntime's present caches), the same weights (links).
    caches = 2 * cfg["num_hidden_layers"]
    rel = [arrays[0], np.array([p], dtype=np.int64)]
    for c in arrays[1:1 + caches]:
        rel.append(np.concatenate(
            [c, np.zeros((1, 1) + c.shape[2:], np.float32)], axis=1))
    for i, a in enumerate(rel):
        np.save(out / f"rin{i:03d}.npy", a)
    for i in range(1 + caches, len(arrays)):
        link = out / f"rin{i + 1:03d}.npy"
        if not link.exists():
            link.symlink_to(f"in{i:03d}.npy")


def run_ort(model_path, data, threads, runs):
    import onnxruntime as ort
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(model_path, opts,
                                providers=["CPUExecutionProvider"])
    names = [i.name for i in sess.get_inputs()]
    feeds = {n: np.load(data / f"in{k:03d}.npy") for k, n in enumerate(names)}
    outs = sess.run(None, feeds)
    for k, o in enumerate(outs):
        np.save(data / f"out{k:03d}.npy", o)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        sess.run(None, feeds)
        times.append((time.perf_counter() - t0) * 1e3)
    print(f"median {np.median(times):.4f} ms")


def main():
    cmd = sys.argv[1]
    if cmd == "write":
        cfg = json.loads(Path(sys.argv[2]).read_text())
        quant = sys.argv[4] if len(sys.argv) > 4 else None
        accuracy = int(sys.argv[5]) if len(sys.argv) > 5 else 0
        seed = int(sys.argv[6]) if len(sys.argv) > 6 else SEED
        onnx.save(build(cfg, quant, accuracy, seed), sys.argv[3])
    elif cmd == "inputs":
        cfg = json.loads(Path(sys.argv[2]).read_text())
        write_inputs(cfg, int(sys.argv[3]), Path(sys.argv[4]))
    elif cmd == "ort":
        run_ort(sys.argv[2], Path(sys.argv[3]), int(sys.argv[4]),
                int(sys.argv[5]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
