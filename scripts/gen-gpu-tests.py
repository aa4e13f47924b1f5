#!/usr/bin/env python3
"""Generates the GPU copies of the numerical end-to-end tests.

For every test/lit/E2E/X.mlir that runs relax-run (minus EXCLUDED below) this
writes two lit tests under test/lit/GPU from X.mlir's RUN lines:

  emulate-X.test  the program through the GPU default schedule
                  (relax-opt --relax-legalize-ops --relax-annotate-op-pattern
                  --tir-gpu-default-schedule --tir-test-gpu-as-serial), thread
                  loops serialised, run on the CPU by relax-run against the same
                  references and tolerances;
  run-X.test      relax-run --device cuda on the same inputs (REQUIRES:
                  cuda-gpu, so UNSUPPORTED without a GPU and driver).

Both keep X.mlir's description, RUN lines (paths rewritten to reach E2E/) and
CHECK lines. `relax-run --dispatch-library=...` lines (a choice of the CPU
pipeline) are dropped, and `relax-run --fuse` lines (emulate-fused.test covers
fused programs under the GPU schedule), except in the run-X.test of the tests
in RUN_FUSED_ON_GPU. Output is a pure function of the E2E files.

  scripts/gen-gpu-tests.py            write the files that differ
  scripts/gen-gpu-tests.py --check    write nothing; print each missing or
                                      stale file and exit 1 if there is one

test/lit/GPU/gpu-tests-up-to-date.test runs --check, so an E2E test without
its GPU copies (or with stale ones) fails the suite. Standard library only.
"""

import argparse
import os
import re
import sys

# E2E tests that get no GPU copy, each with the reason. A new E2E test that
# runs relax-run gets copies unless it is listed here.
EXCLUDED = {
    "relax-run-compare":
        "tests relax-run's --expect comparison rules (infinities, integers), "
        "not kernels; the comparison is host code shared by both devices",
    "relax-run-errors":
        "tests relax-run's command-line and input errors, host code only",
    "relax-run-nan-report":
        "tests relax-run's mismatch report, host code only",
    "shape-checks":
        "tests the runtime shape-check error messages of relax-run, which "
        "run on the host before any kernel",
    "int-dtypes-io":
        "tests relax-run's .npy I/O (--random-inputs, --output-dir) and its "
        "exact integer comparison, including an expected mismatch (`!`)",
    "shape-contracts":
        "tests the run-time shape contracts (relax.assert_dims, "
        "relax.assert_indices), host checks before any kernel; RUN lines sit "
        "beside each program",
    "size-arithmetic":
        "tests the host's overflow-checked size arithmetic and allocation "
        "errors, which run before any kernel; RUN lines sit beside each "
        "program, so there is no single leading block to copy",
    "call-tir-inplace-constant":
        "tests the verifier's refusal of an in-place update of a constant: "
        "the module is rejected before any kernel exists",
    "shard-symbolic":
        "tests --relax-shard's split of symbolic dims and its run-time "
        "divisibility check (relax.assert_dims, a host check before any "
        "kernel); it runs the pass's output, not a program of its own",
    "reduction-lanes":
        "CPU-only: checks the CPU default schedule's row reductions in vector "
        "lanes (laneReduction: its IR and its lane tails); the GPU schedules' "
        "reductions of the same ops are the reduction-* copies",
    "vectorize-avx512":
        "CPU-only: checks the x86 AVX-512 vector code of the CPU pipeline; "
        "does not run relax-run",
}
# fusion-random.test is not an .mlir program: its programs are generated at
# test time; emulate-fused.test runs random fused programs under the GPU
# schedule instead.

# Tests whose run-X.test also runs the fused program (relax-run --device
# cuda --fuse): the models, where fused kernels matter most on a GPU, and
# the fusion tests, which are about fused programs.
RUN_FUSED_ON_GPU = {"fusion", "fuse-inplace-rotary", "model-mlp",
                    "model-llama-block"}
# Tests whose emulate-X.test also emulates the fused program: its
# `relax-run --fuse` lines run the output of GPU_FUSED_PIPELINE. (The
# models' fused programs are emulated by the hand-written emulate-fused.test.)
EMULATE_FUSED = {"fusion", "fuse-inplace-rotary"}

