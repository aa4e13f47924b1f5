#!/usr/bin/env bash
# Decode tokens/s at batch 1 with quantized weights (issue 31): relax-mlir
# next to llama.cpp (GGUF Q8_0 / Q4_0) and onnxruntime (MatMulNBits) on the
# same quantized weights, at each thread count.
#
# For each CONFIG and FORMAT (q8, q4; group 32, f16 scales: llama.cpp's
# Q8_0 / Q4_0): scripts/gen-llama-model.py --quantize writes the model,
# relax-compile --fuse builds it (the quantized linears go to the
# relax_quant_linear_* built-ins), llama-generate --random-weights SEED
# --quantize FORMAT quantizes the seed's f32 weights at load time and
# --save-weights writes them; bench/llm/llamacpp_peer.py convert turns that
# file into a GGUF of Q8_0 / Q4_0 tensors (the same integers and scales,
# repacked) and checks every block against gguf-py's own quantizer of the
# f32 weights (--check-seed: byte for byte, else the script stops);
# bench/llm/decode_onnx.py writes the decode step with MatMulNBits over the
# same integers and scales (accuracy_level ORT_ACCURACY). Greedy tokens of
# relax and llama.cpp are compared once at one thread (reported, not
# required: llama.cpp quantizes the activations to 8 bits in its dot
# products, relax does not). Then REPEATS interleaved timed runs per thread
# count: llama-generate and llamacpp_peer.py run generate NEW tokens from
# the 7-token prompt of test/lit/E2E/Inputs/llm (decode tokens/s over the
# NEW - 1 steps, fresh processes), onnxruntime runs its decode step at
# past length PAST (the middle of the others' steps) RUNS times (median
# call). Writes REPORT: medians over the repeats.
#
# FORMATs q8a8 and q4a8 are q8 and q4 with relax's int8 activations
# (relax-compile --quant-activations=int8, llama.cpp's own precision for
# Q8_0 and Q4_0) and onnxruntime's (MatMulNBits accuracy_level 4);
# llama.cpp runs as for q8 and q4.
#
# LAYOUT=tiles stores relax's weights in tiles (gen-llama-model.py
# --quant-layout tiles, docs/quantization.md "Tiled layout"; llama-generate
# packs them at load time, --save-weights still writes the plain tensors,
# so the peers get the same weights); its folders are <config>-<format>-tiles
# beside the plain layout's <config>-<format>, so both can share a WORK.
#
# Environment: CONFIGS (default python-free-examples/llm/llama-6l.json),
# LAYOUT (plain or tiles; default plain),
# FORMATS ("q8 q8a8 q4 q4a8"), THREADS ("1 2"), REPEATS (3), NEW (32), PAST (24),
# RUNS (30), SEED (1), ORT_ACCURACY (0: f32 arithmetic; 4: int8
# activations), REPORT (bench/llm/quant.md), WORK (scratch folder, default
# a temporary one; kept), REUSE (1: take WORK's prepared files of an
# earlier run, so that a quiet window only times). llama.cpp comes from
# bench/llm/.venv-llamacpp, which bench/llm/prefill.sh makes
# (llama-cpp-python built from source).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/llm"
CONFIGS="${CONFIGS:-${CONFIG:-$ROOT/python-free-examples/llm/llama-6l.json}}"
FORMATS="${FORMATS:-q8 q8a8 q4 q4a8}"
THREADS="${THREADS:-1 2}"
REPEATS="${REPEATS:-3}"
NEW="${NEW:-32}"
PAST="${PAST:-24}"
RUNS="${RUNS:-30}"
SEED="${SEED:-1}"
ORT_ACCURACY="${ORT_ACCURACY:-0}"
REUSE="${REUSE:-0}"
REPORT="${REPORT:-$HERE/quant.md}"
LAYOUT="${LAYOUT:-plain}"
case "$LAYOUT" in
  plain) layout_suffix="" ;;
  tiles) layout_suffix="-tiles" ;;
  *) echo "quant.sh: LAYOUT must be plain or tiles, not '$LAYOUT'" >&2; exit 2 ;;
esac

peers_python
LPY="$HERE/.venv-llamacpp/bin/python"
if ! "$LPY" -c 'import llama_cpp, gguf, safetensors' 2> /dev/null; then
  echo "quant.sh: no llama-cpp-python in $HERE/.venv-llamacpp: run" \
       "bench/llm/prefill.sh once (it builds it)" >&2
  exit 1
fi
PEER="$HERE/llamacpp_peer.py"
if [[ -n "${WORK:-}" ]]; then
  OUT="$WORK"
  mkdir -p "$OUT"
else
  OUT="$(mktemp -d)"
  trap 'rm -rf "$OUT"' EXIT
fi

prompt=$(tr -s ' \n' ',' < "$ROOT/test/lit/E2E/Inputs/llm/prompt.txt" |
         sed 's/^,//; s/,$//')
tps_of() { sed -n "s/^$1: .*(\([0-9.]*\) tokens\/s).*/\1/p" "$2"; }
tokens_of() { sed -n 's/^tokens: //p' "$1"; }
tps_ms() { awk -v ms="$1" 'BEGIN {printf "%.1f", 1000 / ms}'; }

