#!/usr/bin/python3
"""The mutation run of issue 29: relax-run --random-inputs, unfused and
fused, over the lit inputs and their textual mutations, for a given time.

Acceptance (issue 29): "A 30-minute mutation run of relax-run
--random-inputs (fused and unfused) over the lit inputs reports no signal
other than documented writer errors in hand-written tir."

Inputs: every test/lit/E2E/*.mlir and python-free-examples/*.mlir holding a
relax.func (--files GLOB restricts them). Each iteration picks, with a
seeded random.Random, a file, an entry (one of its relax.func @names) and a
mutation kind:

  none        the file as it is;
  int         one integer literal -> 0, 1, -1, a big value, or +/-1;
  swap-dims   two dims of one tensor/buffer type swapped;
  dtype       one of f32/f16/i32/i64/i1 replaced by another;
  delete      one line of a function body deleted;
  duplicate   one line of a function body duplicated;

then runs `relax-run FILE --entry E --random-inputs --seed S --dim v=N ...`
once unfused and once with --fuse, OMP_NUM_THREADS=1, under --timeout
seconds and an address-space limit (--mem-limit-mb, so that a huge --dim
is an allocation failure instead of the OOM killer). The --dim values of
the entry's symbolic variables come from {0, 1, 2, 3, 7, 16, 64, 1000,
2^31, 2^40, 2^62, -1}.

Outcomes: ok (exit 0), clean error (any other exit status), timeout (a
hang), signal (killed by a signal: SIGSEGV, SIGABRT, SIGBUS, SIGFPE,
SIGILL, ...). Each timeout and signal gets a reproducer directory under
--out (default /tmp/mutate-run/): input.mlir, repro.sh (the exact command),
stderr.txt (its last 40 lines) and info.txt (the mutation).

scripts/mutate-run-known.txt lists documented exceptions (writer errors in
hand-written tir); a signal matching one counts as "known", anything else
as unexplained. The exit status is 1 if any unexplained signal or timeout
was seen, 0 otherwise.
"""

import argparse
import collections
import fnmatch
import glob
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_GLOBS = ["test/lit/E2E/*.mlir", "python-free-examples/*.mlir"]
KNOWN_FILE = os.path.join(REPO, "scripts", "mutate-run-known.txt")

DIM_VALUES = [0, 1, 2, 3, 7, 16, 64, 1000, 2**31, 2**40, 2**62, -1]
BIG_VALUES = [2**31, 2**32, 2**40, 2**62, 2**63 - 1]
DTYPES = ["f32", "f16", "i32", "i64", "i1"]
MUTATIONS = ["int", "swap-dims", "dtype", "delete", "duplicate"]
# Not variables in a dim expression.
DIM_KEYWORDS = {"min", "max", "floordiv", "ceildiv", "mod", "floormod"}


# ---------------------------------------------------------------------------
# Reading a file: entries, their symbolic variables, function bodies
# ---------------------------------------------------------------------------

FUNC_RE = re.compile(r"\brelax\.func\s+(private\s+)?@([\w.$-]+)\s*\(")
ANY_FUNC_RE = re.compile(
    r"^\s*(relax\.func|tir\.prim_func|func\.func)\s+(?:private\s+)?@([\w.$-]+)")
IDENT_RE = re.compile(r"[A-Za-z_][\w$.]*")


def signature_text(text, start):
    """The text of a relax.func signature from `start` (the match of
    FUNC_RE): up to the end of the line that opens its body."""
    pos = text.index("(", start)
    depth = 0
    i = pos
    while i < len(text):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                break
        i += 1
    # The body opens with the first line, from here, that ends with "{".
    while i < len(text):
        nl = text.find("\n", i)
        if nl < 0:
            nl = len(text)
        if text[i:nl].rstrip().endswith("{"):
            return text[start:nl]
        i = nl + 1
    return text[start:]


def entries(text):
    """[(name, is_private, [symbolic variables of its parameters])]: the
    names relax-run's --dim accepts (it rejects a variable only the results
    use)."""
    result = []
    for m in FUNC_RE.finditer(text):
        sig = signature_text(text, m.start()).split("->", 1)[0]
        names = []
        # Dims of !relax.tensor<[...], dt>, !relax.shape<[...]>, ...
        for shape in re.findall(r"<\[([^\[\]]*)\]", sig):
            for ident in IDENT_RE.findall(shape):
                if ident not in DIM_KEYWORDS and ident not in names:
                    names.append(ident)
        result.append((m.group(2), bool(m.group(1)), names))
    return result


