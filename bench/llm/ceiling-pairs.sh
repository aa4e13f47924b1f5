#!/usr/bin/env bash
# Quantized decode against the read-only ceiling of the same minute
# (issue 31): on this kind of VM the memory ceiling moves by 10% (one
# thread) to 50% (two threads) within minutes, so a ceiling measured once
# per report says little about a run made minutes later. Each
# llama-generate run here sits between two read-only measurements
# (bench/cpu/read_bw.c, 256 MiB, its thread count) and is reported as the
# fraction of their mean; ROUNDS rounds, medians and ranges per format and
# thread count.
#
# Needs the models of bench/llm/quant.sh: WORK=DIR of a quant.sh run with
# WORK=DIR (DIR/<config>-<format>/model.so), e.g.
#   WORK=/tmp/q REUSE=1 FORMATS="q8 q4a8" bench/llm/quant.sh
#   WORK=/tmp/q FORMATS="q8 q4a8" bench/llm/ceiling-pairs.sh
# LAYOUT=tiles takes the tiled models of a LAYOUT=tiles quant.sh run
# (DIR/<config>-<format>-tiles); the bytes a token reads are the same.
# Environment: CONFIG (default python-free-examples/llm/llama-16l.json),
# LAYOUT (plain or tiles; default plain),
# FORMATS (q8 q8a8 q4a8), THREADS (1 2), ROUNDS (5), NEW (48 tokens), SEED
# (1, quant.sh's).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
: "${WORK:?WORK=DIR of a bench/llm/quant.sh run with WORK=DIR}"
CONFIG="${CONFIG:-$ROOT/python-free-examples/llm/llama-16l.json}"
name=$(basename "$CONFIG" .json)
FORMATS="${FORMATS:-q8 q8a8 q4a8}"
THREADS="${THREADS:-1 2}"
ROUNDS="${ROUNDS:-5}"
NEW="${NEW:-48}"
SEED="${SEED:-1}"
LAYOUT="${LAYOUT:-plain}"
case "$LAYOUT" in
  plain) layout_suffix="" ;;
  tiles) layout_suffix="-tiles" ;;
  *) echo "ceiling-pairs.sh: LAYOUT must be plain or tiles, not '$LAYOUT'" >&2; exit 2 ;;
esac
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# shellcheck source=ceiling-lib.sh
source "$ROOT/bench/llm/ceiling-lib.sh"
echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg); weight layout $LAYOUT"
for r in $(seq "$ROUNDS"); do
  for f in $FORMATS; do
    dir="$WORK/$name-$f$layout_suffix"
    [[ -s "$dir/model.so" ]] || { echo "no $dir/model.so: run quant.sh with WORK=$WORK LAYOUT=$LAYOUT" >&2; exit 1; }
    for t in $THREADS; do
      before=$(ceiling "$t")
      tps=$(RELAX_NUM_THREADS="$t" OMP_NUM_THREADS="$t" "$BIN/llama-generate" \
              "$dir/model.so" --random-weights "$SEED" --quantize "${f%a8}" \
              --prompt "$PROMPT" -n "$NEW" |
            sed -n 's/^decode: .*(\([0-9.]*\) tokens\/s).*/\1/p')
      after=$(ceiling "$t")
      echo "$f $t $before $tps $after"
    done
  done
done > "$OUT/pairs"
# GB/s counts the quantized bytes of a token: every product's weight
# (q, k, v, o, gate, up, down per layer and the LM head) at 1 + 2/32 bytes
# an element (8 bits, an f16 scale per 32) or 0.5 + 2/32 (4 bits).
python3 - "$OUT/pairs" "$CONFIG" <<'PYEOF'
import collections, json, statistics, sys
pairs, config = sys.argv[1:3]
c = json.load(open(config))
h, inter, layers = c["hidden_size"], c["intermediate_size"], c["num_hidden_layers"]
kv = h // c["num_attention_heads"] * c["num_key_value_heads"]
elements = layers * (2 * h * h + 2 * h * kv + 3 * h * inter) + c["vocab_size"] * h
def token_bytes(fmt):
    return elements * ((1.0 if fmt.startswith("q8") else 0.5) + 2 / 32)
rows = collections.defaultdict(list)
for line in open(pairs):
    f, t, before, tps, after = line.split()
    gbs = float(tps) * token_bytes(f) / 1e9
    rows[(f, t)].append((float(tps), gbs, gbs / ((float(before) + float(after)) / 2)))
print("| format | threads | decode tok/s | GB/s | of the read-only ceiling (range) |")
print("|---|---|---|---|---|")
for (f, t), v in rows.items():
    med = lambda i: statistics.median(x[i] for x in v)
    print(f"| {f} | {t} | {med(0):.2f} | {med(1):.1f} | {100 * med(2):.0f}% "
          f"({100 * min(x[2] for x in v):.0f}-{100 * max(x[2] for x in v):.0f}%) |")
PYEOF
