#!/usr/bin/env bash
# The test command: install, build, then run every test (lit FileCheck tests
# and the GoogleTest binaries, both through one lit run). Exits non-zero on
# any failure and ends with the line `N passed, N failed, N skipped`.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"

"$ROOT/scripts/build.sh"

LIT=/usr/lib/llvm-22/bin/lit
[ -x "$LIT" ] || LIT=lit
log="$(mktemp)"
set +e
"$LIT" -sv --time-tests "$BUILD_DIR/test/lit" "$BUILD_DIR/test/lit/Unit" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# lit prints one "  <Category>: N (..%)" line per outcome (the colons are
# aligned with spaces when several outcomes occur).
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -1; }
n() { local v; v="$(count "$1")"; echo "${v:-0}"; }
passed=$(( $(n Passed) + $(n "Expectedly Failed") ))
failed=$(( $(n Failed) + $(n "Unexpectedly Passed") + $(n Unresolved) + $(n "Timed Out") ))
skipped=$(( $(n Unsupported) + $(n Skipped) ))
rm -f "$log"

if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
  failed=1 # lit failed without counting a test (e.g. a config error).
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
