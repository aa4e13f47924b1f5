#!/usr/bin/env bash
# Builds the project with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-asan/ (clang-22, -DRELAX_SANITIZE=address,undefined; the fuzz targets
# come from the same build) and runs the whole test suite with it. Every
# sanitizer report is written to build-asan/sanitizer-logs/ as well as
# failing the process, so a report is counted even where a test expects the
# tool to fail; the script fails if there is any.
#   scripts/sanitize.sh            # configure once, build, run everything
#   scripts/sanitize.sh Relax E2E  # only these folders of test/lit
#   scripts/sanitize.sh --build-only  # what the fuzz scripts call
# Run-time options (also in docs/development.md):
#   allow_user_poisoning=0   LLVM's BumpPtrAllocator poisons its slabs from
#                            inlined (instrumented) header code while
#                            libMLIR.so (not instrumented) hands out memory
#                            from them without unpoisoning: false reports.
#   allocator_may_return_null=1
#                            huge allocations must come back as null so the
#                            tests of the "out of memory" errors see them.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${SANITIZE_BUILD_DIR:-$ROOT/build-asan}"
JOBS="${JOBS:-$(nproc)}"
CLANG="${CLANG:-clang-22}"
"$ROOT/scripts/install-deps.sh" --fuzz
export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=1
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CLANG" -DCMAKE_CXX_COMPILER="${CLANG/clang/clang++}" \
    -DRELAX_SANITIZE=address,undefined -DRELAX_BUILD_FUZZERS=ON
fi
start=$(date +%s)
cmake --build "$BUILD_DIR" -j "$JOBS"
built=$(date +%s)
[ "${1:-}" = "--build-only" ] && exit 0

LOGS="$BUILD_DIR/sanitizer-logs"
rm -rf "$LOGS" && mkdir -p "$LOGS"
export ASAN_OPTIONS="allow_user_poisoning=0:allocator_may_return_null=1:detect_leaks=${DETECT_LEAKS:-1}:log_path=$LOGS/asan:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$LOGS/ubsan:${UBSAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$ROOT/scripts/lsan.supp:${LSAN_OPTIONS:-}"
LIT=/usr/lib/llvm-22/bin/lit
if [ "$#" -gt 0 ]; then
  dirs=(); for d in "$@"; do dirs+=("$BUILD_DIR/test/lit/$d"); done
else
  dirs=("$BUILD_DIR/test/lit" "$BUILD_DIR/test/lit/Unit")
fi
set +e
"$LIT" -s "${dirs[@]}"
status=$?
set -e
end=$(date +%s)
# Reports, not warnings (a refused huge allocation logs a warning).
reports=$( (grep -l -E "ERROR: |runtime error:" -r "$LOGS" || true) | wc -l)
echo "sanitize: build $((built - start)) s, tests $((end - built)) s," \
     "lit exit $status, $reports sanitizer report file(s) in $LOGS"
for f in $( (grep -l -E "ERROR: |runtime error:" -r "$LOGS" || true) | head -5); do
  echo "== $f"; head -30 "$f"
done
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
