#!/usr/bin/env bash
# End-to-end A/B of a runtime change on quantized decode (issue 31): one
# compiled model (its model.so links libRelaxRuntime.so through RUNPATH,
# which LD_LIBRARY_PATH overrides) run by llama-generate with the runtime
# libraries of folder BASE_LIB and of folder TREE_LIB (default this
# tree's build/lib) alternately, the read-only ceiling
# (bench/cpu/read_bw.c, its thread count) measured before each pair. On a
# VM whose ceiling moves by 10-50% within minutes, and on a machine others
# load, a difference is only a difference of runs made in the same minute.
# Prints each pair, then per thread count the medians of decode tok/s,
# of GB/s of the quantized bytes of a token (as ceiling-pairs.sh), of
# their fraction of the pair's ceiling, and of the per-pair ratio
# tree / base with its range.
#   MODEL_DIR (a folder with model.so and weights.safetensors, e.g. a
#   bench/llm/quant.sh WORK's llama-16l-q8), FORMAT (q8, q4 or f32: the
#   bits of the weights, for the bytes a token reads), BASE_LIB, TREE_LIB,
#   CONFIG (python-free-examples/llm/llama-16l.json), THREADS ("1 2"),
#   ROUNDS (5), NEW (64 tokens), WEIGHTS (llama-generate's weight options;
#   default --weights MODEL_DIR/weights.safetensors, or e.g.
#   "--random-weights 18" for an f32 model without a file).
# An A/B of a setting instead of a library: BASE_LIB = TREE_LIB and the
# environment of each side in BASE_ENV / TREE_ENV (e.g. RELAX_HUGE_PAGES=0
# and =1, docs/perf.md "Weights in huge pages"). Each side's figure in the
# pairs is "decode tok/s,decode CPU ms" (all threads; on a loaded machine
# the CPU time is the figure to compare).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
: "${MODEL_DIR:?MODEL_DIR=a folder with model.so and weights.safetensors}"
: "${BASE_LIB:?BASE_LIB=the folder of the base libRelaxRuntime.so}"
BASE_ENV="${BASE_ENV:-}"
TREE_ENV="${TREE_ENV:-}"
WEIGHTS="${WEIGHTS:---weights $MODEL_DIR/weights.safetensors}"
FORMAT="${FORMAT:-q8}"
TREE_LIB="${TREE_LIB:-$BUILD_DIR/lib}"
CONFIG="${CONFIG:-$ROOT/python-free-examples/llm/llama-16l.json}"
THREADS="${THREADS:-1 2}"
ROUNDS="${ROUNDS:-5}"
NEW="${NEW:-64}"
for lib in "$BASE_LIB" "$TREE_LIB"; do
  [[ -f $lib/libRelaxRuntime.so ]] || { echo "decode-ab.sh: no $lib/libRelaxRuntime.so" >&2; exit 2; }
done
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# shellcheck source=ceiling-lib.sh
source "$ROOT/bench/llm/ceiling-lib.sh"
# decode LIB THREADS ENV: "tok/s,ms", the decode tokens/s and the CPU time
# of the decode steps (llama-generate's summary).
decode() {
  # shellcheck disable=SC2086 # ENV and WEIGHTS are lists of words
  env $3 LD_LIBRARY_PATH="$1" RELAX_NUM_THREADS="$2" OMP_NUM_THREADS="$2" \
    "$BIN/llama-generate" "$MODEL_DIR/model.so" \
    $WEIGHTS --prompt "$PROMPT" -n "$NEW" |
    sed -n -e 's/^decode: .*(\([0-9.]*\) tokens\/s), CPU \([0-9.]*\) ms.*/\1,\2/p' \
      -e 't' -e 's/^decode: .*(\([0-9.]*\) tokens\/s).*/\1/p'
}
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "model $MODEL_DIR ($FORMAT); base $BASE_LIB $BASE_ENV; tree $TREE_LIB $TREE_ENV"
echo "round threads ceiling base-tok/s tree-tok/s (order)"
for r in $(seq "$ROUNDS"); do
  for t in $THREADS; do
    c=$(ceiling "$t")
    # Odd rounds run the base first, even rounds the tree.
    if (( r % 2 )); then
      b=$(decode "$BASE_LIB" "$t" "$BASE_ENV"); n=$(decode "$TREE_LIB" "$t" "$TREE_ENV"); o=base-first
    else
      n=$(decode "$TREE_LIB" "$t" "$TREE_ENV"); b=$(decode "$BASE_LIB" "$t" "$BASE_ENV"); o=tree-first
    fi
    echo "$r $t $c $b $n $o"
  done
done | tee "$OUT/pairs"
/usr/bin/python3 - "$OUT/pairs" "$CONFIG" "$FORMAT" <<'PYEOF'
import collections, json, statistics, sys
pairs, config, fmt = sys.argv[1:4]
c = json.load(open(config))
h, inter, layers = c["hidden_size"], c["intermediate_size"], c["num_hidden_layers"]
kv = h // c["num_attention_heads"] * c["num_key_value_heads"]
elements = layers * (2 * h * h + 2 * h * kv + 3 * h * inter) + c["vocab_size"] * h
# Bytes of weights per element: int8 or packed int4 plus an f16 scale per
# 32, or f32.
token = elements * {"q8": 1.0 + 2 / 32, "q4": 0.5 + 2 / 32, "f32": 4.0}[fmt]
rows = collections.defaultdict(list)
clocks = collections.defaultdict(list)
for line in open(pairs):
    _, t, ceil, b, n, _ = line.split()
    # "tok/s,ms" ("tok/s" from a llama-generate older than its CPU time).
    b, n = b.split(","), n.split(",")
    rows[t].append((float(ceil), float(b[0]), float(n[0])))
    if len(b) == 2 and len(n) == 2:
        clocks[t].append((float(b[1]), float(n[1])))
print("| threads | base tok/s | tree tok/s | base GB/s (of ceiling) | tree GB/s (of ceiling) | tree / base (range) | base / tree decode CPU ms (ratio, range) |")
print("|---|---|---|---|---|---|---|")
for t, v in rows.items():
    med = statistics.median
    gb = lambda i: med(x[i] * token / 1e9 for x in v)
    frac = lambda i: med(x[i] * token / 1e9 / x[0] for x in v)
    ratio = [x[2] / x[1] for x in v]
    cr = [x[0] / x[1] for x in clocks[t]]
    cpu = (f"{med(x[0] for x in clocks[t]):.0f} / {med(x[1] for x in clocks[t]):.0f} "
           f"({med(cr):.3f}, {min(cr):.3f}-{max(cr):.3f})" if cr else "-")
    print(f"| {t} | {med(x[1] for x in v):.2f} | {med(x[2] for x in v):.2f} | "
          f"{gb(1):.1f} ({100 * frac(1):.0f}%) | {gb(2):.1f} ({100 * frac(2):.0f}%) | "
          f"{med(ratio):.3f} ({min(ratio):.3f}-{max(ratio):.3f}) | {cpu} |")
PYEOF
