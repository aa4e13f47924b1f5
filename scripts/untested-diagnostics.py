#!/usr/bin/env python3
"""Lists the diagnostics of lib/ and tools/ that no test checks.

A diagnostic is one C++ statement that starts an MLIR diagnostic
(`emitError`, `emitOpError`, `emitWarning`, `emitRemark`, the shape
inference's `emitInferError`, `emitSilenceableError`, the ONNX importer's
`error()` / `unsupportedAttrError`) and carries string literals, e.g.

    return emitOpError("sym_bounds entry '") << name << "' must be ...";

Its pieces are the string literals of the statement (adjacent literals
joined, escapes resolved, surrounding blanks trimmed): the parts of the
printed message that a test writes down verbatim in an
`expected-error {{...}}` or a FileCheck line; a piece's parts around
": " count as pieces too. A piece is distinctive when
it has at least 10 characters other than blanks and no other message
(another sequence of pieces) has it: "cannot be legalized: " or
"parameter #" say nothing about which check fired. The diagnostic counts
as tested when its longest piece or one of its distinctive pieces occurs
in some file under test/ or unittests/ (a GoogleTest is how a C++-only
API's error is tested), blanks collapsed on both sides: a test that
writes down the head of a message and one that writes down its tail both
count. Statements without a literal (a message built elsewhere
and forwarded) are not diagnostics of their own.

A diagnostic that no input can reach says why in the comment right above
it (or at the end of its first line), starting `// unreachable:`; the
script skips it.

Prints `file:line: fragment` for every untested diagnostic, then
`N untested diagnostics (of M)`, and exits 1 when N is not 0.

With `--known FILE` (lines `path: fragment`, as `--write-known` writes
them), the diagnostics listed there are counted apart and only the others
fail: the lit test (test/lit/Tools/untested-diagnostics.test) runs it so,
which stops new untested diagnostics while the known ones get their tests.
An entry that is tested or gone by now is an error too, so the list only
shrinks.

Usage: untested-diagnostics.py [--root DIR] [--all] [--known FILE]
                               [--write-known FILE]
  --all  also lists the tested diagnostics and the test file that matched.
"""
import argparse
import os
import re
import sys

SOURCE_DIRS = ("lib", "tools")
SOURCE_SUFFIXES = (".cpp", ".h")
TEST_DIRS = ("test", "unittests")
TEST_SUFFIXES = (".mlir", ".test", ".py", ".c", ".cpp", ".json", ".txt")

# A call that starts a diagnostic: the name, then `(`. `error()` only as a
# member call (`b.error()`, `binder.error()`), not any function named so.
START = re.compile(
    r"(?:\b(?:emitError|emitOpError|emitWarning|emitRemark|emitInferError|"
    r"emitSilenceableError|emitDefiniteFailure|unsupportedAttrError)"
    r"|(?:\.|->)error)\s*\(")
UNREACHABLE = re.compile(r"//\s*unreachable:")
ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"', "0": "\0"}


