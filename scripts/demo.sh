#!/usr/bin/env bash
# The demo command: install what is missing, build, then compile the
# Llama-style decoder block of python-free-examples for the CPU (the embedded
# default target) and run it for a symbolic sequence length, printing its
# output summary and time.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
EXAMPLE="${1:-$ROOT/python-free-examples/llama_block.mlir}"
SEQ="${SEQ:-128}"
# The sequence length's variable: s in the Llama examples, n in mlp.mlir
# (relax-run rejects a --dim naming no variable of the entry).
DIM=s
grep -q '\[s\b' "$EXAMPLE" || DIM=n

"$ROOT/scripts/build.sh"
BIN="$BUILD_DIR/bin"

echo
echo "== relax-mlir demo: $(basename "$EXAMPLE") on the CPU =="
"$BIN/relax-opt" --version | tail -1
echo
echo "-- 1. parse, infer symbolic shapes, legalize to loop programs:"
kernels=$("$BIN/relax-opt" --relax-legalize-ops "$EXAMPLE" | grep -c "tir.prim_func")
calls=$("$BIN/relax-opt" --relax-legalize-ops "$EXAMPLE" | grep -c "relax.call_tir")
echo "   $calls kernel calls into $kernels distinct tir programs, all for any sequence length s"
fused=$("$BIN/relax-opt" --relax-fuse-ops "$EXAMPLE" | grep -c "relax.call_tir")
echo "   after --relax-fuse-ops: $fused kernel calls per forward"
echo
echo "-- 2. compile with --relax-lower-to-cpu, JIT, run with random inputs, s = $SEQ:"
"$BIN/relax-run" "$EXAMPLE" --device cpu --random-inputs --seed 0 --dim "$DIM=$SEQ" --benchmark 10
echo
echo "-- 3. the same, fused (relax-run --fuse):"
"$BIN/relax-run" "$EXAMPLE" --fuse --device cpu --random-inputs --seed 0 --dim "$DIM=$SEQ" --benchmark 10
