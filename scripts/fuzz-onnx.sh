#!/usr/bin/env bash
# Fuzzes the ONNX importer with libFuzzer + ASan for SECONDS (default 300).
# Configures a separate clang build in build-fuzz/ (RELAX_BUILD_FUZZERS=ON),
# seeds the corpus with the models of Debian's libonnx-testdata, runs one
# worker (-jobs=1; the machine has 2 cores) and prints libFuzzer's totals.
# Crashing inputs are left in build-fuzz/crashes/.
#   scripts/fuzz-onnx.sh [SECONDS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SECONDS_TO_RUN="${1:-300}"
BUILD_DIR="${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
JOBS="${JOBS:-2}"
CLANG="${CLANG:-clang-22}"
"$ROOT/scripts/install-deps.sh" --fuzz
command -v "$CLANG" >/dev/null || {
  echo "fuzz-onnx: $CLANG not found (apt-get install clang-22 libclang-rt-22-dev)" >&2
  exit 1
}
export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=1
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CLANG" -DCMAKE_CXX_COMPILER="${CLANG/clang/clang++}" \
    -DRELAX_BUILD_FUZZERS=ON -DRELAX_BUILD_UNITTESTS=OFF \
    -DRELAX_BUILD_BENCHMARKS=OFF
fi
cmake --build "$BUILD_DIR" -j "$JOBS" --target relax-onnx-import-fuzzer

CORPUS="$BUILD_DIR/corpus"
mkdir -p "$CORPUS" "$BUILD_DIR/crashes"
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
ASAN_OPTIONS="allow_user_poisoning=0:${ASAN_OPTIONS:-}" "$BUILD_DIR/bin/relax-onnx-import-fuzzer" "$CORPUS" \
  -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=4096 \
  -max_len=65536 -print_final_stats=1 -detect_leaks=0 \
  -artifact_prefix="$BUILD_DIR/crashes/" 2>&1 | tail -25
