#!/usr/bin/env bash
# The roofline of this machine and where the runtime's hot kernels sit on
# it (issue 28). Measures the ceilings with small C programs: the f32 FMA
# peak of one core (fma_peak.c, the widest vectors the CPU has), the
# STREAM triad bandwidth (triad.c, -fopenmp) and the read-only bandwidth
# (read_bw.c: what a product that streams its weight can reach) at 1 and 2
# threads; then
# times the kernels through relax-run --benchmark (compilation untimed):
#   - GEMM GEMM_N^3 f32 with run-time operands (bench/cpu/matmul.mlir
#     --fuse, dims symbolic, given at run time), as GFLOP/s and the fraction
#     of the FMA peak (times the threads); the same with RELAX_SGEMM=openblas
#     (Debian's OpenBLAS, which picks its kernels from the CPU models it
#     knows) beside it;
#   - decode-sized products, m = 1 and 4 rows of X against a [k, n] weight
#     (matmul.mlir, ONNX's layout) and an [n, k] one (linear.mlir, torch's),
#     GEMV_K x GEMV_N (4096 x 11008, a Llama-7B MLP weight: 180 MB, beyond
#     any last-level cache, so every call streams it from memory), as GB/s
#     of the weight streamed and the fraction of the read-only bandwidth
#     (and of the triad's).
# Every figure is the median over REPEATS of relax-run's median of RUNS
# calls, the sides interleaved. ISA=avx2 caps the runtime and oneDNN at AVX2
# (RELAX_MAX_CPU_ISA) and measures the AVX2 FMA peak: the AVX2 machine's
# roofline on an AVX-512 one. Writes bench/cpu/roofline.md (REPORT).
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/cpu"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
REPEATS="${REPEATS:-5}"
RUNS="${RUNS:-10}"
GEMM_N="${GEMM_N:-1024}"
GEMV_K="${GEMV_K:-4096}"
GEMV_N="${GEMV_N:-11008}"
TRIAD_N="${TRIAD_N:-33554432}"
READ_N="${READ_N:-67108864}"
ISA="${ISA:-}"
REPORT="${REPORT:-$HERE/roofline${ISA:+-$ISA}.md}"
if [[ -n "$ISA" ]]; then
  export RELAX_MAX_CPU_ISA="$ISA"
fi

cc -O2 -o "$OUT/fma_peak" "$HERE/fma_peak.c"
cc -O3 -march=native -fopenmp -o "$OUT/triad" "$HERE/triad.c"
cc -O3 -march=native -fopenmp -o "$OUT/read_bw" "$HERE/read_bw.c"

relax_ms() {
  local threads="$1"; shift
  RELAX_NUM_THREADS="$threads" OMP_NUM_THREADS="$threads" \
    "$BIN/relax-run" "$@" --benchmark "$RUNS" | median_ms
}
gemm_dims=(--dim m="$GEMM_N" --dim k="$GEMM_N" --dim n="$GEMM_N")
for r in $(seq "$REPEATS"); do
  "$OUT/fma_peak" 3 "$ISA" | sed -n 's/.*median \([0-9.]*\) GFLOP.*/\1/p' >> "$OUT/peak"
  for t in 1 2; do
    OMP_NUM_THREADS=$t "$OUT/triad" "$TRIAD_N" "$RUNS" | median_ms >> "$OUT/triad-$t"
    OMP_NUM_THREADS=$t "$OUT/read_bw" "$READ_N" "$RUNS" | median_ms >> "$OUT/read-$t"
    relax_ms "$t" "$HERE/matmul.mlir" --fuse --random-inputs "${gemm_dims[@]}" >> "$OUT/gemm-$t"
    RELAX_SGEMM=openblas relax_ms "$t" "$HERE/matmul.mlir" --fuse --random-inputs "${gemm_dims[@]}" >> "$OUT/gemm-openblas-$t"
    for m in 1 4; do
      relax_ms "$t" "$HERE/matmul.mlir" --fuse --random-inputs --dim m=$m --dim k="$GEMV_K" --dim n="$GEMV_N" >> "$OUT/gemv-kn-$m-$t"
      relax_ms "$t" "$HERE/linear.mlir" --fuse --random-inputs --dim m=$m --dim k="$GEMV_K" --dim n="$GEMV_N" >> "$OUT/gemv-nk-$m-$t"
    done
  done
