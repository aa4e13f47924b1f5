#!/usr/bin/env python3
"""llama.cpp as a peer of relax-mlir's llama-generate, on the same weights.

    llamacpp_peer.py convert CONFIG.json WEIGHTS.safetensors OUT.gguf
        [--check-seed S]
    llamacpp_peer.py run MODEL.gguf --prompt 1,2,3 [-n 16] [--threads T]
        [--dump-logits L.npy] [--kv-type f32|f16] [--flash-attn] [--mmap]
    llamacpp_peer.py compare RELAX.txt RELAX.npy PEER.txt PEER.npy
    llamacpp_peer.py info

convert: a Llama of scripts/gen-llama-model.py (a Hugging Face config and a
safetensors file of LlamaForCausalLM's state dict, f32, as llama-generate
--save-weights writes it) as a GGUF file of f32 tensors for llama.cpp's
"llama" architecture, written with the gguf package (llama.cpp's own
gguf-py): the llama.* hyperparameters, the tensor names of llama.cpp
(token_embd, blk.N.attn_q, ..., output) and, as llama.cpp's
convert_hf_to_gguf.py does, q_proj/k_proj rows permuted from Hugging Face's
rotate-half rotary layout to llama.cpp's interleaved pairs
(permute(w, n_head, n_head_kv)). llama.cpp needs a tokenizer to load a
model: a minimal SentencePiece ("llama") vocabulary of vocab_size tokens
("<unk>", "<s>", "</s>", then "t3", "t4", ...); the token ids are all that
matter here, as for llama-generate.

A quantized checkpoint (llama-generate --quantize q8|q4 --save-weights:
<module>.qweight / .scales at group 32 with f16 scales, docs/quantization.md)
becomes GGUF Q8_0 / Q4_0 tensors: the same integers and scales, repacked
into llama.cpp's blocks (scripts/quantize.py to_gguf_blocks). With
--check-seed S (the weights of --random-weights S) every block is compared
with gguf-py's own Q8_0 / Q4_0 quantizer (gguf.quants.quantize) of the f32
weight: they must be equal byte for byte.

run: loads the GGUF with llama-cpp-python (llama_cpp.Llama: the file read
into memory, use_mmap=False, unless --mmap: mapped file pages can be
reclaimed and read back from disk mid-run, which llama-generate's weights
in anonymous memory never are; n_batch = n_ubatch = the prompt length,
n_threads = n_threads_batch = T, logits of the last position only, f32 KV
cache by default so that both sides compute in f32), evaluates the prompt in one llm.eval (timed: prefill), then N - 1
greedy decode steps of one llm.eval([token]) each plus the argmax of the
last logits (timed together: decode), as llama-generate does (-n N: one
token from prefill, N - 1 decode steps). Prints llama-generate's lines:

    prompt: 1 2 3
    tokens: 226 809 ...
    prefill: 3 tokens in X ms (Y tokens/s)
    decode: 15 tokens in X ms (Y tokens/s)

--dump-logits writes [N, vocab] f32 like llama-generate --dump-logits (row
0 the prompt's last position, row k decode step k).

compare: the greedy tokens of two runs (the "tokens:" lines of their
outputs) and their logits up to the first token that differs.
"""
import argparse
from pathlib import Path
import json
import sys
import time

import numpy as np


def parse_ids(text):
    return [int(t) for t in text.replace(",", " ").split()]


# --------------------------------------------------------------------------
# convert
# --------------------------------------------------------------------------

