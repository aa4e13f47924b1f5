"""Reference outputs of TOSA models through upstream's TOSA -> linalg path.

The TOSA E2E tests run one TOSA function two ways: converted to relax
(relax-run converts TOSA modules with --convert-tosa-to-relax) and lowered
by upstream MLIR alone (PIPELINE below: tosa-to-linalg, bufferization,
loops, LLVM; then mlir-runner). This script is the glue for the second way;
it computes nothing itself.

  tosa_ref.py reference MODEL.mlir OUTDIR --func F --shape 3x16 [--shape ...]
                        [--seed S] [--int-high K] --llvm-tools DIR
      Writes seeded inputs of the given static shapes (floats uniform in
      [-1, 1), integers in [0, K)) to OUTDIR/in<i>.npy and OUTDIR/driver.mlir,
      a @main that builds them as constants (exact bits), casts them to F's
      argument types (with their `?` dims), calls F and prints every result
      as its raw bits (i32 via arith.bitcast, printMemrefI32), so no digits
      are lost in printing. Runs MODEL + driver through DIR/mlir-opt
      (PIPELINE) and DIR/mlir-runner, and turns what it printed into
      OUTDIR/ref<i>.npy and OUTDIR/args (`--input OUTDIR/in0.npy ...
      --expect OUTDIR/ref0.npy ...` for relax-run).
"""
import argparse
import os
import re
import subprocess
import sys

import numpy as np

# Upstream's own lowering of TOSA, nothing of this project's.
PIPELINE = ("builtin.module("
            "func.func(tosa-optional-decompositions,tosa-to-linalg-named,"
            "tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,"
            "one-shot-bufferize{bufferize-function-boundaries "
            "function-boundary-type-conversion=identity-layout-map},"
            "buffer-deallocation-pipeline,convert-linalg-to-loops,"
            "expand-strided-metadata,lower-affine,convert-scf-to-cf,"
            "convert-math-to-llvm,convert-math-to-libm,convert-to-llvm,"
            "reconcile-unrealized-casts)")

DTYPES = {"f32": np.float32, "i32": np.int32, "i64": np.int64}
# The integer type whose bits a result's elements are printed as.
BITS = {"f32": "i32", "i32": "i32"}