# GPU tests written by hand (not generated); --check leaves them alone.
HAND_WRITTEN = {"emulate-fused.test", "emulate-quant-linear.test",
                "emulate-quant-linear-tiles.test",
                "emulate-warp-reduce.test", "emulate-gemv-split-k.test",
                "run-cublas-dispatch.test",
                "emulate-tensor-core-matmul.test",
                "run-tensor-core-matmul.test",
                "emulate-flash-attention.test", "run-flash-attention.test",
                "emulate-flash-attention-tc.test", "run-flash-attention-tc.test",
                "emulate-wide-accesses.test", "emulate-wgmma-matmul.test",
                "emulate-tma-load.test", "emulate-tma-core-matrix.test",
                "emulate-wgmma-tma.test"}

GPU_PIPELINE = ("relax-opt --relax-legalize-ops --relax-annotate-op-pattern "
                "--tir-gpu-default-schedule --tir-test-gpu-as-serial")

GPU_FUSED_PIPELINE = ("relax-opt --relax-fuse-ops --relax-annotate-op-pattern "
                      "--tir-gpu-default-schedule --tir-test-gpu-as-serial")



def gpu_pipeline(name, fused):
    """The relax-opt command that schedules the program for the GPU. The TOSA
    models (tosa-*.mlir) are func.funcs of TOSA ops: converted to relax
    first (relax-run converts them itself, so run-X.test needs nothing)."""
    pipeline = GPU_FUSED_PIPELINE if fused else GPU_PIPELINE
    if name.startswith("tosa-"):
        pipeline = pipeline.replace("relax-opt ",
                                    "relax-opt --convert-tosa-to-relax ", 1)
    return pipeline


RUN_RE = re.compile(r"^// RUN: (.*)$")
EXAMPLE_RE = re.compile(r"%examples/([A-Za-z0-9_.-]+)\.mlir")


