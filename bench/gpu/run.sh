#!/usr/bin/env bash
# GPU tests and benchmarks in one go (about 3 minutes on an H100-class GPU
# after the build; every step has a timeout, so the whole run ends well
# within 8 minutes or fails, never hangs):
#   0. fail at once, with the reason, when there is no usable CUDA GPU
#   1. build (scripts/build.sh)
#   2. the GPU execution tests: lit build/test/lit/GPU (numpy references)
#   3. elementwise bandwidth: c = a + b over n floats, GB/s (12 bytes/elem)
#   4. reductions over a symbolic axis: row sums and softmax of [m, k]
#   5. matmul [m, k] x [k, n] f32: --lower-to-gpu (16x16 shared-memory
#      tiles) vs cublasSgemm called directly, and through the relax_cublas
#      built-in (--relax-dispatch-library=target=cuda)
#   6. Llama-style decoder block (python-free-examples/llama_block.mlir)
#      latency at s = 1 (decode-like) and s = 128 (prefill)
# relax-run --benchmark gives two figures per module: the median whole call
# (device allocation of outputs and intermediates, one stream sync per
# launch) and the median summed kernel time (CUDA events around each
# launch). Writes bench/gpu/report.md (REPORT=... to change).
set -uo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/gpu"
REPORT="${REPORT:-$HERE/report.md}"
RUNS="${RUNS:-20}"
N="${N:-16777216}"
RED="${RED:-4096 4096}"
MM="${MM:-1024 1024 1024}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

die() { echo "bench/gpu/run.sh: error: $*" >&2; exit 1; }

# 0. A GPU, before spending minutes on a build.
if ! command -v nvidia-smi > /dev/null; then
  die "no CUDA GPU: nvidia-smi not found (no NVIDIA driver installed)"
fi
if ! timeout 30 nvidia-smi -L > "$OUT/gpus" 2>&1 || ! grep -q "^GPU" "$OUT/gpus"; then
  die "no CUDA GPU: nvidia-smi -L says: $(head -1 "$OUT/gpus")"
fi

# 1. Build.
timeout 360 env JOBS="${JOBS:-$(nproc)}" "$ROOT/scripts/build.sh" > "$OUT/build.log" 2>&1 \
  || { tail -20 "$OUT/build.log"; die "build failed or took over 6 minutes"; }
timeout 60 "$BIN/relax-run" --device cuda "$HERE/add.mlir" --random-inputs --dim n=1 \
  > "$OUT/probe" 2>&1 || die "relax-run --device cuda cannot run: $(tail -1 "$OUT/probe")"

# 2. GPU execution tests.
LIT="${LIT:-/usr/lib/llvm-22/bin/lit}"
timeout 240 "$LIT" -v "$BUILD_DIR/test/lit/GPU" > "$OUT/lit.log" 2>&1
lit_rc=$?
lit_summary=$(grep -E "^ *(Passed|Failed|Unsupported|Unresolved|Timed Out) *:" "$OUT/lit.log" | tr -s ' ' | paste -sd, -)
[ $lit_rc -eq 124 ] && lit_summary="timed out after 240 s; $lit_summary"
[ -z "$lit_summary" ] && lit_summary="lit did not run: $(tail -1 "$OUT/lit.log")"
failed_tests=$(grep -E "^  RELAX :: " "$OUT/lit.log" | sed 's/^ *//' | paste -sd' ' -)

# relax-run --benchmark: "call_ms kernel_ms" (medians) or "- -".
bench() {
  local log="$OUT/bench.$RANDOM"
  if timeout 120 "$BIN/relax-run" --device cuda "$@" --benchmark "$RUNS" > "$log" 2>&1; then
    local call kern
    call=$(sed -n 's/^benchmark:.*median \([0-9.]*\) ms.*/\1/p' "$log")
    kern=$(sed -n 's/^gpu kernels:.*median \([0-9.]*\) ms.*/\1/p' "$log")
    echo "${call:--} ${kern:--}"
  else
    echo "failed: $(tail -1 "$log")" >&2
    echo "- -"
  fi
}
gbs() { awk -v ms="$1" -v bytes="$2" 'BEGIN { if (ms == "-" || ms == 0) print "-"; else printf "%.1f", bytes / (ms * 1e6) }'; }
gflops() { awk -v ms="${1:--}" -v f="$2" 'BEGIN { if (ms == "-" || ms == 0) print "-"; else printf "%.1f", f / (ms * 1e6) }'; }