done

fmt() { awk -v v="$1" 'BEGIN {printf "%.1f", v}'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.0f%%", 100 * a / b}'; }
peak=$(median < "$OUT/peak")
declare -A triad read
for t in 1 2; do
  triad[$t]=$(awk -v ms="$(median < "$OUT/triad-$t")" -v n="$TRIAD_N" 'BEGIN {print 12 * n / (ms * 1e6)}')
  read[$t]=$(awk -v ms="$(median < "$OUT/read-$t")" -v n="$READ_N" 'BEGIN {print 4 * n / (ms * 1e6)}')
done
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
flags=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'avx2|fma|avx512f|avx512_bf16|avx512_vnni|amx_tile|amx_bf16' | tr '\n' ' ')
{
  echo "CPU: $model, $(nproc) CPUs; features: $flags"
  echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "Runtime kernels: ${ISA:-best of the CPU} (RELAX_MAX_CPU_ISA=${RELAX_MAX_CPU_ISA:-unset})"
  echo
  echo "Command: \`${ISA:+ISA=$ISA }REPEATS=$REPEATS RUNS=$RUNS bench/cpu/roofline.sh\`"
  echo
  echo "| ceiling | measured |"
  echo "|---|---|"
  echo "| f32 FMA peak, one core (fma_peak.c) | $(fmt "$peak") GFLOP/s |"
  echo "| triad, 1 thread (triad.c, 12 bytes per element) | $(fmt "${triad[1]}") GB/s |"
  echo "| triad, 2 threads | $(fmt "${triad[2]}") GB/s |"
  echo "| read-only, 1 thread (read_bw.c, 4 bytes per element) | $(fmt "${read[1]}") GB/s |"
  echo "| read-only, 2 threads | $(fmt "${read[2]}") GB/s |"
  echo
  echo "| kernel | threads | time | rate | fraction of the ceiling |"
  echo "|---|---|---|---|---|"
  for t in 1 2; do
    ceiling=$(awk -v p="$peak" -v t="$t" 'BEGIN {print p * t}')
    for side in gemm gemm-openblas; do
      ms=$(median < "$OUT/$side-$t")
      gf=$(awk -v ms="$ms" -v n="$GEMM_N" 'BEGIN {print 2 * n^3 / (ms * 1e6)}')
      what="GEMM ${GEMM_N}^3 f32, run-time operands"
      [[ $side == gemm-openblas ]] && what="same, RELAX_SGEMM=openblas"
      echo "| $what | $t | $ms ms | $(fmt "$gf") GFLOP/s | $(pct "$gf" "$ceiling") of $t x FMA peak |"
    done
    for m in 1 4; do
      for layout in kn nk; do
        ms=$(median < "$OUT/gemv-$layout-$m-$t")
        gbs=$(awk -v ms="$ms" -v n="$GEMV_N" -v k="$GEMV_K" 'BEGIN {print 4 * n * k / (ms * 1e6)}')
        name="W [k, n] (matmul)"; [[ $layout == nk ]] && name="W [n, k] (linear)"
        echo "| decode product m = $m, ${GEMV_K}x${GEMV_N}, $name | $t | $ms ms | $(fmt "$gbs") GB/s | $(pct "$gbs" "${read[$t]}") of read-only ($t), $(pct "$gbs" "${triad[$t]}") of triad |"
      done
    done
  done
  echo
  echo "GB/s of a decode product counts the weight streamed once (4 n k bytes);"
  echo "the triad counts its three arrays (12 bytes per element), the"
  echo "read-only ceiling the bytes it sums."
} | tee "$REPORT"