def header_lines(path):
    """The leading `//` comment block of an E2E test (description, RUN and
    CHECK lines). RUN/CHECK lines after it would be lost: refuse them."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    header = []
    for i, line in enumerate(lines):
        if not line.startswith("//"):
            rest = lines[i:]
            break
        header.append(line)
    else:
        rest = []
    for line in rest:
        if re.match(r"^\s*//\s*(RUN|[A-Z0-9_-]*CHECK[A-Z-]*):", line):
            raise SystemExit(
                f"{path}: RUN/CHECK line after the leading comment block: "
                "the generator only copies that block")
    return header


def runs_relax_run(header):
    return any(RUN_RE.match(l) and "relax-run" in l for l in header)


def is_fused(cmd):
    return re.search(r"\brelax-run --fuse\b", cmd) is not None


def is_cpu_pipeline_only(cmd):
    """relax-run lines that choose between CPU pipelines (BLAS offload or
    compiled loops, libm or approximated math) or check the CPU lowering;
    the GPU pipeline has no such choice."""
    return any(flag in cmd for flag in ("--dispatch-library=",
                                        "--approximate-math=",
                                        "--print-lowered"))


def e2e_paths(cmd, name):
    """Rewrites paths relative to E2E/ so they work from GPU/. `FileCheck %s`
    keeps reading the test itself, which carries the copied CHECK lines."""
    cmd = cmd.replace("%S/", "%S/../E2E/")
    return re.sub(r"(?<!FileCheck )%s\b", f"%S/../E2E/{name}.mlir", cmd)


def emulated_program(src, name, fused=False):
    """The scheduled file emulate-X.test writes for one relax-run source."""
    kind = "fused.gpu" if fused else "gpu"
    if src == "%s":
        return f"%t.{kind}.mlir"
    m = EXAMPLE_RE.fullmatch(src)
    if not m:
        raise SystemExit(f"{name}: relax-run on an unexpected source {src!r}")
    return f"%t.{m.group(1)}.{kind}.mlir"


def relax_run_source(cmd, name):
    """The program relax-run runs in `cmd` (`%s` or an %examples file)."""
    m = re.search(r"\brelax-run (?:--[a-z-]+ )*(%s\b|%examples/\S+\.mlir)",
                  cmd)
    if not m:
        raise SystemExit(f"{name}: cannot find the program of: {cmd}")
    return m.group(1)


def emulate_test(name, header):
    lines = [
        f"// The GPU default schedules of test/lit/E2E/{name}.mlir checked on the",
        "// CPU (generated from its RUN lines): the program scheduled by",
        "// --tir-gpu-default-schedule runs with its thread loops serialised",
        "// (--tir-test-gpu-as-serial), against the same numpy references and",
        f"// tolerances. run-{name}.test runs it on a real GPU.",
    ]
    if name in EMULATE_FUSED:
        lines += [
            "// Its `relax-run --fuse` lines run the program fused by",
            "// --relax-fuse-ops, then scheduled the same way.",
        ]
    lines.append("//")
    sources = []  # (source, fused) in order of first use.
    body = []
    for line in header:
        m = RUN_RE.match(line)
        if not m:
            body.append(line)
            continue
        cmd = m.group(1)
        if "relax-run" in cmd:
            if is_cpu_pipeline_only(cmd):
                continue
            fused = is_fused(cmd)
            if fused and name not in EMULATE_FUSED:
                continue
            src = relax_run_source(cmd, name)
            if (src, fused) not in sources:
                sources.append((src, fused))
            old = f"relax-run --fuse {src}" if fused else f"relax-run {src}"
            cmd = cmd.replace(
                old, f"relax-run {emulated_program(src, name, fused)}", 1)
        body.append("// RUN: " + e2e_paths(cmd, name))
    # The scheduled programs are written before the first RUN line, outside
    # %t (which the tests remove and recreate).
    opt = []
    for src, fused in sources:
        path = e2e_paths(src, name)
        pipeline = gpu_pipeline(name, fused)
        opt.append(f"// RUN: {pipeline} {path} -o "
                   f"{emulated_program(src, name, fused)}")
    first_run = next(i for i, l in enumerate(body) if RUN_RE.match(l))
    body[first_run:first_run] = opt
    return "\n".join(lines + body) + "\n"


def run_test(name, header):
    fused = name in RUN_FUSED_ON_GPU
    if fused:
        lines = [
            f"// GPU execution of test/lit/E2E/{name}.mlir (generated from its RUN lines:",
            "// the same inputs, numpy references and tolerances, with relax-run",
            "// --device cuda, unfused and fused). Runs where a CUDA GPU and driver",
            "// are present; lit reports it UNSUPPORTED elsewhere (see the note lit",
            "// prints).",
        ]
    else:
        lines = [
            f"// GPU execution of test/lit/E2E/{name}.mlir (generated from its RUN lines:",
            "// the same inputs, numpy references and tolerances, with relax-run",
            "// --device cuda). Runs where a CUDA GPU and driver are present; lit",
            "// reports it UNSUPPORTED elsewhere (see the note lit prints).",
        ]
    lines += ["// REQUIRES: cuda-gpu", "//"]
    for line in header:
        m = RUN_RE.match(line)
        if not m:
            lines.append(line)
            continue
        cmd = m.group(1)
        if (is_fused(cmd) and not fused) or is_cpu_pipeline_only(cmd):
            continue
        cmd = re.sub(r"\brelax-run ", "relax-run --device cuda ", cmd)
        lines.append("// RUN: " + e2e_paths(cmd, name))
    return "\n".join(lines) + "\n"


def expected_files(root):
    """{GPU file name: content} for every generated test."""
    e2e = os.path.join(root, "test", "lit", "E2E")
    files = {}
    for entry in sorted(os.listdir(e2e)):
        if not entry.endswith(".mlir"):
            continue
        name = entry[:-len(".mlir")]
        if name in EXCLUDED:
            continue
        header = header_lines(os.path.join(e2e, entry))
        if not runs_relax_run(header):
            continue
        files[f"emulate-{name}.test"] = emulate_test(name, header)
        files[f"run-{name}.test"] = run_test(name, header)
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; list missing or stale files and "
                        "exit 1 if any")
    parser.add_argument("--root", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))),
                        help="repository root (default: this script's)")
    args = parser.parse_args()

    gpu = os.path.join(args.root, "test", "lit", "GPU")
    expected = expected_files(args.root)
    problems = []
    for fname, content in expected.items():
        path = os.path.join(gpu, fname)
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current == content:
            continue
        if args.check:
            problems.append(("missing" if current is None else "stale") +
                            f": test/lit/GPU/{fname}")
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(content)
        print(f"wrote test/lit/GPU/{fname}")
    # A generated-looking file without a source: its E2E test was removed,
    # renamed or excluded.
    for fname in sorted(os.listdir(gpu)):
        if (re.fullmatch(r"(emulate|run)-.*\.test", fname) and
                fname not in expected and fname not in HAND_WRITTEN):
            problems.append(f"stale (no E2E source): test/lit/GPU/{fname}")
    for p in problems:
        print(p)
    if problems:
        print("run scripts/gen-gpu-tests.py to regenerate the GPU tests"
              if args.check else "remove or list the files above")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
