#!/usr/bin/env bash
# Plain against tiled quantized weights (issue 31): the working tree's
# quantized kernels (lib/Runtime's CpuQuantGemv.cpp, CpuQuant*.cpp and the
# f32 kernels they include, CpuGemv*.cpp) compiled into one program
# (quant_tiles_ab.cpp, in a namespace of its own) that calls them
# alternately, call by call, on the same f16-scaled weights (group 32) in
# the plain layout and in tiles (QuantTiles.h), cycled beyond the
# last-level cache, with the read-only ceiling measured before each pair of
# calls in the same process at the same thread count. Runs the whole list
# twice, the layouts in both orders. The pool is the runtime's
# (libRelaxRuntime.so of BUILD_DIR).
#   ISA=avx512|avx2|generic (default avx512), FORMATS (q8a8,q4a8), ROWS (1),
#   THREADS (12), REPEATS (5), SHAPES ("N K" pairs, default "2048 2048;256
#   2048;5632 2048;2048 5632": llama-16l's q/o, k/v, gate/up and down),
#   PREFETCH (bytes: the int8 tile kernels prefetch each tile's lines that
#   far ahead, RELAX_TILES_PREFETCH_BYTES; default 0, none), BUILD_DIR
#   (default the tree's build), KEEP (a path to copy the program to, to run
#   it again: quant_tiles_ab ISA FORMATS ROWS THREADS REPEATS SHAPES [swap],
#   ISA 0 generic, 1 avx2, 2 avx512).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
ISA="${ISA:-avx512}"
FORMATS="${FORMATS:-q8a8,q4a8}"
ROWS="${ROWS:-1}"
THREADS="${THREADS:-12}"
REPEATS="${REPEATS:-5}"
SHAPES="${SHAPES:-2048 2048;256 2048;5632 2048;2048 5632}"
PREFETCH="${PREFETCH:-0}"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

case "$ISA" in
  avx512) isa=2 ;;
  avx2) isa=1 ;;
  generic) isa=0 ;;
  *) echo "quant_tiles_ab.sh: ISA must be avx512, avx2 or generic, not '$ISA'" >&2; exit 2 ;;
esac
runtime="$BUILD_DIR/lib/libRelaxRuntime.so"
[[ -f $runtime ]] || { echo "quant_tiles_ab.sh: no $runtime (build first)" >&2; exit 2; }

cxx=(c++ -O3 -DNDEBUG -std=gnu++17 -w -Drelax=relax_tiles_ab
     -DRELAX_TILES_PREFETCH_BYTES="$PREFETCH" -I "$ROOT/lib/Runtime"
     -I "$ROOT/include" -I "$ROOT/bench/cpu")
objs=()
for f in "$ROOT"/lib/Runtime/CpuGemv*.cpp "$ROOT"/lib/Runtime/CpuQuant*.cpp \
         "$ROOT/bench/cpu/quant_tiles_ab.cpp"; do
  flags=()
  case "$(basename "$f")" in
    *Int8Avx512*) flags=(-mavx512f -mavx512bw -mavx512vnni -mf16c) ;;
    *Avx512*) flags=(-mavx512f) ;;
    *Avx2*) flags=(-mavx2 -mfma -mf16c) ;;
  esac
  obj="$OUT/$(basename "$f" .cpp).o"
  "${cxx[@]}" "${flags[@]}" -c "$f" -o "$obj" &
  objs+=("$obj")
done
wait
c++ "${objs[@]}" "$runtime" -Wl,-rpath,"$(dirname "$runtime")" -o "$OUT/quant_tiles_ab"
[[ -n ${KEEP:-} ]] && cp "$OUT/quant_tiles_ab" "$KEEP"

echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1);" \
  "$ISA; $(git -C "$ROOT" rev-parse --short HEAD)$(git -C "$ROOT" diff --quiet || echo +changes);" \
  "tile prefetch $PREFETCH bytes; $(date -u '+%Y-%m-%d %H:%M UTC'); load average" \
  "$(cut -d' ' -f1-3 /proc/loadavg)"
export RELAX_NUM_THREADS="${RELAX_NUM_THREADS:-2}"
for order in plain-first tiles-first; do
  swap=""
  [[ $order == tiles-first ]] && swap=s
  echo "## $order"
  "$OUT/quant_tiles_ab" "$isa" "$FORMATS" "$ROWS" "$THREADS" "$REPEATS" "$SHAPES" $swap
done
