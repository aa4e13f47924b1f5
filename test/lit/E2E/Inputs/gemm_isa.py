"""Inputs and numpy references for gemm-isa-levels.test.

usage: gemm_isa.py OUTDIR M SEED

Writes OUTDIR/in0.npy (x [M, 67]), in1.npy (W [67, 131], ONNX's layout),
in2.npy (V [131, 67], torch's linear layout), out0.npy = x @ W and
out1.npy = x @ V^T, references in float64 cast to f32. 67 and 131 leave
tails for every vector width; M from 1 to 4 takes the streamed kernels,
larger M the GEMM.
"""
import os
import sys

import numpy as np

out, m, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(seed)
x = rng.uniform(-1, 1, (m, 67)).astype(np.float32)
w = rng.uniform(-1, 1, (67, 131)).astype(np.float32)
v = rng.uniform(-1, 1, (131, 67)).astype(np.float32)
for i, a in enumerate([x, w, v]):
    np.save(os.path.join(out, "in%d.npy" % i), a)
x64 = x.astype(np.float64)
np.save(os.path.join(out, "out0.npy"), (x64 @ w.astype(np.float64)).astype(np.float32))
np.save(os.path.join(out, "out1.npy"), (x64 @ v.astype(np.float64).T).astype(np.float32))
