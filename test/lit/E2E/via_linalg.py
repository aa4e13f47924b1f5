#!/usr/bin/env python3
"""Runs the numerical E2E tests again through the linalg route.

For every test/lit/E2E/X.mlir that runs relax-run (minus EXCLUDED), this
replays the RUN lines of its leading comment block with each relax-run
invocation given `--via-linalg --dispatch-library=false`: affine tir nests
go through convert-tir-to-linalg and upstream's linalg lowering, and the
contractions the default CPU pipeline hands to the BLAS go through
linalg.matmul / batch_matmul / generic instead. The lines keep their
references and tolerances, which the direct route meets, so each test
passes only if both routes give the same numbers. Lines are run by bash
with the lit substitutions the E2E tests use (%s, %S, %t, %python,
%examples, %llvm_tools), and the tests in parallel.

Prints one line per test ("X: ok" or the failing output) and a summary;
exits 1 if any test fails. Standard library only.
"""

import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

# E2E tests that are not replayed, with the reason.
EXCLUDED = {
    "relax-run-compare": "relax-run's comparison rules, host code only",
    "relax-run-errors": "relax-run's command-line and input errors",
    "relax-run-nan-report": "relax-run's mismatch report, host code only",
    "shape-checks": "host shape-check messages, before any kernel",
    "int-dtypes-io": "relax-run's .npy I/O and an expected mismatch",
    "shape-contracts": "host shape contracts; RUN lines beside each program",
    "size-arithmetic": "host size arithmetic; RUN lines beside each program",
    "vectorize-avx512": "checks the direct route's x86 vector code",
}

RUN_RE = re.compile(r"^// RUN: (.*)$")


def run_lines(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.startswith("//"):
                break
            m = RUN_RE.match(line.rstrip("\n"))
            if m:
                lines.append(m.group(1))
    return lines


# --gpu-emulate: the GPU pipeline's linalg route up to its loops, run on the
# CPU. Nests stay tir only where --relax-lower-to-gpu=via-linalg=true keeps
# them; the GPU schedule binds those and --tir-test-gpu-as-serial
# serialises its thread loops; the linalg ops become the collapsed, tiled
# loops with their block/thread mapping (relax-map-parallel-loops-to-gpu),
# which the CPU runs as parallel loops. Only the last upstream step
# (convert-parallel-loops-to-gpu) and the kernels' code generation are not
# run; ptxas-via-linalg-*.test check those.
GPU_EMULATION = ("relax-opt --relax-fuse-attention --relax-legalize-ops "
                 "--relax-annotate-op-pattern "
                 "--convert-tir-to-linalg=need-parallel-loop=true "
                 "--tir-gpu-default-schedule --tir-test-gpu-as-serial "
                 "--convert-tir-to-scf --convert-linalg-to-parallel-loops "
                 "--relax-map-parallel-loops-to-gpu")


def emulate(cmd, tmp, prepared):
    """Runs the emulated program of each relax-run in `cmd`: a command that
    writes it (once per source and fusion) goes before the line."""
    prefix = []

    def repl(m):
        fused, src = m.group(1) is not None, m.group(2)
        out = os.path.join(os.path.dirname(tmp), "%s.%s%s.emu.mlir" % (
            os.path.basename(tmp), os.path.basename(src),
            ".fused" if fused else ""))
        if out not in prepared:
            prepared.add(out)
            fuse = "--relax-fuse-ops " if fused else ""
            prefix.append(f"relax-opt {fuse}{src} | "
                          f"{GPU_EMULATION} -o {out}")
        return f"relax-run {out}"

    cmd = re.sub(r"\brelax-run (--fuse )?(\S+\.mlir)\b", repl, cmd)
    # A relax-run this did not recognise would run the direct route.
    if re.search(r"\brelax-run (?!\S+\.emu\.mlir\b)", cmd):
        raise SystemExit(f"cannot emulate: {cmd}")
    return " && ".join(prefix + [cmd]) if prefix else cmd


def substitute(cmd, path, tmp, args, prepared):
    subs = {
        "python": args.python,
        "examples": args.examples,
        "llvm_tools": args.llvm_tools,
        "S": os.path.dirname(path),
        "s": path,
        "t": tmp,
        "%": "%",  # lit's escape of a literal %.
    }
    cmd = re.sub(r"%(%|python|examples|llvm_tools|S|s|t\b)",
                 lambda m: subs[m.group(1)], cmd)
    # Every relax-run goes through the linalg route with compiled
    # contractions (a --dispatch-library already there would be given twice).
    cmd = re.sub(r"\s--dispatch-library=\S+", "", cmd)
    if args.gpu_emulate:
        return emulate(cmd, tmp, prepared)
    return re.sub(r"\brelax-run\b",
                  "relax-run --via-linalg --dispatch-library=false", cmd)


def run_test(path, args):
    name = os.path.splitext(os.path.basename(path))[0]
    tmp = os.path.join(args.tmp, name + ".tmp")
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([args.tools, args.llvm_tools, env["PATH"]])
    prepared = set()
    for cmd in run_lines(path):
        full = substitute(cmd, path, tmp, args, prepared)
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", full], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              cwd=args.tmp)
        if proc.returncode != 0:
            out = proc.stdout.decode(errors="replace")[-4000:]
            return name, False, f"{name}: FAILED\n$ {full}\n{out}"
    return name, True, f"{name}: ok"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--e2e", required=True, help="test/lit/E2E")
    parser.add_argument("--tools", required=True, help="relax tools dir")
    parser.add_argument("--llvm-tools", required=True, help="FileCheck dir")
    parser.add_argument("--examples", required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--tmp", required=True, help="scratch dir")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="regex of test names")
    parser.add_argument("--gpu-emulate", action="store_true",
                        help="run the GPU linalg route's loops on the CPU")
    args = parser.parse_args()
    for key in ("e2e", "tools", "llvm_tools", "examples", "tmp"):
        setattr(args, key, os.path.abspath(getattr(args, key)))
    os.makedirs(args.tmp, exist_ok=True)
    tests = []
    for f in sorted(os.listdir(args.e2e)):
        name, ext = os.path.splitext(f)
        if ext != ".mlir" or name in EXCLUDED:
            continue
        if args.only and not re.search(args.only, name):
            continue
        path = os.path.join(args.e2e, f)
        if any("relax-run" in l for l in run_lines(path)):
            tests.append(path)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, ok, report in pool.map(lambda p: run_test(p, args), tests):
            print(report, flush=True)
            failed += not ok
    route = "via-linalg (GPU emulated)" if args.gpu_emulate else "via-linalg"
    print(f"{route}: {len(tests) - failed} of {len(tests)} E2E tests "
          "match their references")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
