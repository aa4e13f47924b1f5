#!/usr/bin/env bash
# Compile once, run many (docs/compile.md): for each model, side by side in
# one run,
#   - relax-compile: wall time of compiling to model.so + model.params;
#   - the library: wall time of a relax-run process that opens model.so,
#     loads the parameters and runs the model once;
#   - the JIT: the same relax-run process on the model itself, with the
#     weights moved out of the code (the default) and compiled into it
#     (--param-min-bytes 0, how relax-run worked before);
#   - the median time of one call (relax-run --benchmark RUNS), on one
#     thread (OMP_NUM_THREADS=1: on the shared 2-core machine two OpenMP
#     threads made call times vary 5x between runs).
# Models: a ResNet-18-sized CNN (make_resnet18.py, 47 MB of weights, image
# 64x64), the BERT-style encoder of test/models (b3-s17) and the Llama-style
# block of python-free-examples (s = 128). Every wall time is the median of
# REPEATS. Writes bench/compile/report.md.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/compile"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
REPEATS="${REPEATS:-3}"
RUNS="${RUNS:-10}"
PY="${PYTHON:-/usr/bin/python3}"

"$PY" "$HERE/make_resnet18.py" "$OUT/resnet18.onnx" > /dev/null
BERT="$ROOT/test/models/bert-torchscript"
BERT_IN="--input $BERT/b3-s17/input_0.npy --input $BERT/b3-s17/input_1.npy --input $BERT/b3-s17/input_2.npy"

# name | model | run options
MODELS=(
  "ResNet-18 (47 MB weights), 1x3x64x64|$OUT/resnet18.onnx|--random-inputs --dim N=1 --dim H=64 --dim W=64"
  "BERT-style encoder (test/models), b3-s17|$BERT/model.onnx|$BERT_IN"
  "Llama-style block, s = 128|$ROOT/python-free-examples/llama_block.mlir|--random-inputs --dim s=128"
)

# Median wall seconds of REPEATS runs of "$@".
wall() {
  for _ in $(seq "$REPEATS"); do
    /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1
  done | median
}

{
  echo "| model | relax-compile | library: load + 1 run | JIT: compile + 1 run | JIT, constants in the code | one call, 1 thread (library / JIT) |"
  echo "|---|---|---|---|---|---|"
  for entry in "${MODELS[@]}"; do
    IFS='|' read -r name model opts <<< "$entry"
    so="$OUT/model.so"
    # shellcheck disable=SC2086
    {
      compile=$(wall "$BIN/relax-compile" "$model" -o "$so")
      lib=$(wall "$BIN/relax-run" "$so" $opts)
      jit=$(wall "$BIN/relax-run" "$model" $opts)
      old=$(wall "$BIN/relax-run" "$model" $opts --param-min-bytes 0)
      call_lib=$(OMP_NUM_THREADS=1 "$BIN/relax-run" "$so" $opts --benchmark "$RUNS" | median_ms)
      call_jit=$(OMP_NUM_THREADS=1 "$BIN/relax-run" "$model" $opts --benchmark "$RUNS" | median_ms)
    }
    echo "| $name | ${compile} s | ${lib} s | ${jit} s | ${old} s | ${call_lib} / ${call_jit} ms |"
  done
} | tee "$HERE/report.md"
