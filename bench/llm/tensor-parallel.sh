#!/usr/bin/env bash
# Tensor-parallel decode on the CPU: per-token time of a Llama of
# scripts/gen-llama-model.py (CONFIG, default llama-6l) at 1 rank
# (llama-generate, one process) and at 2 ranks (gen-llama-model.py
# --tensor-parallel 2, llama-generate-tp under mpirun -np 2), with the
# share of the time spent inside the collectives (libRelaxCollectives'
# clock around MPI_Allreduce), same weights (--random-weights 18), same
# greedy tokens (checked). Each rank runs THREADS_PER_RANK pool threads;
# the single process also runs with 2 threads, the same cores as 2 ranks.
# Median of REPEATS runs of STEPS tokens each.
#
# Environment: CONFIG, STEPS (64), REPEATS (3), PROMPT (7 tokens),
# THREADS_PER_RANK (1), MPIRUN (the mpirun command line).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
CONFIG="${CONFIG:-$ROOT/python-free-examples/llm/llama-6l.json}"
STEPS="${STEPS:-64}"
REPEATS="${REPEATS:-3}"
PROMPT="${PROMPT:-1,450,1496,1735,1701,432,1724}"
THREADS_PER_RANK="${THREADS_PER_RANK:-1}"
PY="${PYTHON:-/usr/bin/python3}"
# Unbound ranks that yield while they wait: on a shared machine a rank
# pinned to a busy core, spinning in MPI, measured 48 against 17 ms a token.
MPIRUN="${MPIRUN:-mpirun --allow-run-as-root --oversubscribe --bind-to none --mca mpi_yield_when_idle 1}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

"$PY" "$ROOT/scripts/gen-llama-model.py" "$CONFIG" > "$OUT/one.mlir"
"$PY" "$ROOT/scripts/gen-llama-model.py" "$CONFIG" --tensor-parallel 2 \
  > "$OUT/tp2.mlir"
"$BIN/relax-compile" --fuse "$OUT/one.mlir" -o "$OUT/one.so"
"$BIN/relax-compile" --fuse "$OUT/tp2.mlir" -o "$OUT/tp2.so"
ARGS=(--random-weights 18 --prompt "$PROMPT" -n "$STEPS")

# ms a decoded token from a summary ("decode: N tokens in T ms ...").
ms_per_token() { sed -n 's/^decode: \([0-9]*\) tokens in \([0-9.]*\) ms.*/\2 \1/p' |
  awk '{printf "%.3f\n", $1 / $2}'; }

run() { # label, command...
  local label=$1; shift
  local times=() comm=() tokens=""
  for _ in $(seq "$REPEATS"); do
    "$@" > "$OUT/run.txt"
    times+=("$(ms_per_token < "$OUT/run.txt")")
    comm+=("$(sed -n 's/.*decode \([0-9.]*\) ms a token (\([0-9.]*\)%).*/\1 \2/p' "$OUT/run.txt")")
    tokens=$(grep '^tokens:' "$OUT/run.txt")
  done
  echo "$tokens" > "$OUT/$label.tokens"
  local t; t=$(printf '%s\n' "${times[@]}" | median)
  local c="-"
  if [[ -n "${comm[0]}" ]]; then
    c=$(printf '%s\n' "${comm[@]}" | awk '{print $1}' | median)
    c="$c ms ($(printf '%s\n' "${comm[@]}" | awk '{print $2}' | median)%)"
  fi
  printf '| %s | %s | %s |\n' "$label" "$t" "$c"
}

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
  "family $(grep -m1 '^cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')" \
  "model $(grep -m1 '^model\s*:' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')," \
  "$(nproc) cores; $(date -u '+%Y-%m-%d %H:%M UTC'); $(basename "$CONFIG" .json)," \
  "$STEPS tokens, median of $REPEATS"
echo
echo "| run | ms a decoded token | in the collectives (a token, share of decode) |"
echo "|---|---|---|"
RELAX_NUM_THREADS=$THREADS_PER_RANK run "1 rank, $THREADS_PER_RANK thread" \
  "$BIN/llama-generate" "$OUT/one.so" "${ARGS[@]}"
RELAX_NUM_THREADS=$((2 * THREADS_PER_RANK)) run \
  "1 rank, $((2 * THREADS_PER_RANK)) threads" \
  "$BIN/llama-generate" "$OUT/one.so" "${ARGS[@]}"
run "2 ranks, $THREADS_PER_RANK thread each" \
  $MPIRUN -np 2 -x RELAX_NUM_THREADS="$THREADS_PER_RANK" \
  "$BIN/llama-generate-tp" "$OUT/tp2.so" "${ARGS[@]}"
if ! diff -q "$OUT/1 rank, $THREADS_PER_RANK thread.tokens" \
     "$OUT/2 ranks, $THREADS_PER_RANK thread each.tokens" > /dev/null; then
  echo "tensor-parallel: the tokens of 2 ranks differ from 1 rank's" >&2
  exit 1
fi
echo
echo "tokens equal at 1 and 2 ranks"