def function_lines(lines):
    """[(index, label, is_header)] of the lines of every function: its
    header (the lines up to the "{" opening its body) and its body (not the
    closing brace, not blank or comment lines), with the function's label,
    e.g. tir.prim_func@kv_append."""
    result = []
    state, label, depth = "outside", None, 0
    for i, line in enumerate(lines):
        code = line.split("//", 1)[0]
        m = ANY_FUNC_RE.match(code)
        if state != "body" and m:
            state, label = "header", m.group(1) + "@" + m.group(2)
        if state == "outside":
            continue
        if state == "header":
            result.append((i, label, True))
            # The body opens with the first header line ending with "{"
            # (an attribute dict on a parameter closes on its line).
            if code.rstrip().endswith("{"):
                state, depth = "body", 1
            continue
        depth += code.count("{") - code.count("}")
        if depth <= 0:
            state, label, depth = "outside", None, 0
            continue
        if code.strip():
            result.append((i, label, False))
    return result


def body_lines(lines, balanced=False):
    """[(index, label)] of body lines; balanced: only those whose braces
    balance (deleting or duplicating "tir.for ... {" or "}" is a parse
    error, not worth a run)."""
    out = []
    for i, label, header in function_lines(lines):
        code = lines[i].split("//", 1)[0]
        if header or (balanced and code.count("{") != code.count("}")):
            continue
        out.append((i, label))
    return out


def label_of_line(lines, index):
    for i, label, _ in function_lines(lines):
        if i == index:
            return label
    return "-"


# ---------------------------------------------------------------------------
# Mutations: (new text, description, label of the mutated function) or None
# ---------------------------------------------------------------------------

INT_RE = re.compile(r"(?<![\w%@#$.\-])-?\d+(?=x|(?![\w.]))")
DTYPE_RE = re.compile(r"\b(f32|f16|i32|i64|i1)\b")
SHAPE_RE = re.compile(r"<\[([^\[\]]*)\]")
BUILTIN_SHAPE_RE = re.compile(r"\btensor<((?:\d+|\?)(?:x(?:\d+|\?))+)x")


def split_top(s):
    """Split a dim list at top-level commas."""
    parts, depth, cur = [], 0, ""
    for c in s:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    return parts


def candidates(lines, regex):
    """[(line index, match, label)] for matches in functions."""
    out = []
    for i, label, _ in function_lines(lines):
        code = lines[i].split("//", 1)[0]
        for m in regex.finditer(code):
            out.append((i, m, label))
    return out


def replace_everywhere(lines, old, new, regex_old=None):
    """Every occurrence of `old` (a regex if regex_old) outside comments
    replaced by `new`; the number of lines changed."""
    pattern = re.compile(regex_old or re.escape(old))
    changed = 0
    for i, line in enumerate(lines):
        code, sep, comment = line.partition("//")
        new_code = pattern.sub(lambda m: new, code)
        if new_code != code:
            lines[i] = new_code + sep + comment
            changed += 1
    return changed


def in_shape(line, pos):
    """Whether pos lies inside a <[...]> dim list or a tensor<AxBx...>."""
    open_ = line.rfind("<[", 0, pos)
    if open_ >= 0 and line.find("]", open_) >= pos:
        return True
    t = line.rfind("tensor<", 0, pos)
    return t >= 0 and re.fullmatch(r"[\d?x]*", line[t + 7:pos]) is not None


