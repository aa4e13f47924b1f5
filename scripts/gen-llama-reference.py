#!/usr/bin/env python3
"""Reference greedy generation for the Llama models of
scripts/gen-llama-model.py, by Hugging Face transformers' LlamaForCausalLM
with the same config and the same deterministic random weights
(scripts/llama_weights.py, bit-identical to llama-generate
--random-weights). Run by hand; tests only read what it writes:

    python3 -m venv ~/.cache/relax-llm-ref
    ~/.cache/relax-llm-ref/bin/pip install torch transformers numpy
    ~/.cache/relax-llm-ref/bin/python scripts/gen-llama-reference.py \\
        python-free-examples/llm/llama-6l.json test/lit/E2E/Inputs/llm/llama-6l \\
        [--seed 18] [--prompt test/lit/E2E/Inputs/llm/prompt.txt] [-n 32]

(torch from PyPI is several GB with its CUDA wheels; the CPU is enough.)
Writes OUT/tokens.npy (int64 [n], the greedy new tokens) and
OUT/logits.npy (float32 [n, vocab]: row 0 the prompt's last position, row k
decode step k), and prints the smallest top-1/top-2 logit gap (how far
the greedy choice is from a tie). The model runs in float32 with eager
attention, a DynamicCache between steps, no sampling.

With --quantize q8|q4 [--group-size G] [--zero-points] [--scales f32] the
linear weights are first quantized and decoded back exactly by
scripts/quantize.py (the formulas of docs/quantization.md, which
llama-generate --quantize implements in C++): the reference of a model of
gen-llama-model.py --quantize with the same options.
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch
from transformers import LlamaConfig, LlamaForCausalLM

sys.path.insert(0, str(Path(__file__).resolve().parent))
import llama_weights  # noqa: E402
import quantize  # noqa: E402


def quantized_round_trip(weights, bits, group, zero_points, scales):
    """Each linear weight as its quantized form decodes it."""
    gen = llama_weights.gen_model()
    sdtype = np.float16 if scales == "f16" else np.float32
    out = {}
    for name, w in weights.items():
        if not gen.is_quantized_weight(name):
            out[name] = w
        elif bits == 8:
            out[name] = quantize.dequantize(
                *quantize.quantize_q8(w, group, sdtype), 8, group)
        elif zero_points:
            q, s, z = quantize.quantize_q4_zero_points(w, group, sdtype)
            out[name] = quantize.dequantize(q, s, 4, group, z)
        else:
            out[name] = quantize.dequantize(
                *quantize.quantize_q4(w, group, sdtype), 4, group)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("config")
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--prompt", default=str(
        Path(__file__).resolve().parent.parent /
        "test/lit/E2E/Inputs/llm/prompt.txt"))
    ap.add_argument("-n", type=int, default=32)
    ap.add_argument("--quantize", choices=("q8", "q4"))
    ap.add_argument("--group-size", type=int, default=32)
    ap.add_argument("--zero-points", action="store_true")
    ap.add_argument("--scales", choices=("f16", "f32"), default="f16")
    args = ap.parse_args()

    cfg = json.loads(Path(args.config).read_text())
    prompt = [int(t) for t in Path(args.prompt).read_text().replace(",", " ").split()]
    torch.manual_seed(0)
    gen = llama_weights.gen_model()
    gen.check_config(cfg)
    kind, theta, params = gen.rope_config(cfg)
    config = LlamaConfig(
        vocab_size=cfg["vocab_size"], hidden_size=cfg["hidden_size"],
        intermediate_size=cfg["intermediate_size"],
        num_hidden_layers=cfg["num_hidden_layers"],
        num_attention_heads=cfg["num_attention_heads"],
        num_key_value_heads=cfg["num_key_value_heads"],
        head_dim=gen.head_dim(cfg),
        max_position_embeddings=cfg["max_position_embeddings"],
        rms_norm_eps=cfg["rms_norm_eps"],
        rope_parameters=dict(params, rope_type=kind, rope_theta=theta),
        hidden_act="silu",
        attention_bias=bool(cfg.get("attention_bias")),
        mlp_bias=bool(cfg.get("mlp_bias")),
        tie_word_embeddings=bool(cfg.get("tie_word_embeddings")),
        attn_implementation="eager", dtype=torch.float32)
    model = LlamaForCausalLM(config).float().eval()

    weights = llama_weights.random_weights(cfg, args.seed)
    if args.quantize:
        weights = quantized_round_trip(
            weights, 8 if args.quantize == "q8" else 4, args.group_size,
            args.zero_points, args.scales)
    state = {k: torch.from_numpy(v) for k, v in weights.items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    tied = bool(cfg.get("tie_word_embeddings"))
    missing = [k for k in missing if "rotary_emb" not in k and
               not (tied and k == "lm_head.weight")]
    if missing or unexpected:
        sys.exit(f"state dict mismatch: missing {missing}, unexpected {unexpected}")

    if tied and not torch.equal(model.lm_head.weight,
                                model.model.embed_tokens.weight):
        sys.exit("tie_word_embeddings: lm_head is not the embedding")
    # The IR's constant inverse frequencies must be the model's.
    ours = gen.inv_freq(cfg)
    theirs = model.model.rotary_emb.inv_freq.numpy()
    print(f"inv_freq: max abs diff vs the IR's constant "
          f"{np.abs(ours - theirs).max():.3g}")

    tokens, logits = [], []
    with torch.no_grad():
        ids = torch.tensor([prompt], dtype=torch.long)
        out = model(input_ids=ids, use_cache=True)
        for step in range(args.n):
            row = out.logits[0, -1].float()
            logits.append(row.numpy().copy())
            tokens.append(int(row.argmax()))
            if step + 1 == args.n:
                break
            out = model(input_ids=torch.tensor([[tokens[-1]]]),
                        past_key_values=out.past_key_values, use_cache=True)
    logits = np.stack(logits).astype(np.float32)
    top2 = np.sort(logits, axis=1)[:, -2:]
    gaps = top2[:, 1] - top2[:, 0]
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    np.save(out_dir / "tokens.npy", np.array(tokens, dtype=np.int64))
    np.save(out_dir / "logits.npy", logits)
    print("prompt:", *prompt)
    print("tokens:", *tokens)
    print(f"logits: max |value| {np.abs(logits).max():.4g}; smallest top-1 "
          f"vs top-2 gap {gaps.min():.4g} (step {int(gaps.argmin())})")


if __name__ == "__main__":
    main()
