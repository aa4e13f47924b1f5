#!/usr/bin/env python3
"""Writes a Llama model (LlamaForCausalLM's architecture) as relax IR, from a
Hugging Face style config.json, with two entry points:

  prefill(tokens [1, s] i64, past_length [1] i64, cache.N.key /
          cache.N.value [1, m, kv_heads, head_dim] per layer, weights...)
      -> (logits [1, 1, vocab] of the last position, the caches)
  decode(token [1, 1] i64, past_length [1] i64, the caches, weights...)
      -> (logits [1, 1, vocab], the caches)

The KV cache is preallocated by the caller, one [1, m, kv_heads, head_dim]
tensor per layer and per K/V in the layout relax.attention reads (BSNH), and
updated in place: a call reads p = past_length valid rows, writes the new
keys and values at rows p .. p + s - 1 (relax.call_tir_inplace of
@kv_append, after the rotary embedding, which fusion merges into it) and
attends over the p + s valid rows through relax.view (no copy). The caches
come back as results: the same buffers, updated. s, p and m are symbolic
(never specialised); sym_bounds keep them within max_position_embeddings and
an assert keeps p + s <= m, so a cache that would overflow is a run-time
error naming the dims. Rotary positions are arange(p, p + s).

Weights are parameters named like LlamaForCausalLM's state dict
(model.embed_tokens.weight, model.layers.N.self_attn.q_proj.weight, ...,
lm_head.weight) with its shapes (nn.Linear's [out, in], applied with
relax.linear), so a Hugging Face safetensors checkpoint binds by name; they
must be f32 (see docs/llm.md for converting bf16).

With --quantize q8|q4 every linear weight (the q/k/v/o and gate/up/down
projections and lm_head; not the embedding, not the norms, not biases)
becomes the parameters <module>.qweight, <module>.scales (and with
--zero-points <module>.qzeros) in the layout of docs/quantization.md,
decoded by relax.dequantize where the projection reads it:
<module>.qweight is i8 [out, in] (q8) or ui8 [out, in / 2] (q4, two
values a byte), <module>.scales [out, in / G] (f16, or f32 with
--scales f32), <module>.qzeros ui8 [out, in / G]; G is --group-size
(default 32).

    python3 scripts/gen-llama-model.py CONFIG.json > model.mlir
    python3 scripts/gen-llama-model.py CONFIG.json --quantize q4 \
        --group-size 32 > model-q4.mlir

With --quant-layout tiles (group 32, f16 scales, no zero points: llama.cpp's
Q8_0 / Q4_0) each quantized weight is instead the one parameter
<module>.qtiles, ui8 [out / 8, in / 128, 1088 (q8) or 576 (q4)], in the
tiled layout of include/RelaxDialect/Runtime/QuantTiles.h (one sequential
stream per product, docs/quantization.md "Tiled layout"), decoded by
relax.dequantize_tiles; every projection needs out % 8 == 0 and
in % 128 == 0. llama-generate packs the tiles at load time from the plain
<module>.qweight and <module>.scales (of a safetensors file, or quantized
with --quantize).

With --tensor-parallel N it writes the program of one of N ranks (every
rank runs the same one on its slice of the weights, docs/llm.md "Tensor
parallel"): attention heads and kv heads split across the ranks (q/k/v
column-parallel: [heads / N * head_dim, hidden]; o_proj row-parallel:
[hidden, heads / N * head_dim], its partial sums added by
relax.ccl.allreduce before its bias), the MLP's gate/up column-parallel
([ffn / N, hidden]) and down row-parallel + allreduce; the embedding,
the norms and lm_head replicated. The weights keep their state-dict
names; the driver (llama-generate-tp) slices the full tensors at load
time. The heads, kv heads and ffn must divide by N.

    python3 scripts/gen-llama-model.py CONFIG.json --tensor-parallel 2 \
        > model-tp2.mlir

With --shard-annotations it writes the single-device model with the same
choices as annotations (#relax.shard on the parameters: q/k/v and gate/up
weights and biases split on axis 0, o_proj and down_proj weights on axis
1, the KV caches on their heads axis 2, the rest replicated), for
relax-opt --relax-shard="num-ranks=N" to turn into the rank program that
--tensor-parallel N writes directly.

    python3 scripts/gen-llama-model.py CONFIG.json --shard-annotations \
        | relax-opt --relax-shard="num-ranks=2" > model-tp2.mlir
"""
import argparse
import json
import math
import sys

