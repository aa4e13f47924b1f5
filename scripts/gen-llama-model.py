#!/usr/bin/env python3
"""Writes a Llama model (LlamaForCausalLM's architecture) as relax IR, from a
Hugging Face style config.json, with two entry points:

  prefill(tokens [1, s] i64, weights...)
      -> (logits [1, 1, vocab] of the last position,
          present.N.key / present.N.value [1, s, kv_heads, head_dim] per layer)
  decode(token [1, 1] i64, past.N.key / past.N.value [1, p, kv_heads,
         head_dim] per layer, weights...)
      -> (logits [1, 1, vocab], present caches [1, p + 1, kv_heads, head_dim])

s and p are symbolic (never specialised); sym_bounds keep s <= max positions
and p < max positions, so a cache that outgrows the model's positions is a
run-time error naming p. Rotary positions are arange(p, p + s): the offset is
the cache's own length, so no separate position input can disagree with it.

The KV cache is one tensor per layer and per K/V in the layout relax.attention
reads (BSNH: [batch, seq, kv_heads, head_dim]); present = concat(past, new)
along the sequence axis, as onnxruntime's exported decode graphs do. Only
`cache_append` below builds that concat, so moving to an in-place cache
(relax.call_tir_inplace into a preallocated [1, max_pos, ...] buffer) changes
that one function and the signature.

Weights are parameters named like LlamaForCausalLM's state dict
(model.embed_tokens.weight, model.layers.N.self_attn.q_proj.weight, ...,
lm_head.weight) with its shapes (nn.Linear's [out, in], applied with
relax.linear), so a Hugging Face safetensors checkpoint binds by name; they
must be f32 (see docs/llm.md for converting bf16).

    python3 scripts/gen-llama-model.py CONFIG.json > model.mlir
"""
import json
import sys

import numpy as np


def T(shape, dtype="f32"):
    return f"!relax.tensor<[{', '.join(str(d) for d in shape)}], {dtype}>"


def weight_shapes(cfg):
    """The parameters of LlamaForCausalLM, in state-dict order."""
    H, F, V = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    nh, nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    d = H // nh
    out = [("model.embed_tokens.weight", [V, H])]
    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        out += [(p + "self_attn.q_proj.weight", [nh * d, H]),
                (p + "self_attn.k_proj.weight", [nkv * d, H]),
                (p + "self_attn.v_proj.weight", [nkv * d, H]),
                (p + "self_attn.o_proj.weight", [H, nh * d]),
                (p + "mlp.gate_proj.weight", [F, H]),
                (p + "mlp.up_proj.weight", [F, H]),
                (p + "mlp.down_proj.weight", [H, F]),
                (p + "input_layernorm.weight", [H]),
                (p + "post_attention_layernorm.weight", [H])]
    out += [("model.norm.weight", [H]), ("lm_head.weight", [V, H])]
    return out