# 3-6.
read -r add_call add_kern <<< "$(bench "$HERE/add.mlir" --random-inputs --dim n="$N")"
read -r M K <<< "$RED"
read -r red_call red_kern <<< "$(bench "$HERE/reduction.mlir" --random-inputs --dim m="$M" --dim k="$K")"
read -r GM GK GN <<< "$MM"
read -r mm_call mm_kern <<< "$(bench "$HERE/matmul.mlir" --random-inputs --dim m="$GM" --dim k="$GK" --dim n="$GN")"
"$BIN/relax-opt" --relax-dispatch-library=target=cuda "$HERE/matmul.mlir" -o "$OUT/matmul_cublas.mlir"
read -r mmb_call mmb_kern <<< "$(bench "$OUT/matmul_cublas.mlir" --random-inputs --dim m="$GM" --dim k="$GK" --dim n="$GN")"
cublas="-"
if command -v nvcc > /dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  if timeout 120 "$NVCC" -O2 -o "$OUT/cublas_gemm" "$HERE/cublas_gemm.cu" -lcublas > "$OUT/nvcc.log" 2>&1; then
    cublas=$(timeout 60 "$OUT/cublas_gemm" "$GM" "$GK" "$GN" "$RUNS" | median_ms)
    cublas=${cublas:--}
  fi
fi
read -r l1_call l1_kern <<< "$(bench "$ROOT/python-free-examples/llama_block.mlir" --random-inputs --dim s=1)"
read -r l128_call l128_kern <<< "$(bench "$ROOT/python-free-examples/llama_block.mlir" --random-inputs --dim s=128)"
read -r f1_call f1_kern <<< "$(bench "$ROOT/python-free-examples/llama_block.mlir" --fuse --random-inputs --dim s=1)"
read -r f128_call f128_kern <<< "$(bench "$ROOT/python-free-examples/llama_block.mlir" --fuse --random-inputs --dim s=128)"

gpu=$(head -1 "$OUT/gpus")
flops=$((2 * GM * GK * GN))
{
  echo "# GPU benchmark report"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $gpu, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')."
  echo "Command: \`bench/gpu/run.sh\` (RUNS=$RUNS). Default schedules of --lower-to-gpu (docs/gpu.md)."
  echo
  echo "GPU tests (lit build/test/lit/GPU): $lit_summary"
  [ -n "$failed_tests" ] && echo "Failed or unresolved: $failed_tests"
  echo
  echo "| benchmark | kernels (median) | whole call (median) | figure |"
  echo "|---|---|---|---|"
  echo "| elementwise add, n = $N f32 | $add_kern ms | $add_call ms | $(gbs "$add_kern" $((12 * N))) GB/s (kernel time) |"
  echo "| row sums + softmax of [$M, $K] f32 | $red_kern ms | $red_call ms | $(gbs "$red_kern" $((4 * M * K * 5))) GB/s effective (5 passes over x) |"
  echo "| matmul ${GM}x${GK}x${GN} f32 | $mm_kern ms | $mm_call ms | $(gflops "$mm_kern" $flops) GFLOP/s; cublasSgemm $cublas ms ($(gflops "$cublas" $flops) GFLOP/s) |"
  echo "| same via --relax-dispatch-library=target=cuda (relax_cublas built-in) | - | $mmb_call ms | whole call incl. output allocation |"
  echo "| Llama-style block, s = 1 | $l1_kern ms | $l1_call ms | decode-like latency |"
  echo "| Llama-style block, s = 128 | $l128_kern ms | $l128_call ms | prefill latency |"
  echo "| Llama-style block fused (--fuse), s = 1 | $f1_kern ms | $f1_call ms | decode-like latency, --relax-fuse-ops |"
  echo "| Llama-style block fused (--fuse), s = 128 | $f128_kern ms | $f128_call ms | prefill latency, --relax-fuse-ops |"
} > "$REPORT"
cat "$REPORT"
[ $lit_rc -eq 0 ] || die "GPU tests failed (see $REPORT)"
