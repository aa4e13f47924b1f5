#!/usr/bin/env bash
# Convolution layers of ResNet-18 (batch 3) and ResNet-50 (batch 1) at the
# AVX2 cap, one thread (docs/perf.md, "Convolutions under the AVX2 cap"):
#   1. conv_impls.cpp: every implementation oneDNN 2.6 offers per shape
#      (ONEDNN_MAX_CPU_ISA=AVX2), the 3x3, 7x7 and 1x1 layers;
#   2. conv_layers.cpp: the runtime's fused convolution on conv-private
#      operands, the 3x3 stride-1 layers, its direct (oneDNN) and Winograd
#      paths (RELAX_CONV_WINOGRAD=0 / 2 / 4: direct, F(2x2, 3x3), F(4x4,
#      3x3)) alternated ROUNDS times.
# Needs the build's libRelaxRuntime (BUILD_DIR, default build) and oneDNN's
# headers (libdnnl-dev). Environment: ROUNDS (3), ITERS (10), ISA (avx2).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
ROUNDS="${ROUNDS:-3}"
ITERS="${ITERS:-10}"
ISA="${ISA:-avx2}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
c++ -O2 -o "$OUT/conv_impls" "$HERE/conv_impls.cpp" -ldnnl
c++ -O2 -o "$OUT/conv_layers" "$HERE/conv_layers.cpp" \
  -L"$BUILD_DIR/lib" -lRelaxRuntime -Wl,-rpath,"$BUILD_DIR/lib"

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "## oneDNN's implementations (ONEDNN_MAX_CPU_ISA=${ISA^^}, one thread)"
# batch, in, out, height, width, window, stride, padding
OMP_NUM_THREADS=1 ONEDNN_MAX_CPU_ISA="${ISA^^}" "$OUT/conv_impls" "$ITERS" <<'SHAPES'
3 64 64 56 56 3 1 1
3 128 128 28 28 3 1 1
3 256 256 14 14 3 1 1
3 512 512 7 7 3 1 1
3 64 128 56 56 3 2 1
3 3 64 224 224 7 2 3
1 256 1024 14 14 1 1 0
1 1024 256 14 14 1 1 0
1 512 2048 7 7 1 1 0
1 2048 512 7 7 1 1 0
SHAPES
echo "## the runtime's fused convolution, direct and Winograd (RELAX_MAX_CPU_ISA=$ISA, one thread)"
for r in $(seq "$ROUNDS"); do
  for wg in 0 2 4; do
    echo "round $r, RELAX_CONV_WINOGRAD=$wg"
    RELAX_CONV_WINOGRAD=$wg RELAX_MAX_CPU_ISA="$ISA" RELAX_NUM_THREADS=1 \
      "$OUT/conv_layers" "$ITERS" <<'SHAPES'
3 64 64 56 56
3 128 128 28 28
3 256 256 14 14
3 512 512 7 7
1 64 64 56 56
1 128 128 28 28
1 256 256 14 14
1 512 512 7 7
SHAPES
  done
done
