"""Inputs and numpy references for call-tir-inplace.mlir, relax-view.mlir
and tuple-params.mlir.

  inplace_ref.py kv DIR H M D S POS   KV cache append: cache [1, H, M, D],
      k [1, H, S, D], pos [1] (i64); expected cache with k written at rows
      POS..POS+S-1, expected k * 2, and the intermediate variant
      ((cache + 1) updated, plus cache * 2).
  kv_tuple_ref.py prefix DIR M H D S POS   relax-view.mlir: cache
      [1, M, H, D] (sequence-major), k [1, S, H, D], pos [1]; expected the
      appended cache, the sum of its POS + S valid rows over the sequence
      ([1, H, D]) and that of (cache + 1) with k written.
  kv_tuple_ref.py tuples DIR N        k, v, x [N, 4]; expected
      (k + x, v * x) and k + v (the nested tuple result of @step).
"""
import os
import sys

import numpy as np


def kv(out, h, m, d, s, pos):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(h * 1000 + m * 100 + s * 10 + pos)
    cache = rng.uniform(-1, 1, (1, h, m, d)).astype(np.float32)
    k = rng.uniform(-1, 1, (1, h, s, d)).astype(np.float32)
    np.save(os.path.join(out, "cache.npy"), cache)
    np.save(os.path.join(out, "k.npy"), k)
    np.save(os.path.join(out, "pos.npy"), np.array([pos], dtype=np.int64))
    appended = cache.copy()
    appended[:, :, pos:pos + s, :] = k
    np.save(os.path.join(out, "appended.npy"), appended)
    np.save(os.path.join(out, "k2.npy"), k * 2)
    inter = cache + 1
    inter[:, :, pos:pos + s, :] = k
    np.save(os.path.join(out, "intermediate.npy"), inter + cache * 2)


def prefix(out, m, h, d, s, pos):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(m * 1000 + h * 100 + s * 10 + pos)
    cache = rng.uniform(-1, 1, (1, m, h, d)).astype(np.float32)
    k = rng.uniform(-1, 1, (1, s, h, d)).astype(np.float32)
    np.save(os.path.join(out, "cache.npy"), cache)
    np.save(os.path.join(out, "k.npy"), k)
    np.save(os.path.join(out, "pos.npy"), np.array([pos], dtype=np.int64))
    appended = cache.copy()
    appended[:, pos:pos + s] = k
    np.save(os.path.join(out, "appended.npy"), appended)
    np.save(os.path.join(out, "valid.npy"), appended[:, :pos + s])
    np.save(os.path.join(out, "sum.npy"),
            appended[:, :pos + s].sum(axis=1, dtype=np.float64)
            .astype(np.float32))
    inter = cache + 1
    inter[:, pos:pos + s] = k
    np.save(os.path.join(out, "sum1.npy"),
            inter[:, :pos + s].sum(axis=1, dtype=np.float64)
            .astype(np.float32))


def tuples(out, n):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(n)
    k, v, x = (rng.uniform(-1, 1, (n, 4)).astype(np.float32) for _ in range(3))
    for name, value in (("k", k), ("v", v), ("x", x), ("k2", k + x),
                        ("v2", v * x), ("kv", k + v)):
        np.save(os.path.join(out, name + ".npy"), value)


if __name__ == "__main__":
    if sys.argv[1] == "kv":
        kv(sys.argv[2], *map(int, sys.argv[3:8]))
    elif sys.argv[1] == "prefix":
        prefix(sys.argv[2], *map(int, sys.argv[3:8]))
    elif sys.argv[1] == "tuples":
        tuples(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit("unknown mode " + sys.argv[1])