def mutate_int(lines, rng):
    """One integer literal changed; half the time, when it is a dim, every
    equal dim of the file with it (types stay consistent, the shapes
    change)."""
    cands = candidates(lines, INT_RE)
    if not cands:
        return None
    i, m, label = rng.choice(cands)
    old = int(m.group(0))
    choices = [0, 1, -1, rng.choice(BIG_VALUES), old + 1, old - 1]
    choices = [c for c in choices if c != old] or [old + 1]
    new = rng.choice(choices)
    line = lines[i]
    lines = list(lines)
    if in_shape(line, m.start()) and rng.random() < 0.5:
        # Every dim equal to it: in dim lists and builtin tensor types.
        for j, text in enumerate(lines):
            code, sep, comment = text.partition("//")
            out, last = [], 0
            for mm in INT_RE.finditer(code):
                if int(mm.group(0)) == old and in_shape(code, mm.start()):
                    out.append(code[last:mm.start()] + str(new))
                    last = mm.end()
            if out:
                lines[j] = "".join(out) + code[last:] + sep + comment
        return lines, "line %d: dim %d -> %d everywhere" % (
            i + 1, old, new), "file"
    lines[i] = line[:m.start()] + str(new) + line[m.end():]
    return lines, "line %d: integer %d -> %d" % (i + 1, old, new), label


def mutate_swap_dims(lines, rng):
    """Two dims of one type swapped; half the time in every equal type of
    the file."""
    cands = []
    for i, label, _ in function_lines(lines):
        code = lines[i].split("//", 1)[0]
        for m in SHAPE_RE.finditer(code):
            dims = split_top(m.group(1))
            if len(dims) >= 2 and len(set(d.strip() for d in dims)) >= 2:
                cands.append((i, m, label, "relax"))
        for m in BUILTIN_SHAPE_RE.finditer(code):
            dims = m.group(1).split("x")
            if len(set(dims)) >= 2:
                cands.append((i, m, label, "builtin"))
    if not cands:
        return None
    i, m, label, style = rng.choice(cands)
    if style == "relax":
        dims = [d.strip() for d in split_top(m.group(1))]
    else:
        dims = m.group(1).split("x")
    pairs = [(a, b) for a in range(len(dims)) for b in range(a + 1, len(dims))
             if dims[a] != dims[b]]
    a, b = rng.choice(pairs)
    new_dims = list(dims)
    new_dims[a], new_dims[b] = new_dims[b], new_dims[a]
    if style == "relax":
        new = "<[" + ", ".join(new_dims) + "]"
        old = "<[" + m.group(1) + "]"
    else:
        new = "tensor<" + "x".join(new_dims) + "x"
        old = m.group(0)
    line = lines[i]
    lines = list(lines)
    if rng.random() < 0.5:
        replace_everywhere(lines, old, new)
        return lines, "line %d: swap dims %d,%d everywhere: %s -> %s" % (
            i + 1, a, b, old, new), "file"
    lines[i] = line[:m.start()] + new + line[m.end():]
    return lines, "line %d: swap dims %d,%d: %s -> %s" % (
        i + 1, a, b, old, new), label


def mutate_dtype(lines, rng):
    """One dtype replaced; half the time every occurrence of it in the
    file."""
    cands = []
    for i, line in enumerate(lines):
        code = line.split("//", 1)[0]
        for m in DTYPE_RE.finditer(code):
            cands.append((i, m))
    if not cands:
        return None
    i, m = rng.choice(cands)
    old = m.group(0)
    new = rng.choice([d for d in DTYPES if d != old])
    line = lines[i]
    label = label_of_line(lines, i)
    lines = list(lines)
    if rng.random() < 0.5:
        replace_everywhere(lines, old, new, r"\b%s\b" % old)
        return lines, "line %d: dtype %s -> %s everywhere" % (
            i + 1, old, new), "file"
    lines[i] = line[:m.start()] + new + line[m.end():]
    return lines, "line %d: dtype %s -> %s" % (i + 1, old, new), label


DEF_RE = re.compile(r"^\s*(%[\w.$-]+(?::\d+)?(?:\s*,\s*%[\w.$-]+(?::\d+)?)*)"
                    r"\s*=")
VALUE_RE = re.compile(r"%[\w.$-]+")


def defined_values(line):
    m = DEF_RE.match(line.split("//", 1)[0])
    if not m:
        return [], None
    return [v.split(":")[0] for v in VALUE_RE.findall(m.group(1))], m


def pick_body_line(lines, rng):
    """A random body line of a balanced function: (index, function label,
    its text, the values it defines, the definition match), or None."""
    cands = body_lines(lines, balanced=True)
    if not cands:
        return None
    i, label = rng.choice(cands)
    defs, m = defined_values(lines[i])
    return i, label, lines[i].strip(), defs, m


