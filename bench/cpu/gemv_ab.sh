#!/usr/bin/env bash
# A/B of the runtime's few-row product kernels on a busy machine (issue
# 28): lib/Runtime/CpuGemvKernels.inc of a git revision (BASE, default
# main) against the working tree's, both compiled into one program
# (gemv_ab.cpp) and called alternately, call by call, on weights beyond the
# last-level cache; the medians of each call's thread CPU time (memory
# stalls included, time descheduled left out) and wall time. Runs each
# shape twice, the sides in both orders. The thread CPU time is what to
# compare while other processes load the machine; the one-core FMA peak
# (fma_peak.c, in wall and in thread CPU time) is measured before and after,
# the ceiling of the GFLOP/s of several rows; a quiet run of
# bench/cpu/roofline.sh gives the fractions of the roofline.
#   ISA=avx512|avx2 (default avx512), REPEATS (5), ROWS (comma-separated,
#   1 to 32; default 1,2,3,4; more than 4 rows run the [n, k] layout only),
#   LAYOUTS (kn,nk), THREADS (1; more: the runtime's pieces of columns, the
#   CPU time summed over the threads), SHAPES ("K N" pairs, default
#   "2048 5632;4096 11008;5632 2048;8192 1024").
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BASE="${BASE:-main}"
ISA="${ISA:-avx512}"
REPEATS="${REPEATS:-5}"
ROWS="${ROWS:-1,2,3,4}"
THREADS="${THREADS:-1}"
LAYOUTS="${LAYOUTS:-kn,nk}"
SHAPES="${SHAPES:-2048 5632;4096 11008;5632 2048;8192 1024}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

git -C "$ROOT" show "$BASE:lib/Runtime/CpuGemvKernels.inc" > "$OUT/base.inc"
case "$ISA" in
  avx512) flags=(-mavx512f -DAB_AVX512) ;;
  avx2) flags=(-mavx2 -mfma -mf16c) ;;
  *) echo "gemv_ab.sh: ISA must be avx512 or avx2, not '$ISA'" >&2; exit 2 ;;
esac
c++ -O3 -std=gnu++17 "${flags[@]}" -I "$ROOT/lib/Runtime" -DBASE_INC="\"$OUT/base.inc\"" \
  -DTREE_INC="\"$ROOT/lib/Runtime/CpuGemvKernels.inc\"" \
  "$ROOT/bench/cpu/gemv_ab.cpp" -o "$OUT/gemv_ab" -pthread
cc -O2 -o "$OUT/fma_peak" "$ROOT/bench/cpu/fma_peak.c"

echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1);" \
  "$ISA; base $BASE ($(git -C "$ROOT" rev-parse --short "$BASE")) against" \
  "the working tree; $(date -u '+%Y-%m-%d %H:%M UTC'); load average" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"
"$OUT/fma_peak" 5 "$ISA"
IFS=';' read -ra shapes <<< "$SHAPES"
for shape in "${shapes[@]}"; do
  read -r k n <<< "$shape"
  for order in base-first tree-first; do
    swap=""
    [[ $order == tree-first ]] && swap=s
    echo "## $k x $n, $order"
    "$OUT/gemv_ab" "$k" "$n" "$REPEATS" "$LAYOUTS" "$ROWS" "${swap:--}" \
      "$THREADS" | grep 'm='
  done
done
"$OUT/fma_peak" 5 "$ISA"
