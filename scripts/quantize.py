"""Group quantization of weight matrices, the layout of docs/quantization.md.

The reference the compiler, llama-generate (--quantize) and the tests are
checked against. W [n, k] (a linear layer's [out, in]) is cut into groups
of `group` consecutive elements along k; each group has one scale d and the
stored integers q decode to (q - zero) * d. The arithmetic is llama.cpp's
(ggml-quants.c, quantize_row_q8_0_ref / quantize_row_q4_0_ref) in float32,
so at group 32 with f16 scales the integers and scales are those of GGUF
Q8_0 / Q4_0, byte for byte once repacked (to_gguf_blocks below):

  Q8 (symmetric, int8):   d = absmax / 127; q = roundf(x * (1 / d))
  Q4 (symmetric, zero 8): m = the element of largest magnitude (signed,
                          the first one on ties), d = m / -8;
                          q = min(15, (int8)(x * (1 / d) + 8.5))
  Q4 with zero points:    lo = min(min(x), 0), hi = max(max(x), 0),
                          d = (hi - lo) / 15, z = min(15, roundf(-lo / d)),
                          q = clamp(roundf(x * (1 / d)) + z, 0, 15)

1 / d is 0 when d is 0 (an all-zero group). roundf rounds half away from
zero; (int8) truncates toward zero. The scale is computed in float32 and
stored in the scales' dtype (f16 rounds to nearest even); q is computed
from the float32 d, as llama.cpp does. 4-bit values are packed two a byte
along k: element 2i in the low nibble of byte i, 2i + 1 in the high one.
"""
import numpy as np

F32 = np.float32