def mutate_delete(lines, rng):
    """One body line deleted; the uses of a single result it defined, in
    the rest of its function, then name its first operand (so that an
    elementwise op's deletion stays valid IR)."""
    picked = pick_body_line(lines, rng)
    if not picked:
        return None
    i, label, text, defs, m = picked
    lines = list(lines)
    note = ""
    if len(defs) == 1:
        rhs = lines[i].split("//", 1)[0][m.end():]
        operands = [v for v in VALUE_RE.findall(rhs) if v != defs[0]]
        if operands:
            use = re.compile(re.escape(defs[0]) + r"(?![\w.$-])")
            for j, l2, header in function_lines(lines):
                if j > i and l2 == label and not header:
                    lines[j] = use.sub(operands[0], lines[j])
            note = " (%s -> %s)" % (defs[0], operands[0])
    del lines[i]
    return lines, "line %d deleted%s: %s" % (i + 1, note, text), label


def mutate_duplicate(lines, rng):
    """One body line duplicated; the copy's results renamed (an unused
    copy: valid IR unless the op has side effects) half the time."""
    picked = pick_body_line(lines, rng)
    if not picked:
        return None
    i, label, text, defs, m = picked
    copy = lines[i]
    note = ""
    if defs and rng.random() < 0.5:
        head = m.group(0)
        for v in defs:
            head = re.sub(re.escape(v) + r"(?![\w.$-])", v + "_dup", head)
        copy = copy[:m.start()] + head + copy[m.end():]
        note = " (results renamed)"
    lines = list(lines)
    lines.insert(i + 1, copy)
    return lines, "line %d duplicated%s: %s" % (i + 1, note, text), label


MUTATORS = {
    "int": mutate_int,
    "swap-dims": mutate_swap_dims,
    "dtype": mutate_dtype,
    "delete": mutate_delete,
    "duplicate": mutate_duplicate,
}


# ---------------------------------------------------------------------------
# Known exceptions
# ---------------------------------------------------------------------------

def read_known(path):
    """Each non-comment line: FILE-GLOB FUNCTION-GLOB OUTCOME-GLOB
    [STDERR-REGEX]. FILE-GLOB matches the input's path relative to the
    repository, FUNCTION-GLOB the mutated function's label (e.g.
    tir.prim_func@kv_append; "-" for an unmutated run), OUTCOME-GLOB the
    outcome (SIGSEGV, SIGBUS, timeout, ...); the optional regex must then be
    found in the run's stderr."""
    known = []
    if not os.path.exists(path):
        return known
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split(None, 3)
            if len(fields) < 3:
                sys.exit("%s:%d: expected FILE-GLOB FUNCTION-GLOB "
                         "OUTCOME-GLOB [STDERR-REGEX]" % (path, n))
            regex = re.compile(fields[3]) if len(fields) > 3 else None
            known.append((fields[0], fields[1], fields[2], regex,
                          "%s:%d" % (os.path.basename(path), n)))
    return known


def match_known(known, rel, label, outcome, stderr):
    if outcome == "timeout":
        return None  # A hang is always reported.
    for fglob, lglob, oglob, regex, where in known:
        if (fnmatch.fnmatch(rel, fglob) and fnmatch.fnmatch(label, lglob)
                and fnmatch.fnmatch(outcome, oglob)
                and (regex is None or regex.search(stderr))):
            return where
    return None


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

def signal_name(n):
    try:
        return signal.Signals(n).name
    except ValueError:
        return "SIG%d" % n


def run_one(cmd, timeout, mem_limit_mb, workdir):
    """(outcome, returncode, seconds, stderr text). Outcome: ok, error,
    timeout or a signal's name."""
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = "1"

    def limit():
        if mem_limit_mb > 0:
            b = mem_limit_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (b, b))
        # No core files from the crashes we are looking for.
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    out_path = os.path.join(workdir, "stdout.txt")
    err_path = os.path.join(workdir, "stderr.txt")
    start = time.monotonic()
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                             stderr=err, env=env, preexec_fn=limit,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
            timed_out = False
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            rc = p.wait()
    seconds = time.monotonic() - start
    with open(err_path, "rb") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        f.seek(max(0, size - 65536))
        stderr = f.read().decode("utf-8", "replace")
    if timed_out:
        outcome = "timeout"
    elif rc < 0:
        outcome = signal_name(-rc)
    elif 128 < rc <= 128 + 64:
        outcome = signal_name(rc - 128)
    elif rc == 0:
        outcome = "ok"
    else:
        outcome = "error"
    return outcome, rc, seconds, stderr


