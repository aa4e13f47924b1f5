"""Makes the inputs and numpy reference outputs of an end-to-end test.

usage: ref.py OUTDIR EXPR [EXPR...] -- NAME:DTYPE:SHAPE [NAME:DTYPE:SHAPE...]

Inputs are seeded random arrays (floats in [-1, 1), integers in [0, 10),
booleans) written to OUTDIR/in<i>.npy in order; each EXPR is a numpy
expression over the input names (np, erf and the helpers below are in
scope) whose value is written to OUTDIR/out<i>.npy. SHAPE is a comma list of
ints ("" for a scalar), e.g. x:f32:7,4. Options: --seed S, --positive (floats
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
    env = {"np": np, "erf": erf, "softmax": softmax, "sigmoid": sigmoid}
    for i, spec in enumerate(specs):
        name, dtype, shape = spec.split(":")
        shape = tuple(int(d) for d in shape.split(",") if d)
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
        value = np.asarray(eval(expr, env))
        # Keep the dtype of the computation's inputs (numpy may widen).
        np.save(os.path.join(outdir, "out%d.npy" % i), value)


if __name__ == "__main__":
    main(sys.argv[1:])


# --- NN references (attention, conv2d, pooling) ---------------------------
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
