#!/usr/bin/env bash
# A/B of the runtime's quantized products on a busy machine (issue 31):
# lib/Runtime's quantized kernels (CpuQuantGemv.cpp, CpuQuant*.cpp and the
# f32 kernels they include, CpuGemv*.cpp) of a git revision (BASE, default
# main) against the working tree's, both compiled into one program
# (quant_ab.cpp, each side in a namespace of its own) and called
# alternately, call by call, on f16-scaled weights (group 32) cycled beyond
# the last-level cache, with the read-only ceiling (read_bw.c's loop, on
# as many bytes as a product) measured before each pair of calls in the
# same process at the same thread count.
# Runs the whole list twice, the sides in both orders. The pool is the
# runtime's (libRelaxRuntime.so of BUILD_DIR, one pool for both sides).
#   ISA=avx512|avx2|generic (default avx512), FORMATS (q8,q4,q8a8,q4a8),
#   ROWS (14), THREADS (12), REPEATS (5), SHAPES ("N K" pairs, default
#   "2048 2048;256 2048;5632 2048;2048 5632": llama-16l's q/o, k/v,
#   gate/up and down), BUILD_DIR (default the tree's build), KEEP (a path
#   to copy the program to, to run it again: quant_ab ISA FORMATS ROWS
#   THREADS REPEATS SHAPES [swap], ISA 0 generic, 1 avx2, 2 avx512),
#   TILES (tree, base or both: that side's weights in QuantTiles.h's tiles,
#   the same bytes reordered; exported as QUANT_AB_TILES), BASE=worktree
#   (both sides the working tree's sources), BASE_CXXFLAGS and
#   TREE_CXXFLAGS (one side's extra flags, e.g. -DRELAX_TILE_PREFETCH=1),
#   SPAN_MB (the megabytes of weights cycled, default 256; 1 keeps a
#   256 x 2048 product's weights in L2 and times the arithmetic alone),
#   PAGES (huge, the default: weights and the ceiling's array in 2 MiB
#   pages where they span one, as the runtime keeps its weights; or 4k).
# Tiles against main's plain layout, one thread, q8 and q4:
#   TILES=tree FORMATS=q8,q4 ROWS=1 THREADS=1 bench/cpu/quant_ab.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BASE="${BASE:-main}"
ISA="${ISA:-avx512}"
FORMATS="${FORMATS:-q8,q4,q8a8,q4a8}"
ROWS="${ROWS:-14}"
THREADS="${THREADS:-12}"
REPEATS="${REPEATS:-5}"
SHAPES="${SHAPES:-2048 2048;256 2048;5632 2048;2048 5632}"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

case "$ISA" in
  avx512) isa=2 ;;
  avx2) isa=1 ;;
  generic) isa=0 ;;
  *) echo "quant_ab.sh: ISA must be avx512, avx2 or generic, not '$ISA'" >&2; exit 2 ;;
esac
runtime="$BUILD_DIR/lib/libRelaxRuntime.so"
[[ -f $runtime ]] || { echo "quant_ab.sh: no $runtime (build first)" >&2; exit 2; }

baseSrc="$OUT/base"
if [[ $BASE == worktree ]]; then
  baseSrc="$ROOT"
else
  mkdir -p "$OUT/base"
  git -C "$ROOT" archive "$BASE" lib/Runtime include/RelaxDialect/Runtime | tar -x -C "$OUT/base"
fi
cxx=(c++ -O3 -DNDEBUG -std=gnu++17 -w)
# One side: the kernel sources of lib/Runtime under $1 in namespace $2,
# with the extra flags $3.
side() {
  local src="$1" name="$2" extra=($3) objs=()
  [[ -f $src/include/RelaxDialect/Runtime/QuantTiles.h ]] && extra+=(-DAB_HAS_TILES)
  for f in "$src"/lib/Runtime/CpuGemv*.cpp "$src"/lib/Runtime/CpuQuant*.cpp "$ROOT/bench/cpu/quant_ab_side.cpp"; do
    local flags=()
    case "$(basename "$f")" in
      *Int8Avx512*) flags=(-mavx512f -mavx512bw -mavx512vnni -mf16c) ;;
      *Avx512*) flags=(-mavx512f) ;;
      *Avx2*) flags=(-mavx2 -mfma -mf16c) ;;
    esac
    local obj="$OUT/$name-$(basename "$f" .cpp).o"
    "${cxx[@]}" "${flags[@]}" "${extra[@]}" -Drelax="relax_ab_$name" -DAB_ENTRY="ab_${name}_linear" \
      -I "$src/lib/Runtime" -I "$src/include" -c "$f" -o "$obj" &
    objs+=("$obj")
  done
  wait
  printf '%s\n' "${objs[@]}" > "$OUT/$name.objs"
}
side "$baseSrc" base "${BASE_CXXFLAGS:-}"
side "$ROOT" tree "${TREE_CXXFLAGS:-}"
"${cxx[@]}" -march=native -I "$ROOT/include" "$ROOT/bench/cpu/quant_ab.cpp" \
  $(cat "$OUT/base.objs" "$OUT/tree.objs") "$runtime" -Wl,-rpath,"$(dirname "$runtime")" \
  -o "$OUT/quant_ab"
[[ -n ${KEEP:-} ]] && cp "$OUT/quant_ab" "$KEEP"

echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1);" \
  "$ISA; base $BASE ($(git -C "$ROOT" rev-parse --short "${BASE/#worktree/HEAD}")) ${BASE_CXXFLAGS:-} against" \
  "the working tree ${TREE_CXXFLAGS:-}; tiles: ${TILES:-none}; $(date -u '+%Y-%m-%d %H:%M UTC'); load average" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"
export RELAX_NUM_THREADS="${RELAX_NUM_THREADS:-2}"
export QUANT_AB_TILES="${TILES:-}"
export QUANT_AB_SPAN_MB="${SPAN_MB:-256}"
export QUANT_AB_PAGES="${PAGES:-huge}"
for order in base-first tree-first; do
  swap=""
  [[ $order == tree-first ]] && swap=s
  echo "## $order"
  "$OUT/quant_ab" "$isa" "$FORMATS" "$ROWS" "$THREADS" "$REPEATS" "$SHAPES" $swap
done