import numpy as np


def T(shape, dtype="f32"):
    return f"!relax.tensor<[{', '.join(str(d) for d in shape)}], {dtype}>"


def head_dim(cfg):
    """`head_dim` when the config gives it (it may differ from hidden /
    heads), else hidden_size / num_attention_heads, as transformers does."""
    return cfg.get("head_dim") or \
        cfg["hidden_size"] // cfg["num_attention_heads"]


def weight_shapes(cfg, tp=1):
    """The parameters of LlamaForCausalLM, in state-dict order: biases
    with attention_bias / mlp_bias, no lm_head.weight with tied
    embeddings (the embedding is the output projection then). With tp
    ranks, one rank's slices (the heads and ffn split by tp; o_proj's and
    down_proj's [hidden] biases stay whole: added after the allreduce)."""
    H, F, V = cfg["hidden_size"], cfg["intermediate_size"] // tp, \
        cfg["vocab_size"]
    nh, nkv = cfg["num_attention_heads"] // tp, \
        cfg["num_key_value_heads"] // tp
    d = head_dim(cfg)
    attn_bias, mlp_bias = cfg.get("attention_bias"), cfg.get("mlp_bias")
    out = [("model.embed_tokens.weight", [V, H])]

    def linear(name, shape, bias):
        return [(name + ".weight", shape)] + \
            ([(name + ".bias", shape[:1])] if bias else [])
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        out += (linear(p + "self_attn.q_proj", [nh * d, H], attn_bias) +
                linear(p + "self_attn.k_proj", [nkv * d, H], attn_bias) +
                linear(p + "self_attn.v_proj", [nkv * d, H], attn_bias) +
                linear(p + "self_attn.o_proj", [H, nh * d], attn_bias) +
                linear(p + "mlp.gate_proj", [F, H], mlp_bias) +
                linear(p + "mlp.up_proj", [F, H], mlp_bias) +
                linear(p + "mlp.down_proj", [H, F], mlp_bias) +
                [(p + "input_layernorm.weight", [H]),
                 (p + "post_attention_layernorm.weight", [H])])
    out += [("model.norm.weight", [H])]
    if not cfg.get("tie_word_embeddings"):
        out += [("lm_head.weight", [V, H])]
    return out


def shard_annotation(name):
    """The #relax.shard of parameter `name` under Megatron-style tensor
    parallelism (docs/llm.md): column-parallel projections split their
    output features (axis 0 of [out, in] and of the bias), row-parallel
    ones their input features (axis 1; their bias is added after the
    allreduce, whole), the caches [1, m, kv_heads, head_dim] their heads."""
    column = ("self_attn.q_proj.", "self_attn.k_proj.", "self_attn.v_proj.",
              "mlp.gate_proj.", "mlp.up_proj.")
    row = ("self_attn.o_proj.", "mlp.down_proj.")
    if name.startswith("cache."):
        return "#relax.shard<split = 2>"
    if any(c in name for c in column):
        return "#relax.shard<split = 0>"
    if any(r + "weight" in name for r in row):
        return "#relax.shard<split = 1>"
    if any(r + "bias" in name for r in row):
        return "#relax.shard<replicated>"
    return None


def param_attrs(name, annotate):
    """The attribute dictionary of parameter `name`."""
    shard = shard_annotation(name) if annotate else None
    return (f'{{relax.name = "{name}"' +
            (f", relax.shard = {shard}" if shard else "") + "}")


def is_quantized_weight(name):
    """The weights --quantize stores quantized: every linear layer's."""
    return name.endswith("_proj.weight") or name == "lm_head.weight"


TILE_BYTES = {8: 1088, 4: 576}  # QuantTiles.h's tileBytes(bits)