def permute(w, n_head, n_head_kv=None):
    """convert_hf_to_gguf.py's LlamaModel.permute: rows of q_proj / k_proj
    (and their biases) from rotate-half pairs (i, i + d/2) to adjacent pairs
    (2i, 2i + 1) within each head."""
    if n_head_kv is not None and n_head != n_head_kv:
        n_head = n_head_kv
    return np.ascontiguousarray(
        w.reshape(n_head, 2, w.shape[0] // n_head // 2, *w.shape[1:])
        .swapaxes(1, 2).reshape(w.shape))


def gguf_name(name):
    """llama.cpp's tensor name for a LlamaForCausalLM state-dict name."""
    fixed = {"model.embed_tokens.weight": "token_embd.weight",
             "model.norm.weight": "output_norm.weight",
             "lm_head.weight": "output.weight"}
    if name in fixed:
        return fixed[name]
    parts = name.split(".")
    if parts[:2] != ["model", "layers"] or len(parts) < 5:
        raise SystemExit(f"convert: unexpected tensor '{name}'")
    layer, rest = parts[2], ".".join(parts[3:])
    per_layer = {
        "self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k",
        "self_attn.v_proj": "attn_v", "self_attn.o_proj": "attn_output",
        "mlp.gate_proj": "ffn_gate", "mlp.up_proj": "ffn_up",
        "mlp.down_proj": "ffn_down",
        "input_layernorm": "attn_norm",
        "post_attention_layernorm": "ffn_norm",
    }
    module, _, kind = rest.rpartition(".")
    if module not in per_layer or kind not in ("weight", "bias"):
        raise SystemExit(f"convert: unexpected tensor '{name}'")
    return f"blk.{layer}.{per_layer[module]}.{kind}"


def convert(args):
    import gguf
    from safetensors import safe_open

    cfg = json.load(open(args.config))
    n_head = cfg["num_attention_heads"]
    n_head_kv = cfg.get("num_key_value_heads") or n_head
    hidden = cfg["hidden_size"]
    head_dim = cfg.get("head_dim") or hidden // n_head
    vocab = cfg["vocab_size"]
    if cfg.get("hidden_act", "silu") != "silu":
        raise SystemExit(f"convert: hidden_act {cfg['hidden_act']!r} is "
                         "not supported (silu is)")
    scaling = cfg.get("rope_scaling") or cfg.get("rope_parameters") or {}
    rope_type = scaling.get("rope_type", scaling.get("type", "default"))
    if rope_type not in ("default", "linear"):
        raise SystemExit(f"convert: rope type {rope_type!r} is not supported "
                         "(default and linear are)")
    theta = cfg.get("rope_theta", scaling.get("rope_theta", 10000.0))

    w = gguf.GGUFWriter(args.out, "llama")
    w.add_name(cfg.get("_name_or_path") or "relax-mlir llama")
    w.add_context_length(cfg["max_position_embeddings"])
    w.add_embedding_length(hidden)
    w.add_block_count(cfg["num_hidden_layers"])
    w.add_feed_forward_length(cfg["intermediate_size"])
    w.add_head_count(n_head)
    w.add_head_count_kv(n_head_kv)
    if head_dim != hidden // n_head:
        w.add_key_length(head_dim)
        w.add_value_length(head_dim)
    w.add_layer_norm_rms_eps(cfg["rms_norm_eps"])
    w.add_rope_freq_base(theta)
    w.add_rope_dimension_count(head_dim)
    if rope_type == "linear":
        w.add_rope_scaling_type(gguf.RopeScalingType.LINEAR)
        w.add_rope_scaling_factor(scaling["factor"])
    w.add_vocab_size(vocab)

    # A minimal SentencePiece vocabulary: llama.cpp refuses a model without
    # one, and takes token ids as they are.
    tokens = ["<unk>", "<s>", "</s>"] + [f"t{i}" for i in range(3, vocab)]
    types = ([gguf.TokenType.UNKNOWN, gguf.TokenType.CONTROL,
              gguf.TokenType.CONTROL] + [gguf.TokenType.NORMAL] * (vocab - 3))
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * vocab)
    w.add_token_types(types)
    w.add_unk_token_id(0)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_add_bos_token(False)

    tied = bool(cfg.get("tie_word_embeddings", False))
    checked = 0
    with safe_open(args.weights, framework="numpy") as f:
        names = list(f.keys())
        quant_bits = {8 if f.get_tensor(n).dtype == np.int8 else 4
                      for n in names if n.endswith(".qweight")}
        if len(quant_bits) > 1:
            raise SystemExit("convert: q8 and q4 weights in one file")
        w.add_file_type(gguf.LlamaFileType.ALL_F32 if not quant_bits else
                        gguf.LlamaFileType.MOSTLY_Q8_0 if 8 in quant_bits
                        else gguf.LlamaFileType.MOSTLY_Q4_0)
        for name in names:
            if name.endswith((".scales", ".qzeros")):
                if name.endswith(".qzeros"):
                    raise SystemExit(f"convert: '{name}': GGUF Q4_0 has no "
                                     "zero points")
                continue
            t = f.get_tensor(name)
            raw_dtype = None
            if name.endswith(".qweight"):
                base = name[:-len(".qweight")]
                t, raw_dtype = gguf_blocks(f, base, t, args.check_seed)
                checked += args.check_seed is not None
                name = base + ".weight"
            elif t.dtype != np.float32:
                raise SystemExit(f"convert: '{name}' is {t.dtype}, not f32")
            if name.endswith(("q_proj.weight", "q_proj.bias")):
                t = permute(t, n_head, n_head)
            elif name.endswith(("k_proj.weight", "k_proj.bias")):
                t = permute(t, n_head, n_head_kv)
            if name == "lm_head.weight" and tied:
                continue
            # numpy [out, in] is ggml's ne = [in, out], what llama.cpp reads.
            w.add_tensor(gguf_name(name), np.ascontiguousarray(t),
                         raw_dtype=raw_dtype)
        if not tied and not {"lm_head.weight", "lm_head.qweight"} & set(names):
            raise SystemExit("convert: no lm_head.weight and "
                             "tie_word_embeddings is false")
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
    w.close()
    kind = ("Q%d_0" % quant_bits.pop()) if quant_bits else "f32"
    tensors = [n for n in names if not n.endswith((".scales", ".qzeros"))]
    print(f"wrote {args.out}: {len(tensors) - (tied and 'lm_head.weight' in names)}"
          f" tensors, {kind}, vocab {vocab}")
    if checked:
        print(f"convert: {checked} quantized tensors equal gguf-py's "
              f"{kind} byte for byte")


