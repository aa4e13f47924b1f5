"""Makes the inputs and numpy reference outputs of an end-to-end test.

usage: ref.py OUTDIR EXPR [EXPR...] -- NAME:DTYPE:SHAPE [NAME:DTYPE:SHAPE...]

Inputs are seeded random arrays (floats in [-1, 1), integers in [0, 10),
booleans) written to OUTDIR/in<i>.npy in order; each EXPR is a numpy
expression over the input names (np, erf and the helpers below are in
scope) whose value is written to OUTDIR/out<i>.npy. SHAPE is a comma list of
ints ("" for a scalar), e.g. x:f32:7,4. DTYPE bf16 (numpy has none): the
input is drawn in f32, rounded to bf16 and written as its uint16 bit pattern
(relax-run reads '<u2' as bf16), its name holds the f32 values; bf16(x) in an
EXPR gives the bit pattern of x rounded to bf16. Options: --seed S, --positive (floats
in [0.1, 2) for log/sqrt), --int-range LO,HI (HI exclusive, up to 2**64 for
ui64).
"""
import math
import os
import sys

import numpy as np

DTYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
          "i1": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32,
          "i64": np.int64, "ui8": np.uint8, "ui16": np.uint16,
          "ui32": np.uint32, "ui64": np.uint64}

