#!/usr/bin/env bash
# GPU tests and benchmarks in one command, within BUDGET seconds (570 by
# default: under 10 minutes with the report written). Every step has its own
# timeout and never runs past what is left of the budget, so the run ends,
# report written, or fails with the reason; it never hangs. Needs nothing
# from the network: the packages of scripts/install-deps.sh (checked, not
# installed) and the CUDA driver; no pip, no download (the SASS tests are
# UNSUPPORTED without a toolkit cuobjdump).
#   0. stop at once, exit 1 with the reason, when there is no usable CUDA
#      GPU (before any build)
#   1. build (cmake + ninja on every core; a no-op when build/ is current)
#   2. every GPU test: lit build/test/lit/GPU (execution tests vs numpy,
#      the CPU emulation of the schedules, ptxas and SASS checks)
#   3. bandwidth: c = a + b over n f32 (128-bit accesses), GB/s
#   4. reductions over a symbolic axis: row sums and softmax of [m, k]
#   5. GEMM: f32 [m, k] x [k, n] generated (16 x 16 tiles) vs cublasSgemm
#      and the relax_cublas built-in; f16 linear generated (tensor cores:
#      wgmma on an H100 / H200, mma.sync elsewhere) vs the same product
#      through cuBLAS (library-gemms=all)
#   6. decode GEMV [1, k] x [n, k]^T, f32 and f16: k = 4096 (128-bit loads)
#      and k = 4097 (the scalar version), GB/s of weights
#   7. Llama decode: llama-generate has no --device cuda, so the
#      Llama-style decoder block (python-free-examples/llama_block.mlir)
#      at s = 1 (a decode step of one layer: tok/s of a 32-layer model
#      estimated as 1000 / (32 x ms)) and s = 128, unfused and --fuse
#   8. attention (bench/gpu/attention.mlir: a Llama head, f16, 32 query
#      heads over 8, d = 128, causal): prefill at s = ATT tokens (flash
#      attention on tensor cores), TFLOP/s of the causal half; decode of one
#      query over ATT cached keys (split over the keys), GB/s of K and V
# relax-run --benchmark gives two figures per module: the median whole call
# and the median summed kernel time (CUDA events around each launch).
# Writes bench/gpu/report.md (REPORT=... to change). NVIDIA_SMI names the
# nvidia-smi to ask (tests point it elsewhere).
set -uo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/gpu"
REPORT="${REPORT:-$HERE/report.md}"
RUNS="${RUNS:-20}"
N="${N:-16777216}"
RED="${RED:-4096 4096}"
MM="${MM:-1024 1024 1024}"
MM16="${MM16:-4096 4096 4096}"
GEMV="${GEMV:-4096 4096}"
ATT="${ATT:-4096}"
BUDGET="${BUDGET:-570}"
NVIDIA_SMI="${NVIDIA_SMI:-nvidia-smi}"
START=$(date +%s)
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

die() { echo "bench/gpu/run.sh: error: $*" >&2; exit 1; }

# Seconds a step may take: its own limit, or what is left of the budget
# (less 15 s for the report), whichever is smaller; at least 1 (timeout 0
# would mean no limit).
limit() {
  local left=$((BUDGET - ($(date +%s) - START) - 15))
  ((left < 1)) && left=1
  echo $(($1 < left ? $1 : left))
}

# 0. A GPU, before spending minutes on a build.
if ! command -v "$NVIDIA_SMI" > /dev/null; then
  die "no CUDA GPU: $NVIDIA_SMI not found (no NVIDIA driver installed)"
fi
if ! timeout 30 "$NVIDIA_SMI" -L > "$OUT/gpus" 2>&1 || ! grep -q "^GPU" "$OUT/gpus"; then
  die "no CUDA GPU: $NVIDIA_SMI -L says: $(head -1 "$OUT/gpus")"
fi

# 1. Build: packages checked (install-deps.sh exits 1 naming what is
#    missing when it cannot install; it only installs as root), then cmake.
#    No scripts/build.sh: its install-cuda-tools step may download.
if ! timeout 60 "$ROOT/scripts/install-deps.sh" > "$OUT/deps.log" 2>&1; then
  tail -5 "$OUT/deps.log"
  die "packages missing (scripts/install-deps.sh)"
fi
export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=1
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  timeout "$(limit 120)" cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release > "$OUT/build.log" 2>&1 \
    || { tail -20 "$OUT/build.log"; die "cmake failed or ran out of time"; }
fi
timeout "$(limit 330)" cmake --build "$BUILD_DIR" -j "${JOBS:-$(nproc)}" >> "$OUT/build.log" 2>&1 \
  || { tail -20 "$OUT/build.log"; die "build failed or took over $(limit 330) s"; }
timeout 60 "$BIN/relax-run" --device cuda "$HERE/add.mlir" --random-inputs --dim n=1 \
  > "$OUT/probe" 2>&1 || die "relax-run --device cuda cannot run: $(tail -1 "$OUT/probe")"

