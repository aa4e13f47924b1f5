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
#   bench/llm/quant.sh WORK's llama-16l-q8), FORMAT (q8 or q4: the bits of
#   the weights, for the bytes a token reads), BASE_LIB, TREE_LIB,
#   CONFIG (python-free-examples/llm/llama-16l.json), THREADS ("1 2"),
#   ROUNDS (5), NEW (64 tokens)
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
: "${MODEL_DIR:?MODEL_DIR=a folder with model.so and weights.safetensors}"
: "${BASE_LIB:?BASE_LIB=the folder of the base libRelaxRuntime.so}"
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
decode() {
  LD_LIBRARY_PATH="$1" RELAX_NUM_THREADS="$2" OMP_NUM_THREADS="$2" \
    "$BIN/llama-generate" "$MODEL_DIR/model.so" \
    --weights "$MODEL_DIR/weights.safetensors" --prompt "$PROMPT" -n "$NEW" |
    sed -n 's/^decode: .*(\([0-9.]*\) tokens\/s).*/\1/p'
}
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "model $MODEL_DIR ($FORMAT); base $BASE_LIB; tree $TREE_LIB"
echo "round threads ceiling base-tok/s tree-tok/s (order)"
for r in $(seq "$ROUNDS"); do
  for t in $THREADS; do
    c=$(ceiling "$t")
    # Odd rounds run the base first, even rounds the tree.
    if (( r % 2 )); then
      b=$(decode "$BASE_LIB" "$t"); n=$(decode "$TREE_LIB" "$t"); o=base-first
    else
      n=$(decode "$TREE_LIB" "$t"); b=$(decode "$BASE_LIB" "$t"); o=tree-first
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
token = elements * ((1.0 if fmt == "q8" else 0.5) + 2 / 32)
rows = collections.defaultdict(list)
for line in open(pairs):
    _, t, ceil, b, n, _ = line.split()
    rows[t].append((float(ceil), float(b), float(n)))
print("| threads | base tok/s | tree tok/s | base GB/s (of ceiling) | tree GB/s (of ceiling) | tree / base (range) |")
print("|---|---|---|---|---|---|")
for t, v in rows.items():
    med = statistics.median
    gb = lambda i: med(x[i] * token / 1e9 for x in v)
    frac = lambda i: med(x[i] * token / 1e9 / x[0] for x in v)
    ratio = [x[2] / x[1] for x in v]
    print(f"| {t} | {med(x[1] for x in v):.2f} | {med(x[2] for x in v):.2f} | "
          f"{gb(1):.1f} ({100 * frac(1):.0f}%) | {gb(2):.1f} ({100 * frac(2):.0f}%) | "
          f"{med(ratio):.3f} ({min(ratio):.3f}-{max(ratio):.3f}) |")
PYEOF