erf = np.vectorize(math.erf, otypes=[np.float64])


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def bf16(x):
    """The uint16 bit patterns of x rounded to bfloat16 (to nearest, ties to
    even; x is first rounded to f32), as relax-run reads and writes bf16."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    rounded = bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))
    nan = np.isnan(np.asarray(x, dtype=np.float32))
    out = (rounded >> np.uint32(16)).astype(np.uint16)
    return np.where(nan, np.uint16(0x7FC0), out)


def from_bf16(bits):
    """f32 values of uint16 bf16 bit patterns."""
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def main(argv):
    seed, positive, int_range = 0, False, (0, 10)
    args = []
    it = iter(argv)
    for a in it:
        if a == "--seed":
            seed = int(next(it))
        elif a == "--positive":
            positive = True
        elif a == "--int-range":
            lo, hi = next(it).split(",")
            int_range = (int(lo), int(hi))
        else:
            args.append(a)
    outdir = args[0]
    sep = args.index("--")
    exprs, specs = args[1:sep], args[sep + 1:]
    os.makedirs(outdir, exist_ok=True)
    rng = np.random.default_rng(seed)
    env = {"np": np, "erf": erf, "softmax": softmax, "sigmoid": sigmoid,
           "bf16": bf16}
    for i, spec in enumerate(specs):
        name, dtype, shape = spec.split(":")
        shape = tuple(int(d) for d in shape.split(",") if d)
        if dtype == "bf16":
            bits = bf16(rng.uniform(-1.0, 1.0, size=shape).astype(np.float32))
            env[name] = from_bf16(bits)
            np.save(os.path.join(outdir, "in%d.npy" % i), bits)
            continue
        dt = DTYPES[dtype]
        if dt == np.bool_:
            value = rng.integers(0, 2, size=shape).astype(np.bool_)
        elif np.issubdtype(dt, np.integer) and int_range[1] > 2**63:
            # Beyond int64 (ui64 up to 2^64): draw in the dtype itself.
            value = rng.integers(*int_range, size=shape, dtype=dt)
        elif np.issubdtype(dt, np.integer):
            value = rng.integers(*int_range, size=shape).astype(dt)
        elif positive:
            value = rng.uniform(0.1, 2.0, size=shape).astype(dt)
        else:
            value = rng.uniform(-1.0, 1.0, size=shape).astype(dt)
        env[name] = value
        np.save(os.path.join(outdir, "in%d.npy" % i), value)
    for i, expr in enumerate(exprs):
        # C order: relax-run reads no Fortran-ordered arrays (a transpose or
        # a fancy-indexed result may be one).
        value = np.asarray(eval(expr, env))
        if not value.flags.c_contiguous:
            value = value.copy(order="C")
        # Keep the dtype of the computation's inputs (numpy may widen).
        np.save(os.path.join(outdir, "out%d.npy" % i), value)


if __name__ == "__main__":
    main(sys.argv[1:])


# --- NN references (attention, convolutions, pooling, resize) -------------
# main() evaluates EXPRs in a fixed namespace, so reach these through the
# module: "__import__('ref').attention_ref(q, k, v, causal=True)".
# Computed in float64, returned in the dtype of the first input.

def _pair(v, default):
    if v is None:
        return (default, default)
    v = tuple(v) if isinstance(v, (list, tuple)) else (v,)
    return (v[0], v[0]) if len(v) == 1 else (v[0], v[1])


def _pads(p):
    """padding as (top, left, bottom, right) from 1, 2 or 4 values."""
    if p is None:
        return (0, 0, 0, 0)
    p = tuple(p) if isinstance(p, (list, tuple)) else (p,)
    if len(p) == 1:
        return (p[0],) * 4
    if len(p) == 2:
        return (p[0], p[1], p[0], p[1])
    return tuple(p)


def attention_ref(q, k, v, mask=None, scale=None, causal=False):
    """relax.attention, BSNH: q [b, s, hq, d], k [b, skv, hkv, d],
    v [b, skv, hkv, dv] -> [b, s, hq, dv]; query head h reads kv head
    h // (hq // hkv); causal is bottom-right aligned (key j visible from
    query i when j <= i + skv - s); a boolean mask keeps True positions, a
    float mask is added. Masked scores get float32's lowest finite value."""
    b, s, hq, d = q.shape
    skv, hkv = k.shape[1], k.shape[2]
    g = hq // hkv
    qt = q.astype(np.float64).transpose(0, 2, 1, 3)
    kt = np.repeat(k.astype(np.float64), g, axis=2).transpose(0, 2, 1, 3)
    vt = np.repeat(v.astype(np.float64), g, axis=2).transpose(0, 2, 1, 3)
    if scale is None:
        scale = 1.0 / math.sqrt(d)
    sc = (qt @ kt.transpose(0, 1, 3, 2)) * scale
    lowest = float(np.finfo(np.float32).min)
    if mask is not None:
        if mask.dtype == np.bool_:
            sc = np.where(mask, sc, lowest)
        else:
            sc = sc + mask.astype(np.float64)
    if causal:
        i = np.arange(s)[:, None]
        j = np.arange(skv)[None, :]
        sc = np.where(j <= i + skv - s, sc, lowest)
    out = softmax(sc, axis=-1) @ vt
    return out.transpose(0, 2, 1, 3).astype(q.dtype)


def conv2d_ref(x, w, strides=None, padding=None, dilation=None, groups=1):
    """relax.conv2d, NCHW data and OIHW weight."""
    n, c, h, wd = x.shape
    o, cpg, kh, kw = w.shape
    sh, sw = _pair(strides, 1)
    dh, dw = _pair(dilation, 1)
    pt, pl, pb, pr = _pads(padding)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pt, pb), (pl, pr)))
    oh = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    ow = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    out = np.zeros((n, o, oh, ow))
    opg = o // groups
    wf = w.astype(np.float64)
    for g in range(groups):
        for ry in range(kh):
            for rx in range(kw):
                patch = xp[:, g * cpg:(g + 1) * cpg,
                           ry * dh:ry * dh + sh * (oh - 1) + 1:sh,
                           rx * dw:rx * dw + sw * (ow - 1) + 1:sw]
                out[:, g * opg:(g + 1) * opg] += np.einsum(
                    "nchw,oc->nohw", patch, wf[g * opg:(g + 1) * opg, :, ry, rx])
    return out.astype(x.dtype)