def _groups(w, group):
    n, k = w.shape
    if group <= 0 or k % group != 0:
        raise ValueError("group %d does not divide k = %d" % (group, k))
    return w.astype(F32).reshape(n, k // group, group)


def _roundf(v):
    """C roundf on float32 values: half away from zero (exact in float64)."""
    v = v.astype(np.float64)
    return (np.sign(v) * np.floor(np.abs(v) + 0.5)).astype(F32)


def _inverse(d):
    with np.errstate(divide="ignore"):
        return np.where(d != 0, F32(1) / np.where(d != 0, d, F32(1)),
                        F32(0)).astype(F32)


def pack4(q):
    """[n, k] values 0..15 -> [n, k / 2] uint8, element 2i in the low nibble."""
    q = q.astype(np.uint8)
    return (q[:, 0::2] | (q[:, 1::2] << 4)).astype(np.uint8)


def unpack4(p):
    out = np.empty((p.shape[0], p.shape[1] * 2), dtype=np.uint8)
    out[:, 0::2] = p & 15
    out[:, 1::2] = p >> 4
    return out


def quantize_q8(w, group, scale_dtype=np.float16):
    """(q int8 [n, k], scales [n, k / group] of scale_dtype)."""
    g = _groups(w, group)
    amax = np.abs(g).max(axis=2, keepdims=True)
    d = (amax / F32(127)).astype(F32)
    q = _roundf(g * _inverse(d)).astype(np.int8)
    return q.reshape(w.shape), d[..., 0].astype(scale_dtype)


def quantize_q4(w, group, scale_dtype=np.float16):
    """(packed q uint8 [n, k / 2], scales [n, k / group]); zero 8."""
    g = _groups(w, group)
    first = np.argmax(np.abs(g), axis=2)[..., None]  # first of the largest
    m = np.take_along_axis(g, first, axis=2)
    d = (m / F32(-8)).astype(F32)
    v = (g * _inverse(d) + F32(8.5)).astype(F32)
    q = np.minimum(15, np.trunc(v).astype(np.int8))
    return pack4(q.reshape(w.shape)), d[..., 0].astype(scale_dtype)


def quantize_q4_zero_points(w, group, scale_dtype=np.float16):
    """(packed q [n, k / 2], scales [n, k / group], zeros uint8 [n, k / group])."""
    g = _groups(w, group)
    lo = np.minimum(g.min(axis=2, keepdims=True), F32(0))
    hi = np.maximum(g.max(axis=2, keepdims=True), F32(0))
    d = ((hi - lo) / F32(15)).astype(F32)
    inv = _inverse(d)
    z = np.minimum(F32(15), _roundf(-lo * inv))
    q = np.clip(_roundf(g * inv) + z, 0, 15).astype(np.uint8)
    return (pack4(q.reshape(w.shape)), d[..., 0].astype(scale_dtype),
            z[..., 0].astype(np.uint8))


def dequantize(q, scales, bits, group, zeros=None):
    """W [n, k] float32, exactly: (q - zero) * scale in float64, one rounding."""
    q = q.astype(np.int64) if bits == 8 else unpack4(q).astype(np.int64)
    zero = 8 if bits == 4 and zeros is None else 0
    if zeros is not None:
        zero = np.repeat(zeros.astype(np.int64), group, axis=1)
    s = np.repeat(scales.astype(np.float64), group, axis=1)
    return ((q - zero) * s).astype(F32)


def quantize_activations(x):
    """X's rows as the runtime's int8-activation products see them.

    QuantActivations::Int8 (lib/Runtime/CpuQuantGemv.h): each block of 32
    consecutive elements of the last axis gets d = absmax / 127 and
    q = x * (127 / absmax) rounded to nearest even, in float32 (float64
    where 127 / absmax overflows float32), clamped to [-127, 127]; an
    all-zero block has d = 0. Returns q * d as float64, the X the products
    multiply (without their f32 rounding of the sums).
    """
    x = np.asarray(x, dtype=F32)
    blocks = x.reshape(x.shape[:-1] + (x.shape[-1] // 32, 32))
    amax = np.abs(blocks).max(axis=-1, keepdims=True)
    d = (amax / F32(127)).astype(F32)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        inverse = np.where(amax > 0, F32(127) / amax, F32(0)).astype(F32)
        wide = np.where(amax > 0, 127.0 / amax.astype(np.float64), 0.0)
    scaled = np.where(np.isfinite(inverse), (blocks * inverse).astype(F32),
                      blocks.astype(np.float64) * wide)
    q = np.clip(np.rint(scaled), -127, 127)
    return (q * d.astype(np.float64)).reshape(x.shape)


def to_gguf_blocks(q, scales, bits):
    """The GGUF Q8_0 / Q4_0 bytes of a group-32 weight with f16 scales: per
    block of 32, the f16 d, then 32 int8 (Q8_0) or 16 bytes with element j
    in the low nibble of byte j and element j + 16 in the high one (Q4_0)."""
    n = q.shape[0]
    d = scales.astype(np.float16).reshape(n, -1, 1).view(np.uint8)
    if bits == 8:
        body = q.astype(np.int8).reshape(n, -1, 32).view(np.uint8)
    else:
        v = unpack4(q).reshape(n, -1, 32)
        body = (v[..., :16] | (v[..., 16:] << 4)).astype(np.uint8)
    return np.concatenate([d, body], axis=2).reshape(n, -1)


TILE_ROWS, TILE_COLS = 8, 128  # QuantTiles.h's kRows and kCols


def to_tiles(q, scales, bits):
    """The tiled layout of include/RelaxDialect/Runtime/QuantTiles.h (the
    numpy twin of quant_tiles::pack) of a group-32 weight W [n, k] with f16
    scales and no zero points: q int8 [n, k] (8 bits) or packed uint8
    [n, k / 2] (4 bits), scales [n, k / 32]. Returns uint8
    [n / 8, k / 128, 1088 or 576]: per tile of 8 rows x 128 elements, the
    32 f16 scales (group g of row r at byte 2 * (g * 8 + r)), then row r's
    group g for g < 4, r < 8 as the plain layout stores it."""
    n = q.shape[0]
    k = q.shape[1] * (8 // bits)
    if bits not in (4, 8):
        raise ValueError("tiles hold 4-bit or 8-bit weights, not %d" % bits)
    if n % TILE_ROWS or k % TILE_COLS:
        raise ValueError("tiles need n %% 8 == 0 and k %% 128 == 0, got "
                         "[%d, %d]" % (n, k))
    if scales.shape != (n, k // 32):
        raise ValueError("scales %s are not [n, k / 32] = [%d, %d]" %
                         (scales.shape, n, k // 32))
    nb, kb, chunk = n // TILE_ROWS, k // TILE_COLS, 32 * bits // 8
    # [nb, r, kb, g] -> [nb, kb, g, r]: the scales' order in a tile.
    s = scales.astype(np.float16).reshape(nb, TILE_ROWS, kb, 4)
    s = np.ascontiguousarray(s.transpose(0, 2, 3, 1)).reshape(nb, kb, 32)
    s = s.view(np.uint8)
    # Row r's group g: [nb, r, kb, g, chunk] -> [nb, kb, g, r, chunk].
    body = q.view(np.uint8).reshape(nb, TILE_ROWS, kb, 4, chunk)
    body = body.transpose(0, 2, 3, 1, 4).reshape(nb, kb, 32 * chunk)
    return np.ascontiguousarray(np.concatenate([s, body], axis=2))