def gguf_blocks(f, base, q, check_seed):
    """The GGUF Q8_0 / Q4_0 blocks of `base` ([out, blocks * bytes] uint8)
    and their ggml type, from its .qweight and .scales."""
    import gguf
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    import llama_weights
    import quantize
    scales = f.get_tensor(base + ".scales")
    bits = 8 if q.dtype == np.int8 else 4
    k = q.shape[1] * (1 if bits == 8 else 2)
    if scales.dtype != np.float16 or scales.shape != (q.shape[0], k // 32):
        raise SystemExit(f"convert: '{base}' is not group 32 with f16 scales "
                         f"(scales {scales.dtype} {list(scales.shape)}), "
                         "which GGUF Q8_0 / Q4_0 need")
    blocks = quantize.to_gguf_blocks(q, scales, bits)
    qtype = (gguf.GGMLQuantizationType.Q8_0 if bits == 8
             else gguf.GGMLQuantizationType.Q4_0)
    if check_seed is not None:
        w = llama_weights.random_weight(check_seed, base + ".weight",
                                        [q.shape[0], k])
        theirs = gguf.quants.quantize(w, qtype)
        if not np.array_equal(theirs.view(np.uint8).reshape(blocks.shape),
                              blocks):
            raise SystemExit(f"convert: '{base}' differs from gguf-py's "
                             f"{qtype.name} of the seed {check_seed} weights")
    return blocks, qtype


# --------------------------------------------------------------------------
# run
# --------------------------------------------------------------------------

def run(args):
    import llama_cpp

    prompt = parse_ids(args.prompt)
    n = args.n
    kv_type = {"f32": llama_cpp.GGML_TYPE_F32,
               "f16": llama_cpp.GGML_TYPE_F16}[args.kv_type]
    llm = llama_cpp.Llama(
        model_path=args.model, n_ctx=len(prompt) + n, n_batch=len(prompt),
        n_ubatch=len(prompt), n_threads=args.threads,
        n_threads_batch=args.threads, logits_all=False, verbose=False,
        type_k=kv_type, type_v=kv_type, flash_attn=args.flash_attn,
        use_mmap=args.mmap)
    vocab = llm.n_vocab()
    ctx = llm._ctx.ctx

    def last_logits():
        ptr = llama_cpp.llama_get_logits_ith(ctx, -1)
        return np.ctypeslib.as_array(ptr, shape=(vocab,))

    rows = []
    t0 = time.perf_counter()
    llm.eval(prompt)
    t1 = time.perf_counter()
    logits = last_logits()
    tokens = [int(np.argmax(logits))]
    if args.dump_logits:
        rows.append(logits.copy())
    t1b = time.perf_counter()
    for _ in range(1, n):
        llm.eval([tokens[-1]])
        logits = last_logits()
        tokens.append(int(np.argmax(logits)))
        if args.dump_logits:
            rows.append(logits.copy())
    t2 = time.perf_counter()

    print("prompt:", " ".join(map(str, prompt)))
    print("tokens:", " ".join(map(str, tokens)))
    prefill = t1 - t0
    print(f"prefill: {len(prompt)} tokens in {prefill * 1e3:.1f} ms "
          f"({len(prompt) / prefill:.1f} tokens/s)")
    if n > 1:
        decode = t2 - t1b
        print(f"decode: {n - 1} tokens in {decode * 1e3:.1f} ms "
              f"({(n - 1) / decode:.2f} tokens/s)")
    if args.dump_logits:
        np.save(args.dump_logits, np.stack(rows).astype(np.float32))


# --------------------------------------------------------------------------
# compare
# --------------------------------------------------------------------------

def tokens_of(path):
    for line in open(path):
        if line.startswith("tokens:"):
            return parse_ids(line.split(":", 1)[1])
    raise SystemExit(f"compare: no 'tokens:' line in {path}")


def compare(args):
    a, b = tokens_of(args.relax_out), tokens_of(args.peer_out)
    la, lb = np.load(args.relax_logits), np.load(args.peer_logits)
    same = 0
    while same < min(len(a), len(b)) and a[same] == b[same]:
        same += 1
    # Logits of a step depend on the tokens before it: compare the steps up
    # to and including the first differing token.
    rows = min(same + 1, len(la), len(lb))
    diff = np.abs(la[:rows] - lb[:rows])
    scale = np.abs(la[:rows]).max()
    top2 = np.sort(la[:rows], axis=1)[:, -2:]
    gap = (top2[:, 1] - top2[:, 0]).min()
    n = min(len(a), len(b))
    if same == n:
        verdict = f"all {n} agree"
    else:
        verdict = (f"{same} of {n} agree; step {same}: relax {a[same]}, "
                   f"llama.cpp {b[same]}")
    print(f"tokens: {verdict}")
    print(f"logits: max abs diff {diff.max():.3g} over {rows} steps "
          f"(max |logit| {scale:.3g}, smallest top-2 gap {gap:.3g})")
    # One line for the report.
    print(f"summary: {verdict} (logits max abs diff {diff.max():.2g})")


def info(_):
    import llama_cpp
    print(f"llama-cpp-python {llama_cpp.__version__}")
    print(llama_cpp.llama_print_system_info().decode().strip())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("convert")
    c.add_argument("config")
    c.add_argument("weights")
    c.add_argument("out")
    c.add_argument("--check-seed", type=int,
                   help="compare quantized blocks with gguf-py's quantizer "
                        "of the --random-weights S weights")
    r = sub.add_parser("run")
    r.add_argument("model")
    r.add_argument("--prompt", required=True, help="token ids: 1,2,3")
    r.add_argument("-n", type=int, default=16)
    r.add_argument("--threads", type=int, default=1)
    r.add_argument("--dump-logits")
    r.add_argument("--kv-type", choices=["f32", "f16"], default="f32")
    r.add_argument("--flash-attn", action="store_true")
    r.add_argument("--mmap", action="store_true",
                   help="map the GGUF (llama.cpp's default) instead of "
                        "reading it into memory")
    m = sub.add_parser("compare")
    m.add_argument("relax_out")
    m.add_argument("relax_logits")
    m.add_argument("peer_out")
    m.add_argument("peer_logits")
    sub.add_parser("info")
    args = p.parse_args()
    {"convert": convert, "run": run, "compare": compare,
     "info": info}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