def inv_freq(cfg):
    """RoPE's inverse frequencies computed in float32 as transformers does
    (1 / theta ** (arange(0, d, 2) / d))."""
    d = cfg["hidden_size"] // cfg["num_attention_heads"]
    e = np.arange(0, d, 2, dtype=np.int64).astype(np.float32) / np.float32(d)
    return (np.float32(1.0) /
            np.power(np.float32(cfg["rope_theta"]), e)).astype(np.float32)


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
    for key in ("hidden_size", "intermediate_size", "num_attention_heads",
                "num_hidden_layers", "num_key_value_heads", "vocab_size",
                "rope_theta", "rms_norm_eps", "max_position_embeddings"):
        if key not in cfg:
            sys.exit(f"config: missing '{key}'")
    if cfg["hidden_size"] % cfg["num_attention_heads"]:
        sys.exit("config: hidden_size is not a multiple of num_attention_heads")
    if cfg["num_attention_heads"] % cfg["num_key_value_heads"]:
        sys.exit("config: num_attention_heads is not a multiple of "
                 "num_key_value_heads")
    if (cfg["hidden_size"] // cfg["num_attention_heads"]) % 2:
        sys.exit("config: the head size must be even (rotary halves)")
    if cfg.get("rope_scaling") or cfg.get("attention_bias") or \
            cfg.get("mlp_bias") or cfg.get("tie_word_embeddings"):
        sys.exit("config: rope_scaling, attention/mlp biases and tied "
                 "embeddings are not supported")
    if cfg.get("hidden_act", "silu") != "silu":
        sys.exit("config: only hidden_act silu is supported")


def cache_append(e, layer, kind, past, new, s, kv, d):
    """present = concat(past, new) on the sequence axis; without a past
    (prefill) the new keys/values are the cache. The one place that knows
    how the cache grows."""
    if past is None:
        return new, "s"
    return e.op(f"{kind}_cache_l{layer}",
                f"relax.concat {past}, {new} {{axis = 1 : i64}}",
                [T([1, "p", kv, d]), T([1, s, kv, d])],
                T([1, f"p + {s}", kv, d])), f"p + {s}"


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


def function(cfg, name, decode):
    H, F, V = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    nh, nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    L = cfg["num_hidden_layers"]
    d = H // nh
    eps = float(cfg["rms_norm_eps"])
    maxpos = cfg["max_position_embeddings"]
    s = 1 if decode else "s"
    start = "p" if decode else "0"
    end = "p + 1" if decode else "s"

    args = []
    if decode:
        args.append(f'%tokens: {T([1, 1], "i64")} {{relax.name = "token"}}')
        for i in range(L):
            for kind in ("key", "value"):
                args.append(f'%past_{kind[0]}_l{i}: {T([1, "p", nkv, d])} '
                            f'{{relax.name = "past.{i}.{kind}"}}')
    else:
        args.append(f'%tokens: {T([1, "s"], "i64")} {{relax.name = "tokens"}}')
    w = {}
    for k, (wname, shape) in enumerate(weight_shapes(cfg)):
        w[wname] = f"%w{k}"
        args.append(f'%w{k}: {T(shape)} {{relax.name = "{wname}"}}')

    present_len = "p + 1" if decode else "s"
    cacheT = T([1, present_len, nkv, d])
    results = [T([1, 1, V])] + [cacheT] * (2 * L)

    e = Emitter()
    hT = T([1, s, H])
    x = e.op("embed", f'relax.take {w["model.embed_tokens.weight"]}, %tokens '
             "{axis = 0 : i64}", [T([V, H]), T([1, s], "i64")], hT)
    # Rotary tables for positions start..end-1 (transformers' default rope:
    # emb = cat(freqs, freqs), freqs = position * inv_freq, in float32).
    half = d // 2
    inv = ", ".join(repr(float(v)) for v in inv_freq(cfg))
    e.raw(f"%inv_freq = relax.constant dense<[{inv}]> : tensor<{half}xf32>")
    pos = f"%positions"
    e.raw(f"{pos} = relax.arange {{dtype = f32, end = #relax.expr<{end}>, "
          f"start = #relax.expr<{start}>, step = #relax.expr<1>}} : "
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

        def proj(tag, wn, outdim, inp=h, inT=hT, indim=H):
            return e.op(f"{tag}_l{i}", f"relax.linear {inp}, {w[p + wn]}",
                        [inT, T([outdim, indim])], T([1, s, outdim]))
        q0 = proj("q0", "self_attn.q_proj.weight", nh * d)
        k0 = proj("k0", "self_attn.k_proj.weight", nkv * d)
        v0 = proj("v0", "self_attn.v_proj.weight", nkv * d)
        q = e.op(f"q_l{i}", f"relax.reshape {q0} {{shape = #relax.shape<[1, {s}, {nh}, {d}]>}}",
                 [T([1, s, nh * d])], T([1, s, nh, d]))
        k = e.op(f"k_l{i}", f"relax.reshape {k0} {{shape = #relax.shape<[1, {s}, {nkv}, {d}]>}}",
                 [T([1, s, nkv * d])], T([1, s, nkv, d]))
        v = e.op(f"v_l{i}", f"relax.reshape {v0} {{shape = #relax.shape<[1, {s}, {nkv}, {d}]>}}",
                 [T([1, s, nkv * d])], T([1, s, nkv, d]))
        qr = rotary(e, q, f"q_l{i}", s, nh, d, c, sn)
        kr = rotary(e, k, f"k_l{i}", s, nkv, d, c, sn)
        kc, t = cache_append(e, i, "k", f"%past_k_l{i}" if decode else None,
                             kr, s, nkv, d)
        vc, _ = cache_append(e, i, "v", f"%past_v_l{i}" if decode else None,
                             v, s, nkv, d)
        presents += [kc, vc]
        # Causal attention is bottom-right aligned: query i (position
        # p + i) sees keys 0 .. p + i.
        a = e.op(f"attn_l{i}", f"relax.attention {qr}, {kc}, {vc} "
                 "{causal = true}",
                 [T([1, s, nh, d]), T([1, t, nkv, d]), T([1, t, nkv, d])],
                 T([1, s, nh, d]))
        a2 = e.op(f"attn2_l{i}", f"relax.reshape {a} {{shape = #relax.shape<[1, {s}, {nh * d}]>}}",
                  [T([1, s, nh, d])], T([1, s, nh * d]))
        o = proj("o", "self_attn.o_proj.weight", H, a2, T([1, s, nh * d]),
                 nh * d)
        x1 = e.op(f"x1_l{i}", f"relax.add {x}, {o}", [hT, hT], hT)
        h2 = e.op(f"ln2_l{i}", f"relax.rms_norm {x1}, "
                  f"{w[p + 'post_attention_layernorm.weight']} "
                  f"{{axes = array<i64: -1>, epsilon = {eps:.6e} : f64}}",
                  [hT, T([H])], hT)
        g = proj("gate", "mlp.gate_proj.weight", F, h2)
        u = proj("up", "mlp.up_proj.weight", F, h2)
        fT = T([1, s, F])
        ga = e.op(f"gact_l{i}", f"relax.silu {g}", [fT], fT)
        gu = e.op(f"gu_l{i}", f"relax.multiply {ga}, {u}", [fT, fT], fT)
        dn = proj("down", "mlp.down_proj.weight", H, gu, fT, F)
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
    logits = e.op("logits", f"relax.linear {xn}, {w['lm_head.weight']}",
                  [T([1, 1, H]), T([V, H])], T([1, 1, V]))

    outs = [logits] + presents
    bound = (f"p = array<i64: 0, {maxpos - 1}>" if decode
             else f"s = array<i64: 1, {maxpos}>")
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
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        cfg = json.load(f)
    check_config(cfg)
    summary = ", ".join(f"{k} {cfg[k]}" for k in (
        "num_hidden_layers", "hidden_size", "num_attention_heads",
        "num_key_value_heads", "intermediate_size", "vocab_size", "rope_theta",
        "rms_norm_eps", "max_position_embeddings"))
    print("// Generated by scripts/gen-llama-model.py: do not edit.")
    print(f"// Llama ({summary}).")
    print("// prefill(tokens [1, s]) and decode(token [1, 1], past caches "
          "[1, p, kv_heads, head_dim]) -> (logits [1, 1, vocab], present "
          "caches); see docs/llm.md.")
    print(function(cfg, "prefill", decode=False))
    print()
    print(function(cfg, "decode", decode=True))


if __name__ == "__main__":
    main()
