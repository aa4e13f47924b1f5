#!/usr/bin/env bash
# Memory side by side with onnxruntime, on the Llama-style block and a
# 4-layer Llama-style model (bench/peers/models.py: hidden 256, seeded
# weights) at sequence 1 (decode) and 128 (prefill), one thread:
#   - peak bytes of live intermediates of relax-mlir's compiled model
#     without a memory plan (--plan-memory=false) and with it (the default),
#     counted by the runtime (relax-run --memory-report), and the arena
#     formula;
#   - peak resident set size of whole processes running the model RUNS
#     times: onnxruntime in Python (numpy + onnxruntime imported, nothing
#     else), relax-run on the library compiled ahead of time by
#     relax-compile (the runtime only: relax-run loads LLVM and MLIR, in
#     libRelaxRunJIT.so, only for a module to compile), the C API example
#     python-free-examples/run_module.c on the same library (the deployed
#     runtime: libRelaxModule only), and relax-run compiling the model
#     itself (JIT: libLLVM, libMLIR and the compiler's own memory included).
# Each RSS is the median of REPEATS runs, sides interleaved. Every relax
# run is first checked against onnxruntime's outputs. Writes
# bench/memory/report.md.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/memory"
PEERS="$ROOT/bench/peers"
REPEATS="${REPEATS:-5}"
RUNS="${RUNS:-20}"
CASES="${CASES:-llama:1 llama:128 llama4:1 llama4:128}"
REPORT="${REPORT:-$HERE/report.md}"
peers_python
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
export OMP_NUM_THREADS=1

"$PY" "$PEERS/models.py" write "$OUT"
cc -O2 "$ROOT/python-free-examples/run_module.c" -I"$ROOT/include" \
  -L"$BUILD_DIR/lib" -lRelaxModule -Wl,-rpath,"$BUILD_DIR/lib" -lm \
  -o "$OUT/run_module"
rss() { sed -n 's/^maxrss \([0-9]*\) KiB$/\1/p'; }
peak() { sed -n 's/^memory: peak intermediate bytes: //p'; }
for c in $CASES; do
  model=${c%%:*}; size=${c#*:}; data="$OUT/$model-$size"
  [[ -f "$OUT/$model.mlir" ]] ||
    "$BIN/relax-translate" --import-onnx "$OUT/$model.onnx" -o "$OUT/$model.mlir"
  [[ -f "$OUT/$model.so" ]] ||
    "$BIN/relax-compile" "$OUT/$model.onnx" --fuse -o "$OUT/$model.so"
  "$PY" "$PEERS/models.py" inputs "$OUT/$model.onnx" "$size" "$data"
  "$PY" "$PEERS/models.py" ort "$OUT/$model.onnx" "$data" 1 1 > /dev/null
  inputs=$(printf -- '--input %s ' "$data"/in*.npy)
  expects=$(printf -- '--expect %s ' "$data"/out*.npy)
  # shellcheck disable=SC2086
  "$BIN/relax-run" "$OUT/$model.so" $inputs $expects --rtol 1e-3 --atol 1e-4 > /dev/null
  for plan in false true; do
    # shellcheck disable=SC2086
    "$BIN/relax-run" --fuse --plan-memory=$plan --memory-report "$OUT/$model.mlir" \
      $inputs $expects --rtol 1e-3 --atol 1e-4 > "$OUT/report-$c-$plan"
  done
  for r in $(seq "$REPEATS"); do
    "$PY" "$HERE/ort_rss.py" "$OUT/$model.onnx" "$data" "$RUNS" | rss >> "$OUT/ort-$c"
    # shellcheck disable=SC2086
    "$PY" "$HERE/maxrss.py" "$BIN/relax-run" "$OUT/$model.so" $inputs \
      --benchmark "$RUNS" | rss >> "$OUT/so-$c"
    # shellcheck disable=SC2086
    "$PY" "$HERE/maxrss.py" "$BIN/relax-run" --fuse "$OUT/$model.mlir" $inputs \
      --benchmark "$RUNS" | rss >> "$OUT/jit-$c"
    "$PY" "$HERE/maxrss.py" "$OUT/run_module" "$OUT/$model.so" main \
      "s=$size" | rss >> "$OUT/capi-$c"
  done
done

describe() {
  case $1 in
    llama) echo "Llama-style block (hidden 256), seq $2" ;;
    llama4) echo "4-layer Llama-style model (hidden 256), seq $2" ;;
  esac
}
mib() { awk -v k="$1" 'BEGIN {printf "%.1f MiB", k / 1024}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
{
  echo "| model | intermediates, no plan | with the plan | reduction | arena formula |"
  echo "|---|---|---|---|---|"
  for c in $CASES; do
    model=${c%%:*}; size=${c#*:}
    off=$(peak < "$OUT/report-$c-false"); on=$(peak < "$OUT/report-$c-true")
    formula=$(sed -n 's/^  arena = //p' "$OUT/report-$c-true" | head -1)
    echo "| $(describe "$model" "$size") | $off B | $on B | $(awk -v a="$off" -v b="$on" 'BEGIN {printf "%.0f%%", 100 * (a - b) / a}') | \`$formula\` |"
  done
  echo
  echo "| model | onnxruntime (Python) RSS | C API (run_module.c) on the relax-compile library | ratio | relax-run on that library | ratio | relax-run JIT (compiler in process) | ratio |"
  echo "|---|---|---|---|---|---|---|---|"
  for c in $CASES; do
    model=${c%%:*}; size=${c#*:}
    o=$(median < "$OUT/ort-$c"); s=$(median < "$OUT/so-$c"); j=$(median < "$OUT/jit-$c")
    a=$(median < "$OUT/capi-$c")
    echo "| $(describe "$model" "$size") | $(mib "$o") | $(mib "$a") | $(ratio "$a" "$o") | $(mib "$s") | $(ratio "$s" "$o") | $(mib "$j") | $(ratio "$j" "$o") |"
  done
  echo
  echo "Peak RSS of the whole process, median of $REPEATS runs of $RUNS calls each, one thread; onnxruntime $("$PY" -c 'import onnxruntime; print(onnxruntime.__version__)')."
} | tee "$REPORT"
