#!/usr/bin/env bash
# relax-mlir side by side with onnxruntime on the CPU, on the same ONNX
# models (bench/peers/models.py writes them with seeded weights):
#   mlp 784-256-10 at batch 64, a BERT-style encoder layer (hidden 384,
#   12 heads) at sequence 128, a Llama-style block (hidden 256) at sequence
#   128 and 1 (decode-sized), a ResNet-18 basic block (64 channels, 56x56)
#   at batch 1, ResNet-18 at batch 3; a BERT-base layer (hidden 768, 12
#   heads, FFN 3072) at sequence 128 and 384, a Llama-style block of hidden
#   1024 at sequence 1 and 128, ResNet-50 at batch 1, a ConvNeXt block (96
#   channels, 56x56) at batch 1.
# Each (model, size, threads) runs onnxruntime and then relax-run once per
# variant, REPEATS times, interleaved; each run is the median of RUNS timed
# calls after WARMUP untimed ones (relax-run --benchmark --warmup:
# compilation is not timed; onnxruntime the same count after its first
# call). The warm-up reaches each engine's steady state: onnxruntime packs
# its weights when the session is made, relax once a constant weight has
# been multiplied by 1024 rows (an MLP at batch 64: the 17th call).
# The report gives the median over repeats and the ratio relax / onnxruntime.
# Before timing, every relax variant is checked against onnxruntime's
# outputs (relax-run --expect), so a fast wrong answer cannot pass.
#
# onnxruntime, onnx and numpy come from PyPI into bench/peers/.venv, created
# on first use (PYTHON picks the interpreter that makes it).
#
# Environment:
#   REPEATS (5), RUNS (30), THREADS ("1 2"): repetitions and thread counts
#   WARMUP (20): untimed calls before the timed ones, for both engines
#   VARIANTS: relax-run flag sets, one per column, separated by ';'
#             (default "--fuse": the default pipeline with fusion); words
#             of the form NAME=value are set in relax-run's environment
#             (e.g. "--fuse OMP_WAIT_POLICY=active")
#   CASES: "model:size ..." (default "mlp:64 bert:128 llama:128 llama:1
#          resblock:1 resnet18:3 bertbase:128 bertbase:384 llama1k:1
#          llama1k:128 resnet50:1 convnext:1"; the models are models.py's)
#   BUSY=1: run a busy loop (`yes > /dev/null`) beside the benchmark, to
#           measure behaviour under contention
#   REPORT: where the markdown goes (default bench/peers/report.md)
#   TVM=1: add TVM Relax (apache-tvm from PyPI, in its own venv
#          bench/peers/.venv-tvm made on first use by bench/lib.sh's
#          tvm_python) as a column: bench/peers/tvm_peer.py imports the
#          same .onnx (symbolic dims kept), compiles it with TVM's default
#          CPU pipeline for llvm -mcpu=<host> (no tuning) and times it in the
#          Relax VM, after checking its outputs against onnxruntime's; ratio
#          TVM / onnxruntime. Runs interleaved with the others, THREADS as
#          TVM_NUM_THREADS. Where the venv cannot be made or a model does not
#          import, compile or match, that column says n/a (the reason goes
#          to stderr once). Untuned TVM kernels are slow (seconds per call
#          for ResNet-18): TVM_RUNS (default RUNS) sets its timed calls.
#   IREE=1: add IREE (iree-base-compiler and iree-base-runtime from PyPI,
#          in bench/peers/.venv-iree made on first use by bench/lib.sh's
#          iree_python) as a column: bench/peers/iree_peer.py imports the
#          same .onnx with iree-import-onnx (dynamic dims kept), compiles it
#          once with iree-compile for the local llvm-cpu backend and the
#          host CPU, checks its outputs against onnxruntime's and times it
#          with the runtime's Python API: one thread on the local-sync
#          device, more on local-task with THREADS worker groups. Ratio
#          IREE / onnxruntime; n/a where the venv cannot be made or a model
#          does not import, compile or match (the reason goes to stderr
#          once). IREE_RUNS (default RUNS) sets its timed calls.
#
# The report starts with the CPU (model name and the avx2, avx512f and
# amx_tile flags from /proc/cpuinfo), the date and the load average.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/peers"
REPEATS="${REPEATS:-5}"
RUNS="${RUNS:-30}"
WARMUP="${WARMUP:-20}"
THREADS="${THREADS:-1 2}"
VARIANTS="${VARIANTS:---fuse}"
CASES="${CASES:-mlp:64 bert:128 llama:128 llama:1 resblock:1 resnet18:3
  bertbase:128 bertbase:384 llama1k:1 llama1k:128 resnet50:1 convnext:1}"