def save_repro(out_dir, n, rel, kind, fused, text, cmd_tail, relax_run,
               mem_limit_mb, description, label, outcome, rc, stderr,
               known_where):
    stem = os.path.splitext(os.path.basename(rel))[0]
    d = os.path.join(out_dir, "%05d-%s-%s-%s%s" % (
        n, outcome, stem, kind, "-fuse" if fused else ""))
    os.makedirs(d, exist_ok=True)
    mlir = os.path.join(d, "input.mlir")
    with open(mlir, "w") as f:
        f.write(text)
    cmd = [relax_run, mlir] + cmd_tail
    line = "OMP_NUM_THREADS=1 " + " ".join(shlex.quote(c) for c in cmd)
    with open(os.path.join(d, "repro.sh"), "w") as f:
        f.write("#!/bin/sh\n# %s, %s, %s: %s\n" % (rel, kind, outcome,
                                                 description))
        if mem_limit_mb > 0:
            f.write("ulimit -v %d\n" % (mem_limit_mb * 1024))
        f.write(line + "\n")
    os.chmod(os.path.join(d, "repro.sh"), 0o755)
    tail = "\n".join(stderr.splitlines()[-40:])
    with open(os.path.join(d, "stderr.txt"), "w") as f:
        f.write(tail + "\n")
    with open(os.path.join(d, "info.txt"), "w") as f:
        f.write("file: %s\nmutation: %s: %s\nfunction: %s\n"
                "outcome: %s (returncode %d)\nknown: %s\n" % (
                    rel, kind, description, label, outcome, rc,
                    known_where or "no"))
    return d, line


