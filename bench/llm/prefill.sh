#!/usr/bin/env bash
# Prefill and decode tokens/s at batch 1: relax-mlir's llama-generate against
# llama.cpp (llama-cpp-python from PyPI) on the same model and the same
# weights (issue 28: "prefill >= llama.cpp's tokens/s on the same weights").
#
# For each CONFIG: scripts/gen-llama-model.py writes the model,
# relax-compile --fuse builds it, llama-generate --random-weights 1
# --save-weights writes its weights (f32 safetensors, Hugging Face names),
# bench/llm/llamacpp_peer.py convert turns them into a GGUF of f32 tensors
# (q/k rows permuted for llama.cpp's rotary layout, as its
# convert_hf_to_gguf.py does). For each prompt length S (prompt ids 1..S
# modulo the vocabulary) both generate -n NEW tokens greedily from the same
# file once with --dump-logits, and the greedy tokens and logits are compared
# (f32 on both sides, llama.cpp's KV cache f32 too). Then REPEATS
# interleaved timed runs per threads and prompt length: llama-generate
# (RELAX_NUM_THREADS=t, weights --random-weights 1: the same bits as the
# file, already in memory, as llama.cpp's are: it reads the GGUF at load) and
# llamacpp_peer.py run (n_threads = n_threads_batch = t), each a fresh
# process timing its first prefill call and the NEW - 1 decode steps after
# it. Writes REPORT: medians over the repeats.
#
# Environment: CONFIGS (default python-free-examples/llm/llama-6l.json; a
# list; CONFIG works too), THREADS ("1 2"), PROMPTS ("32 128"), REPEATS (3),
# NEW (16), REPORT (bench/llm/prefill.md), WORK (a scratch folder, default
# a temporary one, removed at the end), PYTHON (the interpreter that makes
# the venv), RELAX_ENV (extra VAR=value words for the timed llama-generate
# runs, e.g. "RELAX_BIND_THREADS=0"; named in the report).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/llm"
CONFIGS="${CONFIGS:-${CONFIG:-$ROOT/python-free-examples/llm/llama-6l.json}}"
THREADS="${THREADS:-1 2}"
PROMPTS="${PROMPTS:-32 128}"
REPEATS="${REPEATS:-3}"
NEW="${NEW:-16}"
REPORT="${REPORT:-$HERE/prefill.md}"
RELAX_ENV="${RELAX_ENV:-}"

# LPY: the Python of bench/llm/.venv-llamacpp (llama-cpp-python, built from
# source by pip with CMake, gguf, numpy, safetensors), made on first use.
venv="$HERE/.venv-llamacpp"
if [[ ! -x "$venv/bin/python" ]] ||
   ! "$venv/bin/python" -c 'import llama_cpp, gguf, safetensors, numpy' \
     2> /dev/null; then
  rm -rf "$venv"
  log="$(mktemp)"
  echo "making $venv (llama-cpp-python compiles llama.cpp: minutes)" >&2
  if ! { "${PYTHON:-python3}" -m venv "$venv" &&
         "$venv/bin/pip" install --upgrade pip &&
         CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=ON -DLLAVA_BUILD=OFF}" \
         CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
           "$venv/bin/pip" install --no-cache-dir llama-cpp-python gguf \
             numpy safetensors &&
         "$venv/bin/python" -c 'import llama_cpp, gguf, safetensors'; } \
       > "$log" 2>&1; then
    echo "prefill.sh: could not make $venv with llama-cpp-python; the" \
         "end of the log ($log):" >&2
    grep -iE 'error|fail' "$log" | tail -n 20 >&2 || true
    tail -n 40 "$log" >&2
    rm -rf "$venv"
    exit 1
  fi
  rm -f "$log"
fi
LPY="$venv/bin/python"
PEER="$HERE/llamacpp_peer.py"

if [[ -n "${WORK:-}" ]]; then
  OUT="$WORK"
  mkdir -p "$OUT"
else
  OUT="$(mktemp -d)"
  trap 'rm -rf "$OUT"' EXIT
fi

# The number in "(X tokens/s)" of a "prefill:" or "decode:" line.
tps_of() { sed -n "s/^$1: .*(\([0-9.]*\) tokens\/s).*/\1/p" "$2"; }
tokens_of() { sed -n 's/^tokens: //p' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }

