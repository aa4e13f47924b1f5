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


def function(cfg, name, decode):
    H, F, V = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"]
    nh, nkv = cfg["num_attention_heads"], cfg["num_key_value_heads"]
    L = cfg["num_hidden_layers"]
    d = H // nh
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
            args.append(f'%cache_{kind[0]}_l{i}: {cacheT} '
                        f'{{relax.name = "cache.{i}.{kind}"}}')
    w = {}
    for k, (wname, shape) in enumerate(weight_shapes(cfg)):
        w[wname] = f"%w{k}"
        args.append(f'%w{k}: {T(shape)} {{relax.name = "{wname}"}}')

    results = [T([1, 1, V])] + [cacheT] * (2 * L)

    e = Emitter()
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
    print("// prefill(tokens [1, s], past_length, caches [1, m, kv_heads, "
          "head_dim]) and decode(token [1, 1], past_length, caches) -> "
          "(logits [1, 1, vocab], the caches updated in place); see "
          "docs/llm.md.")
    print(KV_APPEND)
    print()
    print(function(cfg, "prefill", decode=False))
    print()
    print(function(cfg, "decode", decode=True))


if __name__ == "__main__":
    main()