# 2. Every GPU test.
LIT="${LIT:-/usr/lib/llvm-22/bin/lit}"
t=$(limit 200)
timeout "$t" "$LIT" -v "$BUILD_DIR/test/lit/GPU" > "$OUT/lit.log" 2>&1
lit_rc=$?
lit_summary=$(grep -E "^ *(Passed|Failed|Unsupported|Unresolved|Timed Out) *:" "$OUT/lit.log" | tr -s ' ' | paste -sd, -)
[ $lit_rc -eq 124 ] && lit_summary="timed out after $t s; $lit_summary"
[ -z "$lit_summary" ] && lit_summary="lit did not run: $(tail -1 "$OUT/lit.log")"
failed_tests=$(grep -E "^  RELAX :: " "$OUT/lit.log" | sed 's/^ *//' | paste -sd' ' -)

# relax-run --benchmark: "call_ms kernel_ms" (medians) or "- -" (failed,
# or no time left: named in the report).
bench() {
  local log="$OUT/bench.$RANDOM" t
  t=$(limit 90)
  if ((t < 5)); then
    echo "$*" >> "$OUT/skipped"   # bench runs in a subshell: a file, not an array
    echo "- -"
    return
  fi
  if timeout "$t" "$BIN/relax-run" --device cuda "$@" --benchmark "$RUNS" > "$log" 2>&1; then
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
toks() { awk -v ms="$1" 'BEGIN { if (ms == "-" || ms == 0) print "-"; else printf "%.0f", 1000 / (32 * ms) }'; }

# 3-4.
read -r add_call add_kern <<< "$(bench "$HERE/add.mlir" --random-inputs --dim n="$N")"
read -r M K <<< "$RED"
read -r red_call red_kern <<< "$(bench "$HERE/reduction.mlir" --random-inputs --dim m="$M" --dim k="$K")"

# 5. GEMMs.
read -r GM GK GN <<< "$MM"
read -r mm_call mm_kern <<< "$(bench "$HERE/matmul.mlir" --random-inputs --dim m="$GM" --dim k="$GK" --dim n="$GN")"
"$BIN/relax-opt" --relax-dispatch-library="target=cuda library-gemms=all" "$HERE/matmul.mlir" -o "$OUT/matmul_cublas.mlir"
read -r mmb_call mmb_kern <<< "$(bench "$OUT/matmul_cublas.mlir" --random-inputs --dim m="$GM" --dim k="$GK" --dim n="$GN")"
cublas="-"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$NVCC" ] && t=$(limit 90) && ((t > 10)); then
  if timeout "$t" "$NVCC" -O2 -o "$OUT/cublas_gemm" "$HERE/cublas_gemm.cu" -lcublas > "$OUT/nvcc.log" 2>&1; then
    cublas=$(timeout "$(limit 60)" "$OUT/cublas_gemm" "$GM" "$GK" "$GN" "$RUNS" | median_ms)
    cublas=${cublas:--}
  fi
fi
read -r HM HK HN <<< "$MM16"
read -r tc_call tc_kern <<< "$(bench "$HERE/matmul_f16.mlir" --random-inputs --dim m="$HM" --dim k="$HK" --dim n="$HN")"
"$BIN/relax-opt" --relax-dispatch-library="target=cuda library-gemms=all" "$HERE/matmul_f16.mlir" -o "$OUT/matmul_f16_cublas.mlir"
read -r tcb_call tcb_kern <<< "$(bench "$OUT/matmul_f16_cublas.mlir" --random-inputs --dim m="$HM" --dim k="$HK" --dim n="$HN")"

# 6. Decode GEMV: the 128-bit version (k % 8 == 0) and the scalar one.
read -r VK VN <<< "$GEMV"
read -r g32_call g32_kern <<< "$(bench "$HERE/gemv.mlir" --entry gemv_f32 --random-inputs --dim s=1 --dim k="$VK" --dim n="$VN")"
read -r g32s_call g32s_kern <<< "$(bench "$HERE/gemv.mlir" --entry gemv_f32 --random-inputs --dim s=1 --dim k=$((VK + 1)) --dim n="$VN")"
read -r g16_call g16_kern <<< "$(bench "$HERE/gemv.mlir" --entry gemv_f16 --random-inputs --dim s=1 --dim k="$VK" --dim n="$VN")"
read -r g16s_call g16s_kern <<< "$(bench "$HERE/gemv.mlir" --entry gemv_f16 --random-inputs --dim s=1 --dim k=$((VK + 1)) --dim n="$VN")"

# 7. Llama-style block.
LLAMA="$ROOT/python-free-examples/llama_block.mlir"
read -r l1_call l1_kern <<< "$(bench "$LLAMA" --random-inputs --dim s=1)"
read -r f1_call f1_kern <<< "$(bench "$LLAMA" --fuse --random-inputs --dim s=1)"
read -r l128_call l128_kern <<< "$(bench "$LLAMA" --random-inputs --dim s=128)"
read -r f128_call f128_kern <<< "$(bench "$LLAMA" --fuse --random-inputs --dim s=128)"

# 8. Attention: prefill and decode of a Llama head.
read -r ap_call ap_kern <<< "$(bench "$HERE/attention.mlir" --entry prefill --random-inputs --dim s="$ATT")"
read -r ad_call ad_kern <<< "$(bench "$HERE/attention.mlir" --entry decode --random-inputs --dim t="$ATT")"

gpu=$(head -1 "$OUT/gpus")
flops=$((2 * GM * GK * GN))
flops16=$((2 * HM * HK * HN))
# Causal prefill: Q K^T and P V over the s (s + 1) / 2 visible pairs, 32
# heads of 128. Decode: K and V read once, 8 heads of 128 f16.
att_flops=$((2 * 2 * 32 * 128 * ATT * (ATT + 1) / 2))
att_bytes=$((2 * 2 * 8 * 128 * ATT))
{
  echo "# GPU benchmark report"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $gpu, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')."
  echo "Command: \`bench/gpu/run.sh\` (RUNS=$RUNS), $(($(date +%s) - START)) s. Default schedules of --lower-to-gpu (docs/gpu.md)."
  echo
  echo "GPU tests (lit build/test/lit/GPU): $lit_summary"
  [ -n "$failed_tests" ] && echo "Failed or unresolved: $failed_tests"
  [ -s "$OUT/skipped" ] && echo "Not run (budget of $BUDGET s spent): $(paste -sd';' "$OUT/skipped")"
  echo
  echo "| benchmark | kernels (median) | whole call (median) | figure |"
  echo "|---|---|---|---|"
  echo "| elementwise add, n = $N f32 (128-bit accesses) | $add_kern ms | $add_call ms | $(gbs "$add_kern" $((12 * N))) GB/s (kernel time) |"
  echo "| row sums + softmax of [$M, $K] f32 | $red_kern ms | $red_call ms | $(gbs "$red_kern" $((4 * M * K * 5))) GB/s effective (5 passes over x) |"
  echo "| matmul ${GM}x${GK}x${GN} f32, generated (16 x 16 tiles) | $mm_kern ms | $mm_call ms | $(gflops "$mm_kern" $flops) GFLOP/s; cublasSgemm $cublas ms ($(gflops "$cublas" $flops) GFLOP/s) |"
  echo "| same via relax_cublas (library-gemms=all) | - | $mmb_call ms | whole call incl. output allocation |"
  echo "| linear ${HM}x${HK}x${HN} f16, generated (tensor cores: wgmma on sm_90a, else mma.sync) | $tc_kern ms | $tc_call ms | $(gflops "$tc_kern" $flops16) GFLOP/s |"
  echo "| same via relax_cublas (library-gemms=all) | - | $tcb_call ms | $(gflops "$tcb_call" $flops16) GFLOP/s (whole call) |"
  echo "| decode GEMV f32, k = $VK, n = $VN (128-bit loads) | $g32_kern ms | $g32_call ms | $(gbs "$g32_kern" $((4 * VK * VN))) GB/s of weights |"
  echo "| decode GEMV f32, k = $((VK + 1)) (scalar loads) | $g32s_kern ms | $g32s_call ms | $(gbs "$g32s_kern" $((4 * (VK + 1) * VN))) GB/s of weights |"
  echo "| decode GEMV f16, k = $VK, n = $VN (128-bit loads) | $g16_kern ms | $g16_call ms | $(gbs "$g16_kern" $((2 * VK * VN))) GB/s of weights |"
  echo "| decode GEMV f16, k = $((VK + 1)) (scalar loads) | $g16s_kern ms | $g16s_call ms | $(gbs "$g16s_kern" $((2 * (VK + 1) * VN))) GB/s of weights |"
  echo "| Llama-style block, s = 1 | $l1_kern ms | $l1_call ms | decode step of one layer: ~$(toks "$l1_call") tok/s for 32 such layers |"
  echo "| Llama-style block fused (--fuse), s = 1 | $f1_kern ms | $f1_call ms | ~$(toks "$f1_call") tok/s for 32 such layers |"
  echo "| Llama-style block, s = 128 | $l128_kern ms | $l128_call ms | prefill latency |"
  echo "| Llama-style block fused (--fuse), s = 128 | $f128_kern ms | $f128_call ms | prefill latency, --relax-fuse-ops |"
  echo "| attention prefill, s = $ATT, 32 / 8 heads, d = 128, f16, causal (flash attention, tensor cores) | $ap_kern ms | $ap_call ms | $(gflops "$ap_kern" $att_flops) GFLOP/s |"
  echo "| attention decode, 1 query over $ATT keys (split over the keys) | $ad_kern ms | $ad_call ms | $(gbs "$ad_kern" $att_bytes) GB/s of K and V |"
} > "$REPORT"
cat "$REPORT"
[ $lit_rc -eq 0 ] || die "GPU tests failed (see $REPORT)"
