#!/usr/bin/env bash
# LLM decode at batch 1: relax-mlir against onnxruntime on the same model and
# weights. The model is a Llama of scripts/gen-llama-model.py (CONFIG,
# default python-free-examples/llm/llama-6l.json), compiled by relax-compile
# --fuse; onnxruntime runs the same decode step written as an ONNX graph with
# past_key_values (bench/llm/decode_onnx.py), weights from
# scripts/llama_weights.py (seed 18) on both sides. For each past length p
# the inputs (token, caches, weights) are written once (relax's decode takes
# past_length = p and caches of p + 1 rows that it updates in place, ORT's
# Concat(past, new) returns the p + 1 rows), relax's decode outputs (logits
# and the 2 * layers caches) are checked against
# onnxruntime's (relax-run --expect, rtol 1e-3, atol 1e-4) before anything
# is timed, then both are timed interleaved: onnxruntime's
# InferenceSession.run and relax-run --benchmark on the library (the call,
# not the compilation), median over REPEATS of the median of RUNS calls.
# Ends with relax-run --memory-report of the decode step at the largest p.
#
# Environment: CONFIG, PASTS ("16 256 1024"), THREADS ("1 2"), REPEATS (5),
# RUNS (30), REPORT (default bench/llm/report.md).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/llm"
CONFIG="${CONFIG:-$ROOT/python-free-examples/llm/llama-6l.json}"
PASTS="${PASTS:-16 256 1024}"
THREADS="${THREADS:-1 2}"
REPEATS="${REPEATS:-5}"
RUNS="${RUNS:-30}"
REPORT="${REPORT:-$HERE/report.md}"

peers_python
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

name=$(basename "$CONFIG" .json)
"$PY" "$ROOT/scripts/gen-llama-model.py" "$CONFIG" > "$OUT/model.mlir"
"$BIN/relax-compile" --fuse "$OUT/model.mlir" -o "$OUT/model.so"
"$PY" "$HERE/decode_onnx.py" write "$CONFIG" "$OUT/decode.onnx"
for p in $PASTS; do
  data="$OUT/p$p"
  "$PY" "$HERE/decode_onnx.py" inputs "$CONFIG" "$p" "$data"
  "$PY" "$HERE/decode_onnx.py" ort "$OUT/decode.onnx" "$data" 1 1 > /dev/null
  # shellcheck disable=SC2046
  "$BIN/relax-run" "$OUT/model.so" --entry decode \
    $(printf -- '--input %s ' "$data"/rin*.npy) \
    $(printf -- '--expect %s ' "$data"/out*.npy) --rtol 1e-3 --atol 1e-4 \
    > /dev/null ||
    { echo "relax decode at p = $p does not match onnxruntime" >&2; exit 1; }
done

load_before=$(cut -d' ' -f1 /proc/loadavg)
for r in $(seq "$REPEATS"); do
  for p in $PASTS; do
    data="$OUT/p$p"
    for t in $THREADS; do
      "$PY" "$HERE/decode_onnx.py" ort "$OUT/decode.onnx" "$data" "$t" "$RUNS" |
        median_ms >> "$OUT/ort-$p-$t"
      # shellcheck disable=SC2046
      OMP_NUM_THREADS="$t" "$BIN/relax-run" "$OUT/model.so" --entry decode \
        $(printf -- '--input %s ' "$data"/rin*.npy) --benchmark "$RUNS" |
        median_ms >> "$OUT/relax-$p-$t"
    done
  done
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

tps() { awk -v ms="$1" 'BEGIN {printf "%.1f", 1000 / ms}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
{
  echo "Decode at batch 1, $name ($(basename "$CONFIG")), relax-compile --fuse"
  echo
  echo "| past p | threads | onnxruntime | tokens/s | relax | tokens/s | ratio |"
  echo "|---|---|---|---|---|---|---|"
  for p in $PASTS; do
    for t in $THREADS; do
      o=$(median < "$OUT/ort-$p-$t")
      x=$(median < "$OUT/relax-$p-$t")
      echo "| $p | $t | $o ms | $(tps "$o") | $x ms | $(tps "$x") | $(ratio "$o" "$x") |"
    done
  done
  echo
  echo "Median over $REPEATS interleaved repeats of the median of $RUNS calls"
  echo "(after a warm-up); ratio = relax tokens/s / onnxruntime's (above 1:"
  echo "relax is faster). $(nproc) CPUs, load average $load_before before,"
  echo "$load_after after. Relax outputs checked against onnxruntime's first."
  echo
  p=${PASTS##* }
  echo "relax-run --fuse --memory-report (JIT, the library's pipeline), decode at p = $p:"
  echo
  echo '```'
  # shellcheck disable=SC2046
  "$BIN/relax-run" --fuse "$OUT/model.mlir" --entry decode \
    $(printf -- '--input %s ' "$OUT/p$p"/rin*.npy) --memory-report |
    grep -v '^output'
  echo '```'
} | tee "$REPORT"
