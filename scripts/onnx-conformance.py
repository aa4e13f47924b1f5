#!/usr/bin/env python3
"""Runs ONNX backend node tests (Debian's libonnx-testdata) through
`relax-translate --import-onnx` and `relax-run`, and compares every output
with the expected tensors.

Each test prints `PASS`, `FAIL` or `UNSUPPORTED` (the importer reported an
unsupported op, attribute or dtype), then the totals line
`N passed, N failed, N unsupported`.

  scripts/onnx-conformance.py                     # every test of the issue's op list
  scripts/onnx-conformance.py --list test/lit/Import/onnx-passing.txt
  scripts/onnx-conformance.py --table             # markdown table per op type
  scripts/onnx-conformance.py --write-list FILE   # record the passing tests
  scripts/onnx-conformance.py --all               # every node test

Inputs that ONNX ops need as import-time values (a Reshape target, Slice
bounds, Unsqueeze axes, ...) are given by the node tests as graph inputs; the
runner turns those into initializers of a copy of the model (as a deployed
model would have them) before importing it. Exit status: 0 when no test
failed, 1 otherwise.
"""

import argparse
import collections
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper

# The op types of issue 9: the default selection.
ISSUE_OPS = """MatMul Gemm Add Sub Mul Div Pow Sqrt Reciprocal Exp Log Erf Tanh
Relu LeakyRelu Sigmoid Softmax LogSoftmax LayerNormalization Reshape Transpose
Concat Split Slice Gather Unsqueeze Squeeze Shape Cast Where Equal Less Greater
Not ReduceMean ReduceSum ReduceMax ReduceMin Expand ConstantOfShape Range
Flatten Identity Constant Clip Min Max Neg Abs ArgMax Conv MaxPool AveragePool
GlobalAveragePool BatchNormalization""".split()

# (op type, input index) pairs whose value the importer needs at import time.
IMPORT_TIME_INPUTS = {
    ("Reshape", 1), ("Expand", 1), ("ConstantOfShape", 0), ("Range", 0),
    ("Range", 1), ("Range", 2), ("Slice", 1), ("Slice", 2), ("Slice", 3),
    ("Slice", 4), ("Unsqueeze", 1), ("Squeeze", 1), ("Split", 1),
    ("ReduceSum", 1), ("Clip", 1), ("Clip", 2), ("CumSum", 1), ("Tile", 1),
    ("Dropout", 1), ("Dropout", 2), ("OneHot", 1), ("Upsample", 1),
    ("Resize", 1), ("Resize", 2), ("Resize", 3),
    ("Pad", 1), ("Pad", 3), ("Trilu", 1),
}


