"""Writes the inputs and reference outputs of blas-e2e.mlir as .npy files.

Pure Python (no numpy): float32 inputs are rounded to float32 before the
reference product is computed in double precision.
"""
import os
import random
import struct
import sys


def save(path, shape, data, code):
    descr = "<f4" if code == "f" else "<f8"
    dims = "".join("%d, " % s for s in shape)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, dims)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode())
        f.write(struct.pack("<%d%s" % (len(data), code), *data))


def rand(count, code):
    values = [random.uniform(-1, 1) for _ in range(count)]
    if code == "f":
        values = [struct.unpack("f", struct.pack("f", v))[0] for v in values]
    return values


def main(out):
    os.makedirs(out, exist_ok=True)
    random.seed(0)
    n, k, m, s = 5, 7, 3, 2
    a, b = rand(n * k, "f"), rand(k * m, "f")
    x, w = rand(s * n * k, "d"), rand(m * k, "d")
    c = [sum(a[i * k + p] * b[p * m + j] for p in range(k))
         for i in range(n) for j in range(m)]
    y = [sum(x[(q * n + i) * k + p] * w[j * k + p] for p in range(k))
         for q in range(s) for i in range(n) for j in range(m)]
    save(os.path.join(out, "a.npy"), (n, k), a, "f")
    save(os.path.join(out, "b.npy"), (k, m), b, "f")
    save(os.path.join(out, "x.npy"), (s, n, k), x, "d")
    save(os.path.join(out, "w.npy"), (m, k), w, "d")
    save(os.path.join(out, "c.npy"), (n, m), c, "f")
    save(os.path.join(out, "y.npy"), (s, n, m), y, "d")
    # k = 6 instead of 7: only the library can notice (see blas-e2e.mlir).
    save(os.path.join(out, "b_bad.npy"), (6, m), rand(6 * m, "f"), "f")


if __name__ == "__main__":
    main(sys.argv[1])