REPORT="${REPORT:-$HERE/report.md}"
TVM="${TVM:-0}"
TVM_RUNS="${TVM_RUNS:-$RUNS}"
IREE="${IREE:-0}"
IREE_RUNS="${IREE_RUNS:-$RUNS}"

peers_python
TVM_PY=""
if [[ "$TVM" == 1 ]] && ! tvm_python; then
  echo "TVM=1: no TVM venv (see above); the TVM column says n/a" >&2
fi
IREE_PY=""
if [[ "$IREE" == 1 ]] && ! iree_python; then
  echo "IREE=1: no IREE venv (see above); the IREE column says n/a" >&2
fi
OUT="$(mktemp -d)"
BUSY_PID=""
cleanup() {
  [[ -n "$BUSY_PID" ]] && kill "$BUSY_PID" 2>/dev/null
  rm -rf "$OUT"
}
trap cleanup EXIT

"$PY" "$HERE/models.py" write "$OUT"
IFS=';' read -r -a variants <<< "$VARIANTS"
for c in $CASES; do
  model=${c%%:*}; size=${c#*:}
  [[ -f "$OUT/$model.mlir" ]] ||
    "$BIN/relax-translate" --import-onnx "$OUT/$model.onnx" -o "$OUT/$model.mlir"
  data="$OUT/$model-$size"
  "$PY" "$HERE/models.py" inputs "$OUT/$model.onnx" "$size" "$data"
  "$PY" "$HERE/models.py" ort "$OUT/$model.onnx" "$data" 1 1 > /dev/null
  # TVM: import, compile and check once; a case it cannot do is marked
  # (tvm-skip-*) and its column says n/a.
  if [[ -n "$TVM_PY" ]]; then
    rc=0
    "$TVM_PY" "$HERE/tvm_peer.py" tvm "$OUT/$model.onnx" "$data" 1 0 \
      > /dev/null 2> "$OUT/tvm-err" || rc=$?
    if [[ $rc != 0 ]]; then
      echo "TVM: $model at $size: n/a (exit status $rc):" \
        "$(grep -v Warning "$OUT/tvm-err" | tail -n 1)" >&2
      touch "$OUT/tvm-skip-$model-$size"
    fi
  fi
  # IREE: import and compile once per model (iree_peer.py keeps
  # $OUT/$model.vmfb), check once per case; n/a as TVM's.
  if [[ -n "$IREE_PY" ]]; then
    rc=0
    "$IREE_PY" "$HERE/iree_peer.py" iree "$OUT/$model.onnx" "$data" 1 0 \
      > /dev/null 2> "$OUT/iree-err" || rc=$?
    if [[ $rc != 0 ]]; then
      echo "IREE: $model at $size: n/a (exit status $rc):" \
        "$(tail -n 1 "$OUT/iree-err")" >&2
      touch "$OUT/iree-skip-$model-$size"
    fi
  fi
  for v in "${variants[@]}"; do
    read -r -a words <<< "$v"
    envs=(); flags=()
    for w in "${words[@]}"; do
      if [[ "$w" =~ ^[A-Z_]+= ]]; then envs+=("$w"); else flags+=("$w"); fi
    done
    # shellcheck disable=SC2046
    env "${envs[@]}" "$BIN/relax-run" "${flags[@]}" "$OUT/$model.mlir" \
      $(printf -- '--input %s ' "$data"/in*.npy) \
      $(printf -- '--expect %s ' "$data"/out*.npy) \
      --rtol 1e-3 --atol 1e-4 > /dev/null ||
      { echo "relax-run $v: $model at $size does not match onnxruntime" >&2; exit 1; }
  done
done

if [[ "${BUSY:-0}" == 1 ]]; then
  yes > /dev/null &
  BUSY_PID=$!
fi
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
date_start=$(date -u '+%Y-%m-%d %H:%M UTC')
load_before=${load_start%% *}
for r in $(seq "$REPEATS"); do
  for c in $CASES; do
    model=${c%%:*}; size=${c#*:}; data="$OUT/$model-$size"
    for t in $THREADS; do
      key="$model-$size-$t"
      "$PY" "$HERE/models.py" ort "$OUT/$model.onnx" "$data" "$t" "$RUNS" \
        "$WARMUP" |
        median_ms >> "$OUT/ort-$key"
      if [[ -n "$TVM_PY" && ! -e "$OUT/tvm-skip-$model-$size" ]]; then
        "$TVM_PY" "$HERE/tvm_peer.py" tvm "$OUT/$model.onnx" "$data" "$t" \
          "$TVM_RUNS" 2> "$OUT/tvm-err" | median_ms >> "$OUT/tvm-$key" ||
          echo "TVM: $model at $size, $t threads: $(tail -n 1 "$OUT/tvm-err")" >&2
      fi
      if [[ -n "$IREE_PY" && ! -e "$OUT/iree-skip-$model-$size" ]]; then
        "$IREE_PY" "$HERE/iree_peer.py" iree "$OUT/$model.onnx" "$data" "$t" \
          "$IREE_RUNS" 2> "$OUT/iree-err" | median_ms >> "$OUT/iree-$key" ||
          echo "IREE: $model at $size, $t threads: $(tail -n 1 "$OUT/iree-err")" >&2
      fi
      for i in "${!variants[@]}"; do
        # shellcheck disable=SC2046,SC2086
        # Words of a variant that set a variable (KMP_BLOCKTIME=200) go to
        # the environment, the rest to relax-run.
        read -r -a words <<< "${variants[$i]}"
        envs=(); flags=()
        for w in "${words[@]}"; do
          if [[ "$w" =~ ^[A-Z_]+= ]]; then envs+=("$w"); else flags+=("$w"); fi
        done
        env OMP_NUM_THREADS="$t" "${envs[@]}" \
          "$BIN/relax-run" "${flags[@]}" "$OUT/$model.mlir" \
          $(printf -- '--input %s ' "$data"/in*.npy) --benchmark "$RUNS" \
          --warmup "$WARMUP" |
          median_ms >> "$OUT/relax$i-$key"
      done
    done
  done
done
load_after=$(cut -d' ' -f1 /proc/loadavg)

describe() {
  case $1 in
    mlp) echo "MLP 784-256-10, batch $2" ;;
    bert) echo "BERT-style encoder layer (hidden 384, 12 heads), seq $2" ;;
    llama) echo "Llama-style block (hidden 256, 8 heads), seq $2" ;;
    resblock) echo "ResNet-18 basic block (64 channels, 56x56), batch $2" ;;
    resnet18) echo "ResNet-18 (torchvision layout, BatchNormalization), batch $2" ;;
    bertbase) echo "BERT-base encoder layer (hidden 768, 12 heads, FFN 3072), seq $2" ;;
    llama1k) echo "Llama-style block (hidden 1024, 16 heads, FFN 2816), seq $2" ;;
    resnet50) echo "ResNet-50 (torchvision layout, BatchNormalization), batch $2" ;;
    convnext) echo "ConvNeXt block (96 channels, 56x56), batch $2" ;;
  esac
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
# "yes" or "no": whether /proc/cpuinfo lists CPU flag $1.
has_flag() {
  grep -m1 '^flags' /proc/cpuinfo | grep -qw "$1" && echo yes || echo no
}
# A cell of peer column $1 (tvm, iree) for key $2 against onnxruntime's $3.
peer_cells() {
  local x=""
  [[ -s "$OUT/$1-$2" ]] && x=$(median < "$OUT/$1-$2")
  if [[ -n "$x" ]]; then
    echo " $x ms | $(ratio "$x" "$3") |"
  else
    echo " n/a | n/a |"
  fi
}
{
  cpu=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
  echo "CPU: ${cpu:-unknown} ($(nproc) CPUs); avx2 $(has_flag avx2)," \
    "avx512f $(has_flag avx512f), amx_tile $(has_flag amx_tile)."
  echo "Date: $date_start. Load average (1, 5, 15 min) before timing:" \
    "$load_start."
  echo
  header="| model | threads | onnxruntime |"
  rule="|---|---|---|"
  for v in "${variants[@]}"; do
    header+=" relax-run \`$v\` | ratio |"
    rule+="---|---|"
  done
  if [[ "$TVM" == 1 ]]; then
    header+=" TVM Relax | TVM / onnxruntime |"
    rule+="---|---|"
  fi
  if [[ "$IREE" == 1 ]]; then
    header+=" IREE | IREE / onnxruntime |"
    rule+="---|---|"
  fi
  echo "$header"
  echo "$rule"
  for c in $CASES; do
    model=${c%%:*}; size=${c#*:}
    for t in $THREADS; do
      key="$model-$size-$t"
      o=$(median < "$OUT/ort-$key")
      row="| $(describe "$model" "$size") | $t | $o ms |"
      for i in "${!variants[@]}"; do
        x=$(median < "$OUT/relax$i-$key")
        row+=" $x ms | $(ratio "$x" "$o") |"
      done
      [[ "$TVM" == 1 ]] && row+=$(peer_cells tvm "$key" "$o")
      [[ "$IREE" == 1 ]] && row+=$(peer_cells iree "$key" "$o")
      echo "$row"
    done
  done
  echo
  echo "Median over $REPEATS interleaved repeats of the median of $RUNS timed"
  echo "calls each (after $WARMUP untimed ones, for both engines); ratio ="
  echo "relax-run / onnxruntime time."
  echo "Threads: onnxruntime intra_op_num_threads; relax OMP_NUM_THREADS (the"
  echo "size of its runtime's thread pool, which runs the kernels' parallel"
  echo "loops and the pieces of library calls; OpenBLAS on one thread)."
  echo "$(nproc) CPUs, load average $load_before before,"
  echo "$load_after after$([[ "${BUSY:-0}" == 1 ]] && echo ", with a busy loop (yes > /dev/null) beside it")."
  echo "onnxruntime $("$PY" -c 'import onnxruntime; print(onnxruntime.__version__)')."
  if [[ "$TVM" == 1 ]]; then
    echo
    if [[ -n "$TVM_PY" ]]; then
      echo "TVM Relax: apache-tvm $("$TVM_PY" -c 'import tvm; print(tvm.__version__)')"
      echo "from PyPI, the ONNX frontend with symbolic dims, TVM's default CPU"
      echo "pipeline (legalization, fusion, dlight's CPU GEMV and Reduction"
      echo "schedules; no tuning) for llvm -mcpu=<host>, the Relax VM; median"
      echo "of $TVM_RUNS timed calls; TVM_NUM_THREADS threads; ratio = TVM /"
      echo "onnxruntime time. n/a: did not import, compile or match onnxruntime."
    else
      echo "TVM Relax: n/a, apache-tvm did not install."
    fi
  fi
  if [[ "$IREE" == 1 ]]; then
    echo
    if [[ -n "$IREE_PY" ]]; then
      ver=$("$IREE_PY" -c 'from importlib.metadata import version
print(version("iree-base-runtime"))')
      echo "IREE: iree-base-compiler and iree-base-runtime $ver"
      echo "from PyPI; iree-import-onnx (dynamic dims kept), iree-compile"
      echo "--iree-hal-target-device=local"
      echo "--iree-hal-local-target-device-backends=llvm-cpu"
      echo "--iree-llvmcpu-target-cpu=host; the runtime's Python API, inputs"
      echo "on the device beforehand, outputs read back in each call; one"
      echo "thread: the local-sync device, more: local-task with that many"
      echo "worker groups (--task_topology_group_count); median of"
      echo "$IREE_RUNS timed calls; ratio = IREE / onnxruntime time. n/a: did"
      echo "not import, compile or match onnxruntime."
    else
      echo "IREE: n/a, iree-base-compiler / iree-base-runtime did not install."
    fi
  fi
} | tee "$REPORT"