rows=()
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for config in $CONFIGS; do
  name=$(basename "$config" .json)
  for f in $FORMATS; do
    dir="$OUT/$name-$f$layout_suffix"
    mkdir -p "$dir"
    # The weights' format, and what relax and onnxruntime do with X.
    wf="${f%a8}"
    relax_flags=()
    ort_accuracy="$ORT_ACCURACY"
    if [[ "$f" == *a8 ]]; then
      relax_flags=(--quant-activations=int8)
      ort_accuracy=4
    fi
    # Timings start afresh; with REUSE=1 a WORK folder's prepared model,
    # weights, GGUF and ONNX files are taken as they are.
    rm -f "$dir"/relax-* "$dir"/peer-* "$dir"/ort-*
    if [[ "$REUSE" == 1 && -s "$dir/agree" && -s "$dir/decode.onnx" ]]; then
      echo "== $name $f: reusing $dir" >&2
    else
    echo "== $name $f: model, weights, GGUF, ONNX" >&2
    "$LPY" "$ROOT/scripts/gen-llama-model.py" "$config" --quantize "$wf" \
      --quant-layout "$LAYOUT" > "$dir/model.mlir"
    "$BIN/relax-compile" --fuse "${relax_flags[@]}" "$dir/model.mlir" \
      -o "$dir/model.so"
    RELAX_NUM_THREADS=1 "$BIN/llama-generate" "$dir/model.so" \
      --random-weights "$SEED" --quantize "$wf" --prompt "$prompt" -n "$NEW" \
      --save-weights "$dir/weights.safetensors" \
      --dump-logits "$dir/relax.npy" > "$dir/relax.txt"
    "$LPY" "$PEER" convert "$config" "$dir/weights.safetensors" \
      "$dir/model.gguf" --check-seed "$SEED" >&2
    "$LPY" "$PEER" run "$dir/model.gguf" --prompt "$prompt" -n "$NEW" \
      --threads 1 --dump-logits "$dir/peer.npy" > "$dir/peer.txt"
    "$LPY" "$PEER" compare "$dir/relax.txt" "$dir/relax.npy" \
      "$dir/peer.txt" "$dir/peer.npy" | tee "$dir/compare" >&2
    sed -n 's/^summary: //p' "$dir/compare" > "$dir/agree"
    "$PY" "$HERE/decode_onnx.py" write "$config" "$dir/decode.onnx" "$wf" \
      "$ort_accuracy" "$SEED"
    "$PY" "$HERE/decode_onnx.py" inputs "$config" "$PAST" "$dir/ort"
    fi

    echo "== $name $f: $REPEATS interleaved repeats" >&2
    for r in $(seq "$REPEATS"); do
      for t in $THREADS; do
        RELAX_NUM_THREADS="$t" OMP_NUM_THREADS="$t" "$BIN/llama-generate" \
          "$dir/model.so" --random-weights "$SEED" --quantize "$wf" \
          --prompt "$prompt" -n "$NEW" > "$dir/run.txt"
        [[ "$(tokens_of "$dir/run.txt")" == "$(tokens_of "$dir/relax.txt")" ]] ||
          echo "warning: relax tokens at $t threads differ from the check run" >&2
        tps_of decode "$dir/run.txt" >> "$dir/relax-$t"
        "$LPY" "$PEER" run "$dir/model.gguf" --prompt "$prompt" -n "$NEW" \
          --threads "$t" > "$dir/run.txt"
        tps_of decode "$dir/run.txt" >> "$dir/peer-$t"
        "$PY" "$HERE/decode_onnx.py" ort "$dir/decode.onnx" "$dir/ort" "$t" \
          "$RUNS" | median_ms >> "$dir/ort-$t"
        echo "  repeat $r, $t threads: relax $(tail -n1 "$dir/relax-$t")," \
          "llama.cpp $(tail -n1 "$dir/peer-$t")," \
          "onnxruntime $(tps_ms "$(tail -n1 "$dir/ort-$t")") tokens/s" >&2
      done
    done
    for t in $THREADS; do
      rows+=("| $name | $f$layout_suffix | $t | $(median < "$dir/relax-$t") | $(median < "$dir/peer-$t") | $(tps_ms "$(median < "$dir/ort-$t")") | $(cat "$dir/agree") |")
    done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
  echo "# Decode with quantized weights: relax-mlir, llama.cpp, onnxruntime"
  echo
  echo "Written by bench/llm/quant.sh on $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs"
  echo "- load average (1, 5, 15 min): $load_before before, $load_after after"
  echo "- llama.cpp: $("$LPY" "$PEER" info | tr '\n' ' ' | sed 's/ *$//')"
  echo "- onnxruntime: $("$PY" -c 'import onnxruntime; print(onnxruntime.__version__)'), MatMulNBits accuracy_level $ORT_ACCURACY (4 for q8a8 and q4a8)"
  echo "- relax's weight layout: $LAYOUT (the peers read the same weights in their own formats)"
  echo
  echo "| config | format | threads | relax decode tok/s | llama.cpp decode tok/s | onnxruntime decode tok/s | greedy tokens (relax vs llama.cpp) |"
  echo "|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "Medians over $REPEATS interleaved repeats. relax and llama.cpp: the"
  echo "$((NEW - 1)) greedy decode steps after a 7-token prompt (-n $NEW), each"
  echo "run a fresh process; onnxruntime: one decode step at past length $PAST,"
  echo "median of $RUNS calls. Same weights everywhere: --random-weights $SEED"
  echo "quantized with the Q8_0 / Q4_0 formulas (group 32, f16 scales); the"
  echo "GGUF blocks equal gguf-py's quantizer byte for byte (checked); the"
  echo "linear weights only (the embedding and norms stay f32 on every side;"
  echo "llama.cpp's KV cache f32)."
} | tee "$REPORT"
