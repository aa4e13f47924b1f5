#!/usr/bin/env bash
# Fuzzes the ONNX importer with libFuzzer + ASan for SECONDS (default 300).
# Uses the instrumented build of scripts/sanitize.sh (build-asan/),
# seeds the corpus with the models of Debian's libonnx-testdata, runs one
# worker (-jobs=1; the machine has 2 cores) and prints libFuzzer's totals.
# Crashing inputs are left in build-asan/crashes-onnx/.
#   scripts/fuzz-onnx.sh [SECONDS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_TO_RUN="${1:-300}"
BUILD_DIR="${SANITIZE_BUILD_DIR:-$ROOT/build-asan}"
"$ROOT/scripts/sanitize.sh" --build-only
cmake --build "$BUILD_DIR" --target relax-onnx-import-fuzzer

CORPUS="$BUILD_DIR/corpus-onnx"
mkdir -p "$CORPUS" "$BUILD_DIR/crashes-onnx"
DATA=/usr/share/libonnx-testdata/data/node
if [ -d "$DATA" ] && [ -z "$(ls -A "$CORPUS")" ]; then
  for d in "$DATA"/*/; do
    cp "$d/model.onnx" "$CORPUS/$(basename "$d").onnx"
  done
fi
# -detect_leaks=0: the fuzzer keeps one MLIRContext alive on purpose.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons slabs from inlined
# (instrumented) header code while libMLIR.so (not instrumented) hands out
# memory from them without unpoisoning, which ASan would report falsely.
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}" \
ASAN_OPTIONS="allow_user_poisoning=0:${ASAN_OPTIONS:-}" "$BUILD_DIR/bin/relax-onnx-import-fuzzer" "$CORPUS" \
  -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=4096 \
  -max_len=65536 -print_final_stats=1 -detect_leaks=0 \
  -artifact_prefix="$BUILD_DIR/crashes-onnx/" 2>&1 | tail -25