rows=()
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for config in $CONFIGS; do
  name=$(basename "$config" .json)
  dir="$OUT/$name"
  mkdir -p "$dir"
  vocab=$("$LPY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["vocab_size"])' "$config")
  echo "== $name: model, weights, GGUF" >&2
  "$LPY" "$ROOT/scripts/gen-llama-model.py" "$config" > "$dir/model.mlir"
  "$BIN/relax-compile" --fuse "$dir/model.mlir" -o "$dir/model.so"
  "$BIN/llama-generate" "$dir/model.so" --random-weights 1 --prompt 1 -n 1 \
    --save-weights "$dir/weights.safetensors" > /dev/null
  "$LPY" "$PEER" convert "$config" "$dir/weights.safetensors" \
    "$dir/model.gguf" >&2

  for s in $PROMPTS; do
    prompt=$(seq 1 "$s" | awk -v v="$vocab" '{printf "%s%d", (NR > 1 ? "," : ""), $1 % v}')
    echo "$prompt" > "$dir/prompt-$s"
    # Correctness first: the same file on both sides, one thread.
    RELAX_NUM_THREADS=1 "$BIN/llama-generate" "$dir/model.so" \
      --weights "$dir/weights.safetensors" --prompt "$prompt" -n "$NEW" \
      --dump-logits "$dir/relax-$s.npy" > "$dir/relax-$s.txt" ||
      { echo "prefill.sh: llama-generate failed on $name, prompt $s" >&2;
        exit 1; }
    "$LPY" "$PEER" run "$dir/model.gguf" --prompt "$prompt" -n "$NEW" \
      --threads 1 --dump-logits "$dir/peer-$s.npy" > "$dir/peer-$s.txt"
    "$LPY" "$PEER" compare "$dir/relax-$s.txt" "$dir/relax-$s.npy" \
      "$dir/peer-$s.txt" "$dir/peer-$s.npy" | tee "$dir/compare-$s" >&2
    sed -n 's/^summary: //p' "$dir/compare-$s" > "$dir/agree-$s"
  done

  echo "== $name: $REPEATS interleaved repeats" >&2
  for r in $(seq "$REPEATS"); do
    for s in $PROMPTS; do
      prompt=$(cat "$dir/prompt-$s")
      for t in $THREADS; do
        # shellcheck disable=SC2086
        env RELAX_NUM_THREADS="$t" OMP_NUM_THREADS="$t" $RELAX_ENV \
          "$BIN/llama-generate" \
          "$dir/model.so" --random-weights 1 --prompt "$prompt" -n "$NEW" \
          > "$dir/run.txt" ||
          { echo "prefill.sh: llama-generate failed on $name" >&2; exit 1; }
        [[ "$(tokens_of "$dir/run.txt")" == "$(tokens_of "$dir/relax-$s.txt")" ]] ||
          echo "warning: relax tokens at $t threads differ from the check run" >&2
        tps_of prefill "$dir/run.txt" >> "$dir/relax-prefill-$s-$t"
        tps_of decode "$dir/run.txt" >> "$dir/relax-decode-$s-$t"
        "$LPY" "$PEER" run "$dir/model.gguf" --prompt "$prompt" -n "$NEW" \
          --threads "$t" > "$dir/run.txt"
        [[ "$(tokens_of "$dir/run.txt")" == "$(tokens_of "$dir/peer-$s.txt")" ]] ||
          echo "warning: llama.cpp tokens at $t threads differ from the check run" >&2
        tps_of prefill "$dir/run.txt" >> "$dir/peer-prefill-$s-$t"
        tps_of decode "$dir/run.txt" >> "$dir/peer-decode-$s-$t"
        echo "  repeat $r, prompt $s, $t threads: relax" \
          "$(tail -n1 "$dir/relax-prefill-$s-$t") / llama.cpp" \
          "$(tail -n1 "$dir/peer-prefill-$s-$t") prefill tokens/s" >&2
      done
    done
  done

  for s in $PROMPTS; do
    for t in $THREADS; do
      rp=$(median < "$dir/relax-prefill-$s-$t")
      pp=$(median < "$dir/peer-prefill-$s-$t")
      rd=$(median < "$dir/relax-decode-$s-$t")
      pd=$(median < "$dir/peer-decode-$s-$t")
      rows+=("| $name | $t | $s | $rp | $pp | $(ratio "$rp" "$pp") | $rd | $pd | $(ratio "$rd" "$pd") | $(cat "$dir/agree-$s") |")
    done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
  echo "# Prefill and decode at batch 1: relax-mlir against llama.cpp"
  echo
  echo "Written by bench/llm/prefill.sh on $(date -u '+%Y-%m-%d %H:%M UTC')."
  echo
  echo "- CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs"
  echo "- flags: $(sed -n 's/^flags[[:space:]]*: //p' /proc/cpuinfo | head -n1 |
      tr ' ' '\n' | grep -E '^(avx|fma|f16c|amx)' | tr '\n' ' ')"
  echo "- load average (1, 5, 15 min): $load_before before, $load_after after"
  echo "- llama.cpp: $("$LPY" "$PEER" info | tr '\n' ' ' | sed 's/ *$//')"
  echo "- relax runs: RELAX_NUM_THREADS = OMP_NUM_THREADS = threads${RELAX_ENV:+, $RELAX_ENV}"
  echo
  echo "| config | threads | prompt | relax prefill tok/s | llama.cpp prefill tok/s | ratio | relax decode tok/s | llama.cpp decode tok/s | ratio | greedy tokens (relax vs llama.cpp) |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  printf '%s\n' "${rows[@]}"
  echo
  echo "Medians over $REPEATS interleaved runs, each a fresh process: prefill is"
  echo "the first call on the whole prompt (ids 1..S), decode the $((NEW - 1))"
  echo "greedy steps after it (-n $NEW), argmax included, as llama-generate"
  echo "prints them. ratio = relax / llama.cpp (above 1: relax is faster)."
  echo "Both f32: weights (llama-generate --random-weights 1, the bits of the"
  echo "file llama.cpp's GGUF was converted from), activations and KV cache"
  echo "(llama.cpp's type_k/type_v f32; its default is f16). llama.cpp through"
  echo "llama-cpp-python (llm.eval; n_batch = n_ubatch = S, n_threads ="
  echo "n_threads_batch = threads, flash attention off, the GGUF read into"
  echo "memory rather than mapped: use_mmap=False), built from source with"
  echo "GGML_NATIVE=ON. Greedy tokens: llama-generate --weights on the"
  echo "safetensors file against llama.cpp on its GGUF, one thread, $NEW tokens;"
  echo "logits compared up to the first differing token."
} | tee "$REPORT"