def default_data_dir():
    try:
        out = subprocess.run(["dpkg", "-L", "libonnx-testdata"],
                             capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.endswith("/data/node"):
                return line
    except (OSError, subprocess.CalledProcessError):
        pass
    return "/usr/share/libonnx-testdata/data/node"


def op_types(model):
    return sorted({n.op_type for n in model.graph.node})


def freeze_inputs(model, inputs):
    """Moves the graph inputs that feed import-time slots into initializers;
    returns the names of the inputs that stay run-time parameters."""
    frozen = set()
    graph_inputs = [i.name for i in model.graph.input]
    for node in model.graph.node:
        for idx, name in enumerate(node.input):
            if (node.op_type, idx) in IMPORT_TIME_INPUTS and name in inputs:
                frozen.add(name)
    for name in frozen:
        model.graph.initializer.append(
            numpy_helper.from_array(inputs[name], name))
    kept = [i for i in model.graph.input if i.name not in frozen]
    del model.graph.input[:]
    model.graph.input.extend(kept)
    return [n for n in graph_inputs if n not in frozen]


def read_pb(path):
    tensor = onnx.TensorProto()
    with open(path, "rb") as f:
        tensor.ParseFromString(f.read())
    return numpy_helper.to_array(tensor)


# The most dims a packed sequence records per element (kSeqMaxRank).
SEQ_MAX_RANK = 8


def np_dtype(elem_type):
    return onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[elem_type]


def pack_sequence(elems, elem_type):
    """A sequence as the importer's relax values: the elements flattened and
    concatenated, and their dims padded with -1 (docs/onnx.md, "Sequences
    and optionals")."""
    dtype = np_dtype(elem_type)
    data = (np.concatenate([np.asarray(e, dtype).ravel() for e in elems])
            if elems else np.zeros([0], dtype))
    shapes = np.full([len(elems), SEQ_MAX_RANK], -1, np.int64)
    for k, e in enumerate(elems):
        shapes[k, :np.ndim(e)] = np.shape(e)
    return [data, shapes]


def placeholder(type_proto):
    """The relax values of an absent optional's element (zeros of the
    declared dims, unknown ones 0; an empty sequence)."""
    if type_proto.HasField("sequence_type"):
        return pack_sequence(
            [], type_proto.sequence_type.elem_type.tensor_type.elem_type)
    t = type_proto.tensor_type
    dims = [d.dim_value if d.HasField("dim_value") else 0
            for d in t.shape.dim]
    return [np.zeros(dims, np_dtype(t.elem_type))]


def flat_values(value, type_proto):
    """An ONNX value (numpy array, list, None for an absent optional) as the
    list of arrays of the importer's parameters or results for its type."""
    if type_proto.HasField("optional_type"):
        elem = type_proto.optional_type.elem_type
        if value is None:
            return [np.array(False)] + placeholder(elem)
        return [np.array(True)] + flat_values(value, elem)
    if type_proto.HasField("sequence_type"):
        return pack_sequence(
            value, type_proto.sequence_type.elem_type.tensor_type.elem_type)
    return [value]


def read_value(path, type_proto):
    """A test data file of an input or output of type `type_proto`."""
    with open(path, "rb") as f:
        raw = f.read()
    if type_proto.HasField("optional_type"):
        proto = onnx.OptionalProto()
        proto.ParseFromString(raw)
        return numpy_helper.to_optional(proto)
    if type_proto.HasField("sequence_type"):
        proto = onnx.SequenceProto()
        proto.ParseFromString(raw)
        return numpy_helper.to_list(proto)
    tensor = onnx.TensorProto()
    tensor.ParseFromString(raw)
    return numpy_helper.to_array(tensor)


def import_error(model_path, tools, timeout):
    """The importer's first error line for a model, or None if it imports."""
    r = subprocess.run([tools["relax-translate"], "--import-onnx", model_path,
                        "-o", os.devnull], capture_output=True, text=True,
                       timeout=timeout)
    if r.returncode == 0:
        return None
    lines = r.stderr.strip().splitlines()
    return lines[0] if lines else "import failed"


def run_test(test_dir, tools, timeout, rtol, atol, fuse=False):
    """Returns (status, message)."""
    try:
        return run_test_sets(test_dir, tools, timeout, rtol, atol, fuse)
    except Exception as e:
        # Test data numpy_helper cannot read (sequences, optionals): report
        # what the importer says about the model itself.
        msg = import_error(os.path.join(test_dir, "model.onnx"), tools,
                           timeout)
        if msg and "unsupported" in msg:
            return "UNSUPPORTED", msg
        return "FAIL", "runner error: %s" % e


def run_test_sets(test_dir, tools, timeout, rtol, atol, fuse):
    name = os.path.basename(test_dir)
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    sets = sorted(d for d in os.listdir(test_dir)
                  if d.startswith("test_data_set_"))
    if not sets:
        return "UNSUPPORTED", "no test data"
    work = tempfile.mkdtemp(prefix="onnx-conf-" + name + "-")
    try:
        for s in sets:
            sdir = os.path.join(test_dir, s)
            graph_inputs = [i for i in model.graph.input if i.name not in
                            {t.name for t in model.graph.initializer}]
            types = {i.name: i.type for i in graph_inputs}
            inputs = {}
            for k, i in enumerate(graph_inputs):
                p = os.path.join(sdir, "input_%d.pb" % k)
                if os.path.exists(p):
                    inputs[i.name] = read_value(p, i.type)
            # Sequences and optionals are several relax values each.
            outputs = []
            for k, o in enumerate(model.graph.output):
                v = read_value(os.path.join(sdir, "output_%d.pb" % k), o.type)
                outputs += flat_values(v, o.type)
            m = onnx.ModelProto()
            m.CopyFrom(model)
            params = freeze_inputs(m, inputs)
            mpath = os.path.join(work, s + ".onnx")
            onnx.save(m, mpath)
            mlir = os.path.join(work, s + ".mlir")
            try:
                r = subprocess.run(
                    [tools["relax-translate"], "--import-onnx", mpath, "-o",
                     mlir], capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return "FAIL", "import timed out"
            if r.returncode != 0:
                msg = r.stderr.strip().splitlines()
                msg = msg[0] if msg else "import failed"
                if "unsupported" in msg:
                    return "UNSUPPORTED", msg
                return "FAIL", msg
            args = [tools["relax-run"], mlir, "--rtol", str(rtol), "--atol",
                    str(atol)] + (["--fuse"] if fuse else [])
            arrays = []
            for n in params:
                if n not in inputs:
                    return "FAIL", "no data for input " + n
                arrays += flat_values(inputs[n], types[n])
            for k, a in enumerate(arrays):
                p = os.path.join(work, "%s_in%d.npy" % (s, k))
                np.save(p, a)
                args += ["--input", p]
            for k, o in enumerate(outputs):
                p = os.path.join(work, "%s_out%d.npy" % (s, k))
                np.save(p, o)
                args += ["--expect", p]
            try:
                r = subprocess.run(args, capture_output=True, text=True,
                                   timeout=timeout)
            except subprocess.TimeoutExpired:
                return "FAIL", "run timed out"
            if r.returncode != 0:
                lines = (r.stderr + r.stdout).strip().splitlines()
                bad = [l for l in lines if "error" in l or "mismatch" in l
                       or "does not match" in l]
                return "FAIL", (bad or lines or ["relax-run failed"])[0]
        return "PASS", ""
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data-dir", default=default_data_dir())
    ap.add_argument("--bin-dir", default=os.path.join(here, "..", "build",
                                                      "bin"))
    ap.add_argument("--list", help="run only the tests named in this file")
    ap.add_argument("--write-list", help="write the passing tests here")
    ap.add_argument("--table", action="store_true",
                    help="print a markdown table of results per op type")
    ap.add_argument("--filter", default="", help="substring of test names")
    ap.add_argument("--every", type=int, default=1, metavar="N",
                    help="run every N-th selected test plus one test of each "
                    "op type it misses (a fixed subset)")
    ap.add_argument("--all", action="store_true",
                    help="every node test, not only the issue's op types")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--rtol", type=float, default=1e-3)
    ap.add_argument("--atol", type=float, default=1e-5)
    ap.add_argument("--fuse", action="store_true",
                    help="run the models with --relax-fuse-ops (relax-run --fuse)")
    args = ap.parse_args()
    if args.jobs > 2:
        ap.error("at most 2 parallel jobs")

    tools = {t: os.path.join(args.bin_dir, t)
             for t in ("relax-translate", "relax-run")}
    for t in tools.values():
        if not os.access(t, os.X_OK):
            sys.exit("onnx-conformance: missing tool " + t)
    if not os.path.isdir(args.data_dir):
        sys.exit("onnx-conformance: no test data in " + args.data_dir)

    wanted = None
    if args.list:
        with open(args.list) as f:
            wanted = [l.split("#")[0].strip() for l in f]
        wanted = [w for w in wanted if w]
    tests = []
    issue_ops = set(ISSUE_OPS)
    for t in sorted(os.listdir(args.data_dir)):
        if args.filter not in t:
            continue
        if wanted is not None and t not in wanted:
            continue
        d = os.path.join(args.data_dir, t)
        if not os.path.exists(os.path.join(d, "model.onnx")):
            continue
        ops = op_types(onnx.load(os.path.join(d, "model.onnx")))
        if wanted is None and not args.all and not set(ops) <= issue_ops:
            continue
        tests.append((t, d, ops))
    if wanted is not None:
        missing = sorted(set(wanted) - {t for t, _, _ in tests})
    if args.every > 1:
        # Every N-th test, plus the first test of each op type that would
        # otherwise not appear: a fixed subset that covers every op type.
        subset = set(range(0, len(tests), args.every))
        covered = set()
        for k in subset:
            covered |= set(tests[k][2])
        for k, (_, _, ops) in enumerate(tests):
            if not set(ops) <= covered:
                subset.add(k)
                covered |= set(ops)
        tests = [tests[k] for k in sorted(subset)]
        for m in missing:
            print("FAIL %s: not found in %s" % (m, args.data_dir))

    results = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(run_test, d, tools, args.timeout, args.rtol,
                               args.atol, args.fuse): t for t, d, _ in tests}
        for fut in concurrent.futures.as_completed(futures):
            t = futures[fut]
            try:
                status, msg = fut.result()
            except Exception as e:  # A broken test file, not a crash of ours.
                status, msg = "FAIL", "runner error: %s" % e
            results[t] = status
            print("%s %s%s" % (status, t, (": " + msg) if msg else ""),
                  flush=True)

    if args.write_list:
        with open(args.write_list, "w") as f:
            f.write("# ONNX node tests that pass; written by "
                    "scripts/onnx-conformance.py --write-list\n")
            for t in sorted(k for k, v in results.items() if v == "PASS"):
                f.write(t + "\n")

    if args.table:
        per_op = collections.defaultdict(lambda: [0, 0, 0, 0])
        for t, _, ops in tests:
            for op in ops:
                row = per_op[op]
                row[3] += 1
                row[{"PASS": 0, "FAIL": 1, "UNSUPPORTED": 2}[results[t]]] += 1
        print("\n| op type | passed | failed | unsupported | total |")
        print("|---|---|---|---|---|")
        for op in sorted(per_op):
            p, f, u, n = per_op[op]
            print("| %s | %d | %d | %d | %d |" % (op, p, f, u, n))

    counts = collections.Counter(results.values())
    nfail = counts["FAIL"] + (len(missing) if wanted is not None else 0)
    print("%d passed, %d failed, %d unsupported" %
          (counts["PASS"], nfail, counts["UNSUPPORTED"]))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
