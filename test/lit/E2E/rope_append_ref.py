"""Inputs and numpy references for fuse-inplace-rotary.mlir.

  rope_append_ref.py DIR H M S POS   cache [1, M, H, 8], qk [1, S, H, 16],
      cos and sin tables [1, S, 1, 8], pos [1] (i64); expected caches
      with the rotated keys written at rows POS..POS+S-1 (two rotary
      variants), the fresh outputs of @append_fresh, @view_read's
      k + cache rows 0..S-1 and the rolled rows of
      @roll.
"""
import os
import sys

import numpy as np


def main(out, h, m, s, pos):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(h * 1000 + m * 100 + s * 10 + pos)
    cache = rng.uniform(-1, 1, (1, m, h, 8)).astype(np.float32)
    qk = rng.uniform(-1, 1, (1, s, h, 16)).astype(np.float32)
    # Tables as the Llama generator builds them: angle = position * freq.
    freq = (1.0 / np.power(np.float32(10000), np.arange(0, 8, 2) / 8)).astype(np.float32)
    angle = np.arange(pos, pos + s, dtype=np.float32)[:, None] * freq[None, :]
    emb = np.concatenate([angle, angle], axis=1)
    cos = np.cos(emb).astype(np.float32).reshape(1, s, 1, 8)
    sin = np.sin(emb).astype(np.float32).reshape(1, s, 1, 8)
    for name, value in (("cache", cache), ("qk", qk), ("cos", cos),
                        ("sin", sin)):
        np.save(os.path.join(out, name + ".npy"), value)
    np.save(os.path.join(out, "pos.npy"), np.array([pos], dtype=np.int64))

    def written(rows):
        result = cache.copy()
        result[:, pos:pos + s] = rows
        return result

    k = qk[..., 8:]
    # @rope_append: k * cos + (-k) * sin.
    np.save(os.path.join(out, "rope.npy"), written(k * cos + (-k) * sin))
    # @rotary_append: rotate_half as in transformers' Llama.
    rot = np.concatenate([-k[..., 4:], k[..., :4]], axis=3)
    np.save(os.path.join(out, "rotary.npy"), written(k * cos + rot * sin))
    # @append_fresh: kc = k * cos, kr = kc + k appended, kr * 2, kc.
    kc = k * cos
    kr = kc + k
    np.save(os.path.join(out, "fresh_cache.npy"), written(kr))
    np.save(os.path.join(out, "fresh_k2.npy"), kr * 2)
    np.save(os.path.join(out, "fresh_kc.npy"), kc)
    # @view_read: k + the cache's first S rows (read before the write).
    np.save(os.path.join(out, "view.npy"), written(k + cache[:, :s]))
    # @roll: row (r + 1) mod M = -(old row r).
    np.save(os.path.join(out, "roll.npy"), np.roll(-cache, 1, axis=1))


if __name__ == "__main__":
    main(sys.argv[1], *map(int, sys.argv[2:6]))