def pool2d_ref(x, pool_size, strides=None, padding=None, dilation=None,
               ceil_mode=False, kind="max"):
    """relax.max_pool2d / avg_pool2d, NCHW. Padding never contributes: max
    ignores it, avg divides by the number of window positions inside the
    input (count_include_pad = false)."""
    n, c, h, w = x.shape
    kh, kw = _pair(pool_size, 1)
    sh, sw = _pair(strides, 1)
    dh, dw = _pair(dilation, 1)
    pt, pl, pb, pr = _pads(padding)
    div = (lambda a, b: -(-a // b)) if ceil_mode else (lambda a, b: a // b)
    oh = div(h + pt + pb - dh * (kh - 1) - 1, sh) + 1
    ow = div(w + pl + pr - dw * (kw - 1) - 1, sw) + 1
    # NaN marks positions outside the input (padding and ceil_mode overhang).
    need_h = sh * (oh - 1) + dh * (kh - 1) + 1
    need_w = sw * (ow - 1) + dw * (kw - 1) + 1
    xp = np.full((n, c, max(need_h, h + pt), max(need_w, w + pl)), np.nan)
    xp[:, :, pt:pt + h, pl:pl + w] = x
    wins = np.stack([xp[:, :, ry * dh:ry * dh + sh * (oh - 1) + 1:sh,
                        rx * dw:rx * dw + sw * (ow - 1) + 1:sw]
                     for ry in range(kh) for rx in range(kw)])
    if kind == "max":
        out = np.nanmax(wins, axis=0)
    else:
        cnt = np.maximum(np.sum(~np.isnan(wins), axis=0), 1)
        out = np.nansum(wins, axis=0) / cnt
    return out.astype(x.dtype)


def adaptive_avg_pool2d_ref(x, output_size=None):
    """relax.adaptive_avg_pool2d: output row y averages input rows
    [floor(y h / oh), ceil((y + 1) h / oh)); no output_size keeps h, w."""
    n, c, h, w = x.shape
    oh, ow = _pair(output_size, None) if output_size is not None else (h, w)
    out = np.zeros((n, c, oh, ow))
    xf = x.astype(np.float64)
    for y in range(oh):
        h0, h1 = (y * h) // oh, -(-((y + 1) * h) // oh)
        for z in range(ow):
            w0, w1 = (z * w) // ow, -(-((z + 1) * w) // ow)
            out[:, :, y, z] = xf[:, :, h0:h1, w0:w1].mean(axis=(2, 3))
    return out.astype(x.dtype)


# --- Index references (gather_nd, scatter_nd) ------------------------------
# Reached like the NN references: "__import__('ref').scatter_nd_ref(...)".

def gather_nd_ref(data, indices, batch_dims=0):
    """relax.gather_nd / ONNX GatherND: each index tuple (the last dim of
    indices) picks a slice of data after `batch_dims` shared batch dims;
    negative indices count from the end."""
    b, q = batch_dims, indices.shape[-1]
    out = np.empty(indices.shape[:-1] + data.shape[b + q:], data.dtype)
    for pos in np.ndindex(*indices.shape[:-1]):
        out[pos] = data[pos[:b] + tuple(int(v) for v in indices[pos])]
    return out


def scatter_nd_ref(data, indices, updates, reduction="none"):
    """relax.scatter_nd / ONNX ScatterND: a copy of data combined with the
    updates one index tuple after the other (row-major), so the last of
    duplicate indices wins with reduction none (onnxruntime's order)."""
    combine = {"none": lambda old, u: u, "add": np.add, "mul": np.multiply,
               "max": np.maximum, "min": np.minimum}[reduction]
    out = data.copy()
    for pos in np.ndindex(*indices.shape[:-1]):
        idx = tuple(int(v) for v in indices[pos])
        out[idx] = combine(out[idx], updates[pos])
    return out


def conv2d_transpose_ref(x, w, strides=None, padding=None, output_padding=None,
                         dilation=None, groups=1):
    """relax.conv2d_transpose (ONNX ConvTranspose), NCHW data and
    [c, o / groups, kh, kw] weight, in scatter form: every input pixel adds
    its kernel-weighted window to the full output, which is then cropped by
    the padding (output_padding extends it at the bottom and right)."""
    n, c, h, wd = x.shape
    _, opg, kh, kw = w.shape
    sh, sw = _pair(strides, 1)
    dh, dw = _pair(dilation, 1)
    oph, opw = _pair(output_padding, 0)
    pt, pl, pb, pr = _pads(padding)
    full_h = (h - 1) * sh + dh * (kh - 1) + 1 + oph
    full_w = (wd - 1) * sw + dw * (kw - 1) + 1 + opw
    full = np.zeros((n, opg * groups, full_h, full_w))
    cpg = c // groups
    xf, wf = x.astype(np.float64), w.astype(np.float64)
    for g in range(groups):
        xs = xf[:, g * cpg:(g + 1) * cpg]
        for ry in range(kh):
            for rx in range(kw):
                full[:, g * opg:(g + 1) * opg,
                     ry * dh:ry * dh + sh * (h - 1) + 1:sh,
                     rx * dw:rx * dw + sw * (wd - 1) + 1:sw] += np.einsum(
                    "nchw,co->nohw", xs, wf[g * cpg:(g + 1) * cpg, :, ry, rx])
    return full[:, :, pt:full_h - pb, pl:full_w - pr].astype(x.dtype)


def resize2d_ref(x, size, method="nearest", mode="half_pixel",
                 nearest_mode="round_prefer_floor", scales=None):
    """relax.resize2d (ONNX Resize on the last two dims of NCHW), from the
    formulas of the ONNX operator documentation, in float64. Neighbour
    indices are clamped to the input (ONNX's edge padding)."""
    h, w = x.shape[2], x.shape[3]

    def coords(out, size_in, scale):
        o = np.arange(out, dtype=np.float64)
        if mode == "align_corners":
            if out <= 1:
                return np.zeros(out)
            return o * (size_in - 1) / (out - 1)
        unscale = (lambda v: v / scale) if scale else (
            lambda v: v * size_in / out)
        if mode == "asymmetric":
            return unscale(o)
        if mode == "pytorch_half_pixel" and out <= 1:
            return np.zeros(out)
        return unscale(o + 0.5) - 0.5

    cy = coords(size[0], h, scales[0] if scales else None)
    cx = coords(size[1], w, scales[1] if scales else None)
    if method == "nearest":
        rnd = {"round_prefer_floor": lambda v: np.ceil(v - 0.5),
               "round_prefer_ceil": lambda v: np.floor(v + 0.5),
               "floor": np.floor, "ceil": np.ceil}[nearest_mode]
        iy = np.clip(rnd(cy).astype(np.int64), 0, h - 1)
        ix = np.clip(rnd(cx).astype(np.int64), 0, w - 1)
        return x[:, :, iy[:, None], ix[None, :]]
    y0, x0 = np.floor(cy), np.floor(cx)
    fy, fx = (cy - y0)[:, None], (cx - x0)[None, :]
    y0, x0 = y0.astype(np.int64), x0.astype(np.int64)
    ya, yb = np.clip(y0, 0, h - 1), np.clip(y0 + 1, 0, h - 1)
    xa, xb = np.clip(x0, 0, w - 1), np.clip(x0 + 1, 0, w - 1)
    xf = x.astype(np.float64)

    def at(iy, ix):
        return xf[:, :, iy[:, None], ix[None, :]]

    top = at(ya, xa) * (1 - fx) + at(ya, xb) * fx
    bottom = at(yb, xa) * (1 - fx) + at(yb, xb) * fx
    return (top * (1 - fy) + bottom * fy).astype(x.dtype)