def split_top(s):
    """Splits a comma-separated list at depth 0 of <>, (), []."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_tensor_type(t):
    m = re.fullmatch(r"tensor<((?:[0-9?]+x)*)(\w+)>", t.strip())
    if not m:
        sys.exit("tosa_ref.py: not a ranked tensor type: " + t)
    dims = [d for d in m.group(1).split("x") if d]
    return dims, m.group(2)


def signature(text, name):
    m = re.search(r"func\.func\s+@" + re.escape(name) + r"\s*\(", text)
    if not m:
        sys.exit("tosa_ref.py: no func.func @%s" % name)
    i, depth = m.end(), 1
    start = i
    while depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    args = [a.split(":", 1)[1] for a in split_top(text[start:i - 1])]
    rest = text[i:]
    m = re.match(r"\s*->\s*(\((.*?)\)|tensor<[^>]*>)", rest, re.S)
    results = split_top(m.group(2)) if m.group(2) else [m.group(1)]
    return [a.strip() for a in args], [r.strip() for r in results]


def ident_maps(rank):
    ds = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (ds, ds)


def driver(args):
    text = open(args.model).read()
    arg_types, res_types = signature(text, args.func)
    if len(args.shape) != len(arg_types):
        sys.exit("tosa_ref.py: %d --shape for %d arguments" %
                 (len(args.shape), len(arg_types)))
    os.makedirs(args.outdir, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    lines = ["func.func private @printMemrefI32(tensor<*xi32>)",
             "func.func @main() {"]
    operands = []
    for i, (t, shape) in enumerate(zip(arg_types, args.shape)):
        dims, et = parse_tensor_type(t)
        sizes = [int(s) for s in shape.split("x")] if shape else []
        if len(sizes) != len(dims) or any(
                d != "?" and int(d) != s for d, s in zip(dims, sizes)):
            sys.exit("tosa_ref.py: shape %s does not fit %s" % (shape, t))
        if et.startswith("f"):
            a = rng.uniform(-1, 1, size=sizes).astype(DTYPES[et])
        else:
            a = rng.integers(0, args.int_high, size=sizes).astype(DTYPES[et])
        np.save(os.path.join(args.outdir, "in%d.npy" % i), a)
        static = "tensor<%s%s>" % ("".join("%dx" % s for s in sizes), et)
        lines.append('  %%c%d = arith.constant dense<"0x%s"> : %s' %
                     (i, a.tobytes().hex().upper(), static))
        lines.append("  %%a%d = tensor.cast %%c%d : %s to %s" %
                     (i, i, static, t))
        operands.append("%%a%d" % i)
    lines.append("  %%r:%d = call @%s(%s) : (%s) -> (%s)" %
                 (len(res_types), args.func, ", ".join(operands),
                  ", ".join(arg_types), ", ".join(res_types)))
    for k, t in enumerate(res_types):
        dims, et = parse_tensor_type(t)
        bt = BITS[et]
        ity = t.replace(et + ">", bt + ">")
        dyn = []
        for j, d in enumerate(dims):
            if d == "?":
                lines.append("  %%i%d_%d = arith.constant %d : index" % (k, j, j))
                lines.append("  %%d%d_%d = tensor.dim %%r#%d, %%i%d_%d : %s" %
                             (k, j, k, k, j, t))
                dyn.append("%%d%d_%d" % (k, j))
        lines.append("  %%e%d = tensor.empty(%s) : %s" % (k, ", ".join(dyn), ity))
        m = ident_maps(len(dims))
        lines.append(
            "  %%b%d = linalg.generic {indexing_maps = [%s, %s], "
            "iterator_types = [%s]} ins(%%r#%d : %s) outs(%%e%d : %s) {" %
            (k, m, m, ", ".join(['"parallel"'] * len(dims)), k, t, k, ity))
        lines.append("  ^bb0(%%in: %s, %%out: %s):" % (et, bt))
        if et == bt:
            lines.append("    linalg.yield %%in : %s" % bt)
        else:
            lines.append("    %%v = arith.bitcast %%in : %s to %s" % (et, bt))
            lines.append("    linalg.yield %%v : %s" % bt)
        lines.append("  } -> %s" % ity)
        lines.append("  %%u%d = tensor.cast %%b%d : %s to tensor<*x%s>" %
                     (k, k, ity, bt))
        lines.append("  call @printMemrefI32(%%u%d) : (tensor<*x%s>) -> ()" %
                     (k, bt))
    lines += ["  return", "}"]
    with open(os.path.join(args.outdir, "driver.mlir"), "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(args.outdir, "types"), "w") as f:
        f.write(" ".join(parse_tensor_type(t)[1] for t in res_types))


def run_upstream(args):
    """MODEL + driver through upstream mlir-opt and mlir-runner; returns what
    the driver printed."""
    tools = args.llvm_tools
    libs = os.path.join(os.path.dirname(tools), "lib")
    module = open(args.model).read() + "\n" + open(
        os.path.join(args.outdir, "driver.mlir")).read()
    lowered = subprocess.run(
        [os.path.join(tools, "mlir-opt"), "--pass-pipeline=" + PIPELINE],
        input=module.encode(), stdout=subprocess.PIPE)
    if lowered.returncode != 0:
        sys.exit("tosa_ref.py: upstream mlir-opt failed")
    run = subprocess.run(
        [os.path.join(tools, "mlir-runner"), "-e", "main",
         "-entry-point-result=void", "-shared-libs=" + ",".join(
             os.path.join(libs, l) for l in
             ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))],
        input=lowered.stdout, stdout=subprocess.PIPE)
    if run.returncode != 0:
        sys.exit("tosa_ref.py: mlir-runner failed")
    return run.stdout.decode()


def parse(args, text):
    types = open(os.path.join(args.outdir, "types")).read().split()
    blocks = re.findall(r"sizes = \[([0-9, ]*)\].*?data =\s*(.*?)(?=Unranked|\Z)",
                        text, re.S)
    if len(blocks) != len(types):
        sys.exit("tosa_ref.py: %d printed results, %d expected" %
                 (len(blocks), len(types)))
    flags = []
    for i in range(len([f for f in os.listdir(args.outdir)
                        if re.fullmatch(r"in\d+\.npy", f)])):
        flags += ["--input", os.path.join(args.outdir, "in%d.npy" % i)]
    for k, ((sizes, data), et) in enumerate(zip(blocks, types)):
        shape = [int(s) for s in sizes.split(",") if s.strip()]
        bits = np.array([int(v) for v in re.findall(r"-?\d+", data)],
                        dtype=np.int32).reshape(shape)
        ref = bits.view(DTYPES[et]) if et != BITS[et] else bits
        path = os.path.join(args.outdir, "ref%d.npy" % k)
        np.save(path, ref)
        flags += ["--expect", path]
    with open(os.path.join(args.outdir, "args"), "w") as f:
        f.write(" ".join(flags) + "\n")


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("reference")
    d.add_argument("model")
    d.add_argument("outdir")
    d.add_argument("--func", required=True)
    d.add_argument("--shape", action="append", default=[])
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--int-high", type=int, default=2)
    d.add_argument("--llvm-tools", required=True,
                   help="directory of upstream mlir-opt and mlir-runner")
    args = p.parse_args()
    driver(args)
    text = run_upstream(args)
    with open(os.path.join(args.outdir, "out.txt"), "w") as f:
        f.write(text)
    parse(args, text)


if __name__ == "__main__":
    main()