def pick_dims(rng, names):
    dims = []
    for name in names:
        # Mostly small values, so that runs get past the inputs often.
        if rng.random() < 0.6:
            v = rng.choice(DIM_VALUES[:7])
        else:
            v = rng.choice(DIM_VALUES)
        dims.append((name, v))
    return dims


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=60.0,
                    help="seconds per relax-run (default 60)")
    ap.add_argument("--out", default="/tmp/mutate-run",
                    help="reproducers go here (default /tmp/mutate-run)")
    ap.add_argument("--relax-run",
                    default=os.path.join(REPO, "build", "bin", "relax-run"))
    ap.add_argument("--files", action="append",
                    help="glob (relative to the repository root) restricting "
                         "the inputs; repeatable")
    ap.add_argument("--mem-limit-mb", type=int, default=4096,
                    help="address-space limit of each relax-run (0: none; "
                         "default 4096)")
    ap.add_argument("--known", default=KNOWN_FILE)
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="print every run")
    args = ap.parse_args()

    relax_run = os.path.abspath(args.relax_run)
    if not os.access(relax_run, os.X_OK):
        sys.exit("mutate-run: no relax-run at %s" % relax_run)

    files = set()
    for g in DEFAULT_GLOBS:
        files.update(glob.glob(os.path.join(REPO, g)))
    if args.files:
        keep = set()
        for g in args.files:
            pat = g if os.path.isabs(g) else os.path.join(REPO, g)
            keep.update(f for f in files if fnmatch.fnmatch(f, pat))
        files = keep
    inputs = []
    for f in sorted(files):
        with open(f) as fh:
            text = fh.read()
        if "relax.func" not in text or not entries(text):
            continue
        inputs.append((os.path.relpath(f, REPO), f, text))
    if not inputs:
        sys.exit("mutate-run: no input holds a relax.func")

    known = read_known(args.known)
    os.makedirs(args.out, exist_ok=True)
    workdir = os.path.join(args.out, "work")
    os.makedirs(workdir, exist_ok=True)
    mutant = os.path.join(workdir, "mutant.mlir")

    rng = random.Random(args.seed)
    counts = collections.Counter()
    per_file = collections.defaultdict(collections.Counter)
    per_kind = collections.defaultdict(collections.Counter)
    findings = []  # (outcome, known_where, rel, kind, description, dir, cmd)
    n = 0
    start = time.monotonic()
    deadline = start + args.minutes * 60
    print("mutate-run: %d inputs, seed %d, %.1f min, timeout %gs, "
          "reproducers in %s" % (len(inputs), args.seed, args.minutes,
                                 args.timeout, args.out), flush=True)
    try:
        while time.monotonic() < deadline:
            rel, path, text = rng.choice(inputs)
            kind = "none" if rng.random() < 1.0 / 3 else rng.choice(MUTATIONS)
            description, label = "no change", "-"
            run_text, run_path = text, path
            if kind != "none":
                lines = text.split("\n")
                mutated = MUTATORS[kind](lines, rng)
                if mutated is None:
                    continue
                new_lines, description, label = mutated
                run_text = "\n".join(new_lines)
                with open(mutant, "w") as f:
                    f.write(run_text)
                run_path = mutant
            ents = entries(run_text) or entries(text)
            public = [e for e in ents if not e[1]]
            pool = public if public and rng.random() < 0.8 else ents
            entry, _, names = rng.choice(pool)
            dims = pick_dims(rng, names)
            seed = rng.randrange(2**32)
            tail = ["--entry", entry, "--random-inputs", "--seed", str(seed)]
            for name, v in dims:
                tail += ["--dim", "%s=%d" % (name, v)]
            for fused in (False, True):
                cmd_tail = tail + (["--fuse"] if fused else [])
                cmd = [relax_run, run_path] + cmd_tail
                outcome, rc, secs, stderr = run_one(
                    cmd, args.timeout, args.mem_limit_mb, workdir)
                n += 1
                bucket = outcome if outcome in ("ok", "error",
                                                "timeout") else "signal"
                counts[bucket] += 1
                per_file[rel][bucket] += 1
                per_kind[kind][bucket] += 1
                if args.verbose:
                    print("%5d %-8s %5.1fs %s %s%s: %s" % (
                        n, outcome, secs, rel, kind,
                        " --fuse" if fused else "", description), flush=True)
                    if outcome == "error":
                        last = [l for l in stderr.splitlines() if l.strip()]
                        print("        %s" % (last[-1][:200] if last
                                              else "(no stderr)"),
                              flush=True)
                if bucket in ("timeout", "signal"):
                    where = match_known(known, rel, label, outcome, stderr)
                    d, line = save_repro(
                        args.out, n, rel, kind, fused, run_text, cmd_tail,
                        relax_run, args.mem_limit_mb, description, label,
                        outcome, rc, stderr, where)
                    findings.append((outcome, where, rel, kind, description,
                                     d, line))
                    print("mutate-run: %s%s: %s (%s: %s)\n  %s" % (
                        outcome, " (known: %s)" % where if where else "",
                        rel, kind, description, os.path.join(d, "repro.sh")),
                        flush=True)
    except KeyboardInterrupt:
        print("mutate-run: interrupted", flush=True)

    minutes = (time.monotonic() - start) / 60
    print("\nper file (runs ok/error/timeout/signal):")
    for rel in sorted(per_file):
        c = per_file[rel]
        print("  %-50s %4d %4d %4d %3d %3d" % (
            rel, sum(c.values()), c["ok"], c["error"], c["timeout"],
            c["signal"]))
    print("per mutation kind (runs ok/error/timeout/signal):")
    for kind in ["none"] + MUTATIONS:
        c = per_kind.get(kind, collections.Counter())
        print("  %-12s %5d %5d %5d %3d %3d" % (
            kind, sum(c.values()), c["ok"], c["error"], c["timeout"],
            c["signal"]))
    unexplained = [f for f in findings if not f[1]]
    if findings:
        print("timeouts and signals:")
        for outcome, where, rel, kind, description, d, line in findings:
            print("  %s%s %s [%s] %s\n    %s" % (
                outcome, " (known: %s)" % where if where else "", rel, kind,
                description, os.path.join(d, "repro.sh")))
    known_signals = sum(1 for f in findings if f[1] and f[0] != "timeout")
    print("mutate-run: %d runs in %.1f min: %d ok, %d clean errors, "
          "%d signals, %d timeouts%s" % (
              n, minutes, counts["ok"], counts["error"], counts["signal"],
              counts["timeout"],
              " (%d known: documented writer errors in hand-written tir)" %
              known_signals if known_signals else ""))
    shutil.rmtree(workdir, ignore_errors=True)
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