def strip_comments(text):
    """Blanks out comments (keeping offsets and line numbers)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def statement_end(text, start):
    """The offset of the `;` that ends the statement containing `start`, at
    the nesting depth of `start` (or of a closing bracket that ends an
    expression: `fail(emitError() << "x")`)."""
    depth = 0
    i, n = start, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                return i
        elif c == ";" and depth == 0:
            return i
        i += 1
    return n


def literals(code):
    """The string literals of `code`, adjacent ones joined, in order."""
    pieces = []
    last_end = None
    for m in re.finditer(r'(?<![\w\'])"((?:[^"\\\n]|\\.)*)"', code):
        value = re.sub(r"\\(.)", lambda e: ESCAPES.get(e.group(1), e.group(1)),
                       m.group(1))
        if last_end is not None and code[last_end:m.start()].strip() == "":
            pieces[-1] += value
        else:
            pieces.append(value)
        last_end = m.end()
    return pieces


def candidates(pieces):
    """The pieces and their parts around ": " ("relax-foo: bad option"
    also as "bad option")."""
    out = list(pieces)
    for piece in pieces:
        parts = [p.strip() for p in piece.split(": ")]
        if len(parts) > 1:
            out.extend(p for p in parts if p)
    return out


def normalize(s):
    return re.sub(r"\s+", " ", s)


def unreachable(lines, line):
    """Whether the comment block right above line `line` (1-based), or the
    line itself, says `// unreachable:`."""
    if UNREACHABLE.search(lines[line - 1]):
        return True
    i = line - 2
    while i >= 0 and lines[i].lstrip().startswith("//"):
        if UNREACHABLE.search(lines[i]):
            return True
        i -= 1
    return False


def diagnostics(root):
    for top in SOURCE_DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as f:
                    raw = f.read()
                text = strip_comments(raw)
                raw_lines = raw.split("\n")
                for m in START.finditer(text):
                    line = text.count("\n", 0, m.start()) + 1
                    end = statement_end(text, m.end() - 1)
                    pieces = [p.strip() for p in literals(text[m.start():end])]
                    pieces = [p for p in pieces if p]
                    if not pieces:
                        continue
                    if unreachable(raw_lines, line):
                        continue
                    yield os.path.relpath(path, root), line, tuple(pieces)


def test_corpus(root):
    corpus = []
    for dirpath, _, files in (w for top in TEST_DIRS
                              for w in os.walk(os.path.join(root, top))):
        for name in sorted(files):
            if not name.endswith(TEST_SUFFIXES):
                continue
            path = os.path.join(dirpath, name)
            try:
                with open(path, encoding="utf-8") as f:
                    corpus.append((os.path.relpath(path, root),
                                   normalize(f.read())))
            except UnicodeDecodeError:
                continue
    return corpus


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), ".."))
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--known")
    parser.add_argument("--write-known")
    args = parser.parse_args()
    root = os.path.abspath(args.root)

    known = set()
    if args.known:
        with open(args.known, encoding="utf-8") as f:
            for entry in f:
                entry = entry.rstrip("\n")
                if entry and not entry.startswith("#"):
                    known.add(entry)

    corpus = test_corpus(root)
    untested = []
    unlisted = 0
    seen = 0
    still_known = set()
    found = list(diagnostics(root))
    owners = {}
    for _, _, pieces in found:
        for piece in set(candidates(pieces)):
            owners.setdefault(piece, set()).add(pieces)
    for path, line, pieces in found:
        seen += 1
        fragment = max(pieces, key=len)
        needles = [p for p in candidates(pieces) if len(owners[p]) == 1 and
                   len(re.sub(r"\s", "", p)) >= 10] + [fragment]
        needles = [normalize(p) for p in needles]
        match = next((t for t, body in corpus
                      if any(n in body for n in needles)), None)
        entry = "%s: %s" % (path, normalize(fragment))
        if match is None:
            untested.append(entry)
            if entry in known:
                still_known.add(entry)
                continue
            unlisted += 1
            print("%s:%d: %s" % (path, line, fragment))
        elif args.all:
            print("%s:%d: tested by %s: %s" % (path, line, match, fragment))
    if args.write_known:
        with open(args.write_known, "w", encoding="utf-8") as f:
            f.write("# Diagnostics without a test (scripts/untested-"
                    "diagnostics.py --write-known).\n")
            for entry in sorted(set(untested)):
                f.write(entry + "\n")
    stale = sorted(known - still_known)
    for entry in stale:
        print("known but tested or gone (remove it from %s): %s"
              % (args.known, entry))
    print("%d untested diagnostics (of %d)" % (unlisted, seen))
    if args.known:
        print("%d more listed as known in %s" % (len(still_known), args.known))
    return 1 if unlisted or stale else 0


if __name__ == "__main__":
    sys.exit(main())