def quantized_params(name, shape, quant):
    """The parameters (name, shape, dtype) that hold weight `name` [out, in]
    quantized with `quant` (bits, group, zero points, scales dtype, layout)."""
    bits, group, zeros, sdtype, layout = quant
    out, inp = shape
    base = name[:-len(".weight")]
    if layout == "tiles":
        if out % 8 or inp % 128:
            sys.exit(f"--quant-layout tiles needs a weight of rows divisible "
                     f"by 8 and columns divisible by 128; {name} is "
                     f"[{out}, {inp}]")
        return [(base + ".qtiles", [out // 8, inp // 128, TILE_BYTES[bits]],
                 "ui8")]
    if inp % group or (bits == 4 and group % 2):
        sys.exit(f"--group-size {group} does not divide the {inp} columns "
                 f"of {name}" + (" into an even group" if bits == 4 else ""))
    params = [(base + ".qweight",
               [out, inp] if bits == 8 else [out, inp // 2],
               "i8" if bits == 8 else "ui8"),
              (base + ".scales", [out, inp // group], sdtype)]
    if zeros:
        params.append((base + ".qzeros", [out, inp // group], "ui8"))
    return params


def rope_config(cfg):
    """(rope_type, theta, parameters) from `rope_scaling` (transformers 4)
    or `rope_parameters` (transformers 5); None or {} is the default rope."""
    params = dict(cfg.get("rope_parameters") or cfg.get("rope_scaling") or {})
    kind = params.get("rope_type", params.get("type", "default"))
    theta = cfg.get("rope_theta", params.get("rope_theta"))
    return kind, theta, params


def inv_freq(cfg):
    """RoPE's inverse frequencies computed in float32 as transformers does
    (1 / theta ** (arange(0, d, 2) / d)), then scaled as the rope type says:
    `linear` divides them by `factor`; `llama3` (Llama 3.1+) divides the
    low frequencies by `factor`, keeps the high ones and interpolates in
    between (transformers' _compute_llama3_parameters). Neither scales
    cos and sin."""
    d = head_dim(cfg)
    kind, theta, params = rope_config(cfg)
    e = np.arange(0, d, 2, dtype=np.int64).astype(np.float32) / np.float32(d)
    # The power in float64, rounded once to float32: numpy's float32 power
    # has CPU-specific SIMD paths (AVX-512 and AVX2 differ by an ulp), and
    # the generated module must not depend on the machine that writes it.
    inv = (np.float32(1.0) / np.power(np.float64(theta), e.astype(np.float64))
           .astype(np.float32)).astype(np.float32)
    if kind == "linear":
        inv = (inv / np.float32(params["factor"])).astype(np.float32)
    elif kind == "llama3":
        factor = np.float32(params["factor"])
        low, high = (np.float32(params["low_freq_factor"]),
                     np.float32(params["high_freq_factor"]))
        old = np.float32(params["original_max_position_embeddings"])
        low_wavelen, high_wavelen = old / low, old / high
        wavelen = np.float32(2 * math.pi) / inv
        scaled = np.where(wavelen > low_wavelen, inv / factor, inv)
        smooth = (old / wavelen - low) / (high - low)
        smoothed = (np.float32(1) - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < high_wavelen) & ~(wavelen > low_wavelen)
        inv = np.where(medium, smoothed, scaled).astype(np.float32)
    return inv


class Emitter:
    def __init__(self):
        self.lines = []

    def op(self, name, text, ins, out):
        sig = ", ".join(ins)
        self.lines.append(f"    %{name} = {text} : ({sig}) -> {out}")
        return f"%{name}"

    def raw(self, line):
        self.lines.append("    " + line)


def check_config(cfg):
    cfg.setdefault("num_key_value_heads", cfg.get("num_attention_heads"))
    for key in ("hidden_size", "intermediate_size", "num_attention_heads",
                "num_hidden_layers", "num_key_value_heads", "vocab_size",
                "rms_norm_eps", "max_position_embeddings"):
        if key not in cfg:
            sys.exit(f"config: missing '{key}'")
    if not cfg.get("head_dim") and \
            cfg["hidden_size"] % cfg["num_attention_heads"]:
        sys.exit("config: hidden_size is not a multiple of num_attention_heads"
                 " (and no head_dim is given)")
    if cfg["num_attention_heads"] % cfg["num_key_value_heads"]:
        sys.exit("config: num_attention_heads is not a multiple of "
                 "num_key_value_heads")
    if head_dim(cfg) % 2:
        sys.exit("config: the head size must be even (rotary halves)")
    kind, theta, params = rope_config(cfg)
    if theta is None:
        sys.exit("config: missing 'rope_theta'")
    if kind not in ("default", "linear", "llama3"):
        sys.exit(f"config: rope type '{kind}' is not supported (default, "
                 "linear and llama3 are)")
    need = {"linear": ["factor"],
            "llama3": ["factor", "low_freq_factor", "high_freq_factor",
                       "original_max_position_embeddings"]}.get(kind, [])
    for key in need:
        if key not in params:
            sys.exit(f"config: rope type '{kind}' needs '{key}'")
    if kind == "llama3" and params["low_freq_factor"] == \
            params["high_freq_factor"]:
        sys.exit("config: llama3 rope needs low_freq_factor != "
                 "high_freq_factor")
    if cfg.get("partial_rotary_factor", 1.0) != 1.0:
        sys.exit("config: partial_rotary_factor is not supported")
    if cfg.get("hidden_act", "silu") != "silu":
        sys.exit("config: only hidden_act silu is supported")


def check_tensor_parallel(cfg, tp, quantize):
    """The shapes --tensor-parallel splits must divide by the ranks."""
    if tp < 1:
        sys.exit("--tensor-parallel must be at least 1")
    if tp > 1 and quantize:
        sys.exit("--tensor-parallel with --quantize is not supported")
    for key in ("num_attention_heads", "num_key_value_heads",
                "intermediate_size"):
        if cfg[key] % tp:
            sys.exit(f"config: {key} {cfg[key]} does not divide by "
                     f"--tensor-parallel {tp}")


def cache_append(e, layer, kind, cache, new, s, kv, d):
    """Writes `new` [1, s, kv, d] at rows p .. p + s - 1 of the cache [1, m,
    kv, d] in place; returns the updated cache and the view of its p + s
    valid rows. The one place that knows how the cache grows."""
    cacheT = T([1, "m", kv, d])
    updated = e.op(f"{kind}_cache_l{layer}",
                   f"relax.call_tir_inplace @kv_append({cache}, {new}) "
                   "inplace_indices([0]) tir_vars(#relax.shape<[p]>)",
                   [cacheT, T([1, s, kv, d])], cacheT)
    valid = f"%{kind}_valid_l{layer}"
    e.raw(f"{valid} = relax.view {updated} : {cacheT} to "
          f"{T([1, f'p + {s}', kv, d])}")
    return updated, valid


# cache[:, p : p + s] = new, in place (rows beyond p + s are untouched).
KV_APPEND = """tir.prim_func private @kv_append(%cache: !tir.buffer<[1, m, h, d], f32>,
                                 %new: !tir.buffer<[1, s, h, d], f32>,
                                 %p: index {tir.var = "p"}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = tir.sym_var "s" : index
  %h = tir.sym_var "h" : index
  %d = tir.sym_var "d" : index
  tir.for %j = %c0 to %s step %c1 {
    tir.for %i = %c0 to %h step %c1 {
      tir.for %l = %c0 to %d step %c1 {
        tir.block "kv_append" (%vj = %j, %vi = %i, %vl = %l) kinds [spatial, spatial, spatial] {
          %x = tir.load %new[%c0, %vj, %vi, %vl] : !tir.buffer<[1, s, h, d], f32>
          %pos = tir.sym_var "p" : index
          %row = arith.addi %pos, %vj : index
          tir.store %x, %cache[%c0, %row, %vi, %vl] : !tir.buffer<[1, m, h, d], f32>
        }
      }
    }
  }
  tir.return
}"""


def rotary(e, x, name, s, heads, d, c, sn):
    half = d // 2
    full = T([1, s, heads, d])
    halfT = T([1, s, heads, half])
    lo = e.op(f"{name}_lo", "relax.strided_slice " + x +
              f" {{axes = array<i64: 3>, begin = #relax.shape<[0]>, "
              f"end = #relax.shape<[{half}]>}}", [full], halfT)
    hi = e.op(f"{name}_hi", "relax.strided_slice " + x +
              f" {{axes = array<i64: 3>, begin = #relax.shape<[{half}]>, "
              f"end = #relax.shape<[{d}]>}}", [full], halfT)
    neg = e.op(f"{name}_hineg", f"relax.negative {hi}", [halfT], halfT)
    rot = e.op(f"{name}_rot", f"relax.concat {neg}, {lo} {{axis = 3 : i64}}",
               [halfT, halfT], full)
    cT = T([1, s, 1, d])
    xc = e.op(f"{name}_cos", f"relax.multiply {x}, {c}", [full, cT], full)
    xs = e.op(f"{name}_sin", f"relax.multiply {rot}, {sn}", [full, cT], full)
    return e.op(f"{name}_r", f"relax.add {xc}, {xs}", [full, full], full)


def function(cfg, name, decode, quant=None, tp=1, annotate=False):
    """One entry; with tp > 1 the program of one of tp ranks (the heads and
    the ffn of this rank, allreduce after the row-parallel projections);
    with `annotate` the single-device program with #relax.shard
    annotations."""
    H, F, V = cfg["hidden_size"], cfg["intermediate_size"] // tp, \
        cfg["vocab_size"]
    nh, nkv = cfg["num_attention_heads"] // tp, \
        cfg["num_key_value_heads"] // tp
    L = cfg["num_hidden_layers"]
    d = head_dim(cfg)
    eps = float(cfg["rms_norm_eps"])
    maxpos = cfg["max_position_embeddings"]
    s = 1 if decode else "s"

    args = []
    if decode:
        args.append(f'%tokens: {T([1, 1], "i64")} {{relax.name = "token"}}')
    else:
        args.append(f'%tokens: {T([1, "s"], "i64")} {{relax.name = "tokens"}}')
    args.append(f'%past_length: {T([1], "i64")} {{relax.name = "past_length"}}')
    cacheT = T([1, "m", nkv, d])
    for i in range(L):
        for kind in ("key", "value"):
            args.append(f'%cache_{kind[0]}_l{i}: {cacheT} ' +
                        param_attrs(f"cache.{i}.{kind}", annotate))
    w = {}
    quantized = {}  # weight name -> (its parameters' SSA names, types)
    k = 0
    for wname, shape in weight_shapes(cfg, tp):
        if quant and is_quantized_weight(wname):
            names, types = [], []
            for pname, pshape, dtype in quantized_params(wname, shape, quant):
                names.append(f"%w{k}")
                types.append(T(pshape, dtype))
                args.append(f'%w{k}: {types[-1]} {{relax.name = "{pname}"}}')
                k += 1
            quantized[wname] = (names, types, shape)
            continue
        w[wname] = f"%w{k}"
        args.append(f'%w{k}: {T(shape)} ' + param_attrs(wname, annotate))
        k += 1

    results = [T([1, 1, V])] + [cacheT] * (2 * L)

    e = Emitter()

    def weight(wname):
        """The f32 weight `wname`: its parameter, or its relax.dequantize
        (emitted where it is read, so fusion and library dispatch see the
        decode next to the product)."""
        if wname not in quantized:
            return w[wname]
        names, types, shape = quantized[wname]
        bits, group, layout = quant[0], quant[1], quant[4]
        tag = wname.replace("model.layers.", "l").replace(".weight", "")
        tag = tag.replace(".", "_")
        if layout == "tiles":
            return e.op(f"deq_{tag}", f"relax.dequantize_tiles {names[0]} "
                        f"{{bits = {bits} : i64}}", types, T(shape))
        return e.op(f"deq_{tag}", f"relax.dequantize {', '.join(names)} "
                    f"{{bits = {bits} : i64, group_size = {group} : i64}}",
                    types, T(shape))
    # p: the valid rows of the caches on entry; rows p .. p + s - 1 are
    # written.
    e.raw(f"%past = relax.tensor_to_shape %past_length : {T([1], 'i64')} "
          "to !relax.shape<[p]>")
    e.raw(f'relax.assert_dims #relax.expr<p + {s}> "le" #relax.expr<m>, '
          '"kv_cache", "rows written"')
    hT = T([1, s, H])
    x = e.op("embed", f'relax.take {w["model.embed_tokens.weight"]}, %tokens '
             "{axis = 0 : i64}", [T([V, H]), T([1, s], "i64")], hT)
    # Rotary tables for positions start..end-1 (transformers' default rope:
    # emb = cat(freqs, freqs), freqs = position * inv_freq, in float32).
    half = d // 2
    inv = ", ".join(repr(float(v)) for v in inv_freq(cfg))
    e.raw(f"%inv_freq = relax.constant dense<[{inv}]> : tensor<{half}xf32>")
    pos = f"%positions"
    e.raw(f"{pos} = relax.arange {{dtype = f32, end = #relax.expr<p + {s}>, "
          f"start = #relax.expr<p>, step = #relax.expr<1>}} : "
          f"{T([s])}")
    pcol = e.op("pos_col", f"relax.reshape {pos} {{shape = #relax.shape<[{s}, 1]>}}",
                [T([s])], T([s, 1]))
    frow = e.op("freq_row", "relax.reshape %inv_freq {shape = "
                f"#relax.shape<[1, {half}]>}}", [T([half])], T([1, half]))
    fr = e.op("freqs", f"relax.multiply {pcol}, {frow}",
              [T([s, 1]), T([1, half])], T([s, half]))
    emb = e.op("emb", f"relax.concat {fr}, {fr} {{axis = 1 : i64}}",
               [T([s, half]), T([s, half])], T([s, d]))
    cos = e.op("cos", f"relax.cos {emb}", [T([s, d])], T([s, d]))
    sin = e.op("sin", f"relax.sin {emb}", [T([s, d])], T([s, d]))
    c = e.op("cos4", f"relax.reshape {cos} {{shape = #relax.shape<[1, {s}, 1, {d}]>}}",
             [T([s, d])], T([1, s, 1, d]))
    sn = e.op("sin4", f"relax.reshape {sin} {{shape = #relax.shape<[1, {s}, 1, {d}]>}}",
              [T([s, d])], T([1, s, 1, d]))

    presents = []
    for i in range(L):
        p = f"model.layers.{i}."
        e.raw(f"// Layer {i}.")
        h = e.op(f"ln1_l{i}", f"relax.rms_norm {x}, "
                 f"{w[p + 'input_layernorm.weight']} {{axes = array<i64: -1>, "
                 f"epsilon = {eps:.6e} : f64}}", [hT, T([H])], hT)

        def proj(tag, wn, outdim, inp=h, inT=hT, indim=H, reduce=False):
            """A linear layer; `reduce` (row-parallel, tp > 1): the rank's
            partial product is summed over the ranks before the bias."""
            bias = w.get(p + wn + ".bias")
            text = f"relax.linear {inp}, {weight(p + wn + '.weight')}"
            ins = [inT, T([outdim, indim])]
            outT = T([1, s, outdim])
            if reduce and tp > 1:
                part = e.op(f"{tag}_part_l{i}", text, ins, outT)
                red = e.op(f"{tag}_sum_l{i}", f"relax.ccl.allreduce {part} "
                           f'{{num_ranks = {tp} : i64, op = "sum"}}',
                           [outT], outT)
                if not bias:
                    return red
                return e.op(f"{tag}_l{i}", f"relax.add {red}, {bias}",
                            [outT, T([outdim])], outT)
            if bias:
                text += f", {bias}"
                ins.append(T([outdim]))
            return e.op(f"{tag}_l{i}", text, ins, outT)
        q0 = proj("q0", "self_attn.q_proj", nh * d)
        k0 = proj("k0", "self_attn.k_proj", nkv * d)
        v0 = proj("v0", "self_attn.v_proj", nkv * d)
        q = e.op(f"q_l{i}", f"relax.reshape {q0} {{shape = #relax.shape<[1, {s}, {nh}, {d}]>}}",
                 [T([1, s, nh * d])], T([1, s, nh, d]))
        k = e.op(f"k_l{i}", f"relax.reshape {k0} {{shape = #relax.shape<[1, {s}, {nkv}, {d}]>}}",
                 [T([1, s, nkv * d])], T([1, s, nkv, d]))
        v = e.op(f"v_l{i}", f"relax.reshape {v0} {{shape = #relax.shape<[1, {s}, {nkv}, {d}]>}}",
                 [T([1, s, nkv * d])], T([1, s, nkv, d]))
        qr = rotary(e, q, f"q_l{i}", s, nh, d, c, sn)
        kr = rotary(e, k, f"k_l{i}", s, nkv, d, c, sn)
        kc, kvalid = cache_append(e, i, "k", f"%cache_k_l{i}", kr, s, nkv, d)
        vc, vvalid = cache_append(e, i, "v", f"%cache_v_l{i}", v, s, nkv, d)
        presents += [kc, vc]
        t = f"p + {s}"
        # Causal attention is bottom-right aligned: query i (position
        # p + i) sees keys 0 .. p + i.
        a = e.op(f"attn_l{i}", f"relax.attention {qr}, {kvalid}, {vvalid} "
                 "{causal = true}",
                 [T([1, s, nh, d]), T([1, t, nkv, d]), T([1, t, nkv, d])],
                 T([1, s, nh, d]))
        a2 = e.op(f"attn2_l{i}", f"relax.reshape {a} {{shape = #relax.shape<[1, {s}, {nh * d}]>}}",
                  [T([1, s, nh, d])], T([1, s, nh * d]))
        o = proj("o", "self_attn.o_proj", H, a2, T([1, s, nh * d]),
                 nh * d, reduce=True)
        x1 = e.op(f"x1_l{i}", f"relax.add {x}, {o}", [hT, hT], hT)
        h2 = e.op(f"ln2_l{i}", f"relax.rms_norm {x1}, "
                  f"{w[p + 'post_attention_layernorm.weight']} "
                  f"{{axes = array<i64: -1>, epsilon = {eps:.6e} : f64}}",
                  [hT, T([H])], hT)
        g = proj("gate", "mlp.gate_proj", F, h2)
        u = proj("up", "mlp.up_proj", F, h2)
        fT = T([1, s, F])
        ga = e.op(f"gact_l{i}", f"relax.silu {g}", [fT], fT)
        gu = e.op(f"gu_l{i}", f"relax.multiply {ga}, {u}", [fT, fT], fT)
        dn = proj("down", "mlp.down_proj", H, gu, fT, F, reduce=True)
        x = e.op(f"y_l{i}", f"relax.add {x1}, {dn}", [hT, hT], hT)

    last = x
    if not decode:
        # Only the last position's logits are needed for generation.
        # (A take of arange(s - 1, s): its length simplifies to 1, where
        # strided_slice's clamps keep a min/max of s.)
        e.raw("%last_index = relax.arange {dtype = i64, end = "
              "#relax.expr<s>, start = #relax.expr<s - 1>, step = "
              f"#relax.expr<1>}} : {T([1], 'i64')}")
        last = e.op("last", f"relax.take {x}, %last_index {{axis = 1 : i64}}",
                    [hT, T([1], "i64")], T([1, 1, H]))
    xn = e.op("final_norm", f"relax.rms_norm {last}, {w['model.norm.weight']} "
              f"{{axes = array<i64: -1>, epsilon = {eps:.6e} : f64}}",
              [T([1, 1, H]), T([H])], T([1, 1, H]))
    # Tied embeddings: the embedding matrix is the output projection.
    head = (weight("lm_head.weight") if not cfg.get("tie_word_embeddings")
            else w["model.embed_tokens.weight"])
    logits = e.op("logits", f"relax.linear {xn}, {head}",
                  [T([1, 1, H]), T([V, H])], T([1, 1, V]))

    outs = [logits] + presents
    bound = (f"m = array<i64: 1, {maxpos}>, p = array<i64: 0, {maxpos - 1}>"
             + ("" if decode else f", s = array<i64: 1, {maxpos}>"))
    text = [f"relax.func @{name}(" + ",\n    ".join(args) + ")",
            f"    -> ({', '.join(results)})",
            f"    attributes {{sym_bounds = {{{bound}}}}} {{",
            f"  %out:{len(outs)} = relax.dataflow -> {', '.join(results)} {{"]
    text += e.lines
    text.append(f"    relax.output {', '.join(outs)} : {', '.join(results)}")
    text.append("  }")
    text.append("  relax.return " +
                ", ".join(f"%out#{k}" for k in range(len(outs))) + " : " +
                ", ".join(results))
    text.append("}")
    return "\n".join(text)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config")
    ap.add_argument("--quantize", choices=("q8", "q4"),
                    help="store the linear weights quantized")
    ap.add_argument("--group-size", type=int, default=32,
                    help="elements per scale along a weight's row")
    ap.add_argument("--zero-points", action="store_true",
                    help="q4 with a zero point per group (asymmetric)")
    ap.add_argument("--scales", choices=("f16", "f32"), default="f16",
                    help="the scales' dtype")
    ap.add_argument("--quant-layout", choices=("plain", "tiles"),
                    default="plain",
                    help="how the quantized weights are stored: plain "
                    "(.qweight, .scales) or tiles (.qtiles; group 32, f16 "
                    "scales, no zero points)")
    ap.add_argument("--tensor-parallel", type=int, default=1, metavar="N",
                    help="write one rank's program of N tensor-parallel "
                    "ranks")
    ap.add_argument("--shard-annotations", action="store_true",
                    help="write the single-device model with #relax.shard "
                    "annotations for relax-opt --relax-shard")
    args = ap.parse_args()
    tp = args.tensor_parallel
    quant = None
    if args.quantize:
        if args.group_size < 1:
            sys.exit("--group-size must be positive")
        if args.zero_points and args.quantize != "q4":
            sys.exit("--zero-points needs --quantize q4")
        if args.quant_layout == "tiles" and (
                args.group_size != 32 or args.zero_points or
                args.scales != "f16"):
            sys.exit("--quant-layout tiles holds group 32, f16 scales and no "
                     "zero points (llama.cpp's Q8_0 / Q4_0): drop "
                     "--group-size, --zero-points and --scales f32")
        quant = (8 if args.quantize == "q8" else 4, args.group_size,
                 args.zero_points, args.scales, args.quant_layout)
    elif (args.zero_points or args.group_size != 32 or args.scales != "f16"
          or args.quant_layout != "plain"):
        sys.exit("--group-size, --zero-points, --scales and --quant-layout "
                 "need --quantize")
    with open(args.config) as f:
        cfg = json.load(f)
    check_config(cfg)
    check_tensor_parallel(cfg, tp, args.quantize)
    if quant:
        # Every weight's layout constraints, before anything is written.
        for wname, shape in weight_shapes(cfg, tp):
            if is_quantized_weight(wname):
                quantized_params(wname, shape, quant)
    annotate = args.shard_annotations
    if annotate and (tp > 1 or args.quantize):
        sys.exit("--shard-annotations excludes --tensor-parallel and "
                 "--quantize")
    kind, theta, params = rope_config(cfg)
    items = [(k, cfg[k]) for k in (
        "num_hidden_layers", "hidden_size", "num_attention_heads",
        "num_key_value_heads", "intermediate_size", "vocab_size")]
    items += [("rope_theta", theta)]
    items += [(k, cfg[k]) for k in ("rms_norm_eps", "max_position_embeddings")]
    if cfg.get("head_dim"):
        items.append(("head_dim", cfg["head_dim"]))
    if kind != "default":
        items.append(("rope", f"{kind} {json.dumps(params, sort_keys=True)}"))
    for flag in ("attention_bias", "mlp_bias", "tie_word_embeddings"):
        if cfg.get(flag):
            items.append((flag, "true"))
    if quant:
        items.append(("quantized", f"{args.quantize}, group {quant[1]}, "
                      f"{quant[3]} scales" +
                      (", zero points" if quant[2] else "") +
                      (", in tiles" if quant[4] == "tiles" else "")))
    if tp > 1:
        items.append(("tensor_parallel", f"rank program of {tp}"))
    if annotate:
        items.append(("sharding", "annotated for relax-shard"))
    summary = ", ".join(f"{k} {v}" for k, v in items)
    print("// Generated by scripts/gen-llama-model.py: do not edit.")
    print(f"// Llama ({summary}).")
    print("// prefill(tokens [1, s], past_length, caches [1, m, kv_heads, "
          "head_dim]) and decode(token [1, 1], past_length, caches) -> "
          "(logits [1, 1, vocab], the caches updated in place); see "
          "docs/llm.md.")
    print(KV_APPEND)
    print()
    print(function(cfg, "prefill", decode=False, quant=quant, tp=tp,
                   annotate=annotate))
    print()
    print(function(cfg, "decode", decode=True, quant=quant, tp=tp,
                   annotate=annotate))


if __name__ == "__main__":
    main()
