"""Deterministic random weights for the Llama models of
scripts/gen-llama-model.py, the numpy twin of llama-generate's
--random-weights (python-free-examples/llama_generate_weights.cpp): element
i of tensor `name` depends on (seed, name, i) only.

    key = splitmix64(seed ^ fnv1a64(name))
    z   = splitmix64(key + i)                       (uint64, wrapping)
    u   = float32(z >> 40) * 2**-23 - 1             in [-1, 1), exact
    matrix [out, in]: u * float32(1 / sqrt(in))     (one float32 rounding)
    bias (name ending in .bias): u / 8
    other vector (RMSNorm): 1 + u / 8

so both produce the same bits. random_weights(cfg, seed) gives the state
dict of LlamaForCausalLM (names and shapes of gen-llama-model.py).
"""
import importlib.util
from pathlib import Path

import numpy as np

M64 = (1 << 64) - 1


def _splitmix64_int(x):
    z = (x + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _splitmix64(x):
    with np.errstate(over="ignore"):
        z = x + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def fnv1a64(name):
    h = 0xCBF29CE484222325
    for c in name.encode():
        h = ((h ^ c) * 0x100000001B3) & M64
    return h


def random_weight(seed, name, shape, chunk=1 << 24):
    key = _splitmix64_int((seed & M64) ^ fnv1a64(name))
    count = int(np.prod(shape))
    bias = name.endswith(".bias")
    out = np.empty(count, np.float32)
    scale = (np.float32(1.0 / np.sqrt(float(shape[1]))) if len(shape) == 2
             else np.float32(0.125))
    for begin in range(0, count, chunk):
        end = min(count, begin + chunk)
        with np.errstate(over="ignore"):
            z = _splitmix64(np.uint64(key) +
                            np.arange(begin, end, dtype=np.uint64))
        u = ((z >> np.uint64(40)).astype(np.float32) * np.float32(2.0 ** -23)
             - np.float32(1.0))
        out[begin:end] = (u * scale if len(shape) == 2 or bias
                          else np.float32(1.0) + u * scale)
    return out.reshape(shape)


def gen_model():
    """scripts/gen-llama-model.py as a module (names, shapes, inv_freq)."""
    path = Path(__file__).resolve().parent / "gen-llama-model.py"
    spec = importlib.util.spec_from_file_location("gen_llama_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_weights(cfg, seed):
    return {name: random_weight(seed, name, shape)
            for name, shape in gen_model().weight_shapes(cfg)}
