#!/usr/bin/env bash
# Fuzzes relax-opt's parser, verifier, --relax-fuse-ops and the CPU pipeline
# (fuzz/relax-opt-fuzzer.cpp) with libFuzzer + ASan + UBSan for SECONDS
# (default 300). Uses the instrumented build of scripts/sanitize.sh
# (build-asan/), seeds the corpus with the relax/tir/extern modules of
# test/lit (one seed per `// -----` section), runs one worker and prints
# libFuzzer's totals. Crashing inputs are left in build-asan/crashes-relax-opt/.
#   scripts/fuzz-relax-opt.sh [SECONDS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_TO_RUN="${1:-300}"
BUILD_DIR="${SANITIZE_BUILD_DIR:-$ROOT/build-asan}"
"$ROOT/scripts/sanitize.sh" --build-only
cmake --build "$BUILD_DIR" --target relax-opt-fuzzer

CORPUS="$BUILD_DIR/corpus-relax-opt"
CRASHES="$BUILD_DIR/crashes-relax-opt"
mkdir -p "$CORPUS" "$CRASHES"
if [ -z "$(ls -A "$CORPUS")" ]; then
  /usr/bin/python3 - "$ROOT/test/lit" "$CORPUS" <<'PY'
import pathlib, re, sys
root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
n = 0
for path in sorted(root.rglob("*.mlir")):
    for i, part in enumerate(re.split(r"^// -----.*$", path.read_text(), flags=re.M)):
        # Only sections the fuzzer runs the pipelines on (project IR).
        body = "\n".join(l for l in part.splitlines()
                         if not l.lstrip().startswith("//"))
        if not re.search(r"\b(relax|tir|extern)\.", body):
            continue
        if re.search(r"\b(func|scf|memref|arith|gpu|llvm)\.", body):
            continue
        (out / f"{path.stem}-{i}.mlir").write_text(body)
        n += 1
print(f"fuzz-relax-opt: {n} seeds")
PY
fi
# -detect_leaks=0: the fuzzer keeps one MLIRContext alive on purpose.
export ASAN_OPTIONS="allow_user_poisoning=0:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
"$BUILD_DIR/bin/relax-opt-fuzzer" "$CORPUS" \
  -max_total_time="$SECONDS_TO_RUN" -timeout=20 -rss_limit_mb=4096 \
  -max_len=16384 -print_final_stats=1 -detect_leaks=0 \
  -artifact_prefix="$CRASHES/" > "$BUILD_DIR/fuzz-relax-opt.log" 2>&1 || true
# The whole log (with any report) stays in build-asan/fuzz-relax-opt.log.
tail -25 "$BUILD_DIR/fuzz-relax-opt.log"
[ -z "$(ls -A "$CRASHES")" ]
