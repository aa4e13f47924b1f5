#!/usr/bin/env bash
# CPU benchmarks, each side by side with its peer in one run:
#   1. elementwise chain (relax: multiply + add over symbolic n) vs a C triad
#      loop built with -O3 -march=native: effective GB/s (3 arrays x 4 bytes x n)
#   2. matmul [m, k] x [k, n]: relax through the extern BLAS call
#      (--relax-dispatch-library) and through the compiler's own loops
#      (relax-run --dispatch-library=false), vs
#      cblas_sgemm called directly; and GEMM GEMM_N^3 (1024) through the
#      default pipeline (relax-run --fuse on the same module, its dims
#      symbolic, given at run time) vs cblas_sgemm, with the default
#      threads and with one thread on both sides
#   3. fusion: the triad and the Llama-style decoder block
#      (python-free-examples/llama_block.mlir, s = 1 and s = LLAMA_S) without
#      and with --relax-fuse-ops (relax-run --fuse), with the number of
#      kernels (call_tir) each forward runs
# Every measurement is the median of relax-run --benchmark RUNS (or the C
# peer's own median), repeated REPEATS times, alternating sides; the report
# gives the median over repeats. Writes bench/cpu/report.md.
set -euo pipefail
# shellcheck source=../lib.sh
source "$(dirname "$0")/../lib.sh"
HERE="$ROOT/bench/cpu"
OUT="$(mktemp -d)"
REPEATS="${REPEATS:-5}"
RUNS="${RUNS:-20}"
N="${N:-16777216}"
MM="${MM:-512 512 512}"
GEMM_N="${GEMM_N:-1024}"
LLAMA_S="${LLAMA_S:-128}"
LLAMA="$ROOT/python-free-examples/llama_block.mlir"
# The fusion rows measure compiled kernels, as when they were written:
# relax-run now offloads matmuls to the BLAS unless told not to
# (bench/peers compares the default pipeline with onnxruntime).
LOOPS="--dispatch-library=false"

cc -O3 -march=native -o "$OUT/triad" "$HERE/triad.c"
cc -O3 -march=native -I/usr/include/x86_64-linux-gnu/openblas-pthread \
  -o "$OUT/blas_gemm" "$HERE/blas_gemm.c" -lopenblas
"$BIN/relax-opt" --relax-dispatch-library "$HERE/matmul.mlir" > "$OUT/matmul_blas.mlir"

relax_ms() { "$BIN/relax-run" "$@" --benchmark "$RUNS" | median_ms; }

read -r M K NN <<< "$MM"
for r in $(seq "$REPEATS"); do
  relax_ms "$HERE/triad.mlir" --random-inputs --dim n="$N" >> "$OUT/relax_triad"
  OMP_NUM_THREADS=1 relax_ms "$HERE/triad.mlir" --random-inputs --dim n="$N" >> "$OUT/relax_triad_1t"
  "$OUT/triad" "$N" "$RUNS" | median_ms >> "$OUT/c_triad"
  relax_ms "$OUT/matmul_blas.mlir" --random-inputs --dim m="$M" --dim k="$K" --dim n="$NN" >> "$OUT/relax_blas"
  relax_ms "$HERE/matmul.mlir" --dispatch-library=false --random-inputs --dim m="$M" --dim k="$K" --dim n="$NN" >> "$OUT/relax_loops"
  "$OUT/blas_gemm" "$M" "$K" "$NN" "$RUNS" | median_ms >> "$OUT/c_blas"
  G=$GEMM_N
  relax_ms "$HERE/matmul.mlir" --fuse --random-inputs --dim m="$G" --dim k="$G" --dim n="$G" >> "$OUT/relax_gemm"
  "$OUT/blas_gemm" "$G" "$G" "$G" "$RUNS" | median_ms >> "$OUT/c_gemm"
  OMP_NUM_THREADS=1 relax_ms "$HERE/matmul.mlir" --fuse --random-inputs --dim m="$G" --dim k="$G" --dim n="$G" >> "$OUT/relax_gemm_1t"
  OPENBLAS_NUM_THREADS=1 "$OUT/blas_gemm" "$G" "$G" "$G" "$RUNS" | median_ms >> "$OUT/c_gemm_1t"
  relax_ms "$HERE/triad.mlir" --fuse --random-inputs --dim n="$N" >> "$OUT/relax_triad_fused"
  for s in 1 "$LLAMA_S"; do
    relax_ms "$LLAMA" "$LOOPS" --random-inputs --dim s="$s" >> "$OUT/llama_$s"
    relax_ms "$LLAMA" "$LOOPS" --fuse --random-inputs --dim s="$s" >> "$OUT/llama_fused_$s"
    OMP_NUM_THREADS=1 relax_ms "$LLAMA" "$LOOPS" --random-inputs --dim s="$s" >> "$OUT/llama_1t_$s"
    OMP_NUM_THREADS=1 relax_ms "$LLAMA" "$LOOPS" --fuse --random-inputs --dim s="$s" >> "$OUT/llama_fused_1t_$s"
  done
done
kernels() { "$BIN/relax-opt" "$@" "$LLAMA" | grep -c 'relax.call_tir'; }
k_unfused=$(kernels --relax-legalize-ops); k_fused=$(kernels --relax-fuse-ops)

gbs() { awk -v ms="$1" -v n="$N" 'BEGIN {printf "%.2f", 12 * n / (ms * 1e6)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
rt=$(median < "$OUT/relax_triad"); rt1=$(median < "$OUT/relax_triad_1t")
ct=$(median < "$OUT/c_triad")
rb=$(median < "$OUT/relax_blas"); rl=$(median < "$OUT/relax_loops")
cb=$(median < "$OUT/c_blas")
rtf=$(median < "$OUT/relax_triad_fused")
rg=$(median < "$OUT/relax_gemm"); cg=$(median < "$OUT/c_gemm")
rg1=$(median < "$OUT/relax_gemm_1t"); cg1=$(median < "$OUT/c_gemm_1t")
{
  echo "| benchmark | relax-mlir | peer | relax / peer time |"
  echo "|---|---|---|---|"
  echo "| elementwise b + 2*c, n = $N, $(nproc) threads | $rt ms ($(gbs "$rt") GB/s) | C triad -O3 -march=native, 1 thread: $ct ms ($(gbs "$ct") GB/s) | $(ratio "$rt" "$ct") |"
  echo "| same, OMP_NUM_THREADS=1 | $rt1 ms ($(gbs "$rt1") GB/s) | $ct ms | $(ratio "$rt1" "$ct") |"
  echo "| matmul ${M}x${K}x${NN} f32 via extern BLAS | $rb ms | cblas_sgemm direct: $cb ms | $(ratio "$rb" "$cb") |"
  echo "| matmul ${M}x${K}x${NN} f32, compiled loops | $rl ms | cblas_sgemm direct: $cb ms | $(ratio "$rl" "$cb") |"
  echo "| elementwise b + 2*c fused (--fuse): one kernel | $rtf ms ($(gbs "$rtf") GB/s) | $ct ms | $(ratio "$rtf" "$ct") |"
  echo "| GEMM ${GEMM_N}x${GEMM_N}x${GEMM_N} f32 through the default pipeline (relax-run --fuse on a matmul module, dynamic dims), $(nproc) threads | $rg ms | cblas_sgemm direct (OpenBLAS threads): $cg ms | $(ratio "$rg" "$cg") |"
  echo "| same, OMP_NUM_THREADS=1 | $rg1 ms | cblas_sgemm direct, OPENBLAS_NUM_THREADS=1: $cg1 ms | $(ratio "$rg1" "$cg1") |"
  echo
  echo "| Llama-style block | kernels per forward | unfused | fused (--relax-fuse-ops) | fused / unfused time |"
  echo "|---|---|---|---|---|"
  for s in 1 "$LLAMA_S"; do
    lu=$(median < "$OUT/llama_$s"); lf=$(median < "$OUT/llama_fused_$s")
    echo "| s = $s | $k_unfused -> $k_fused | $lu ms | $lf ms | $(ratio "$lf" "$lu") |"
    lu=$(median < "$OUT/llama_1t_$s"); lf=$(median < "$OUT/llama_fused_1t_$s")
    echo "| s = $s, OMP_NUM_THREADS=1 | $k_unfused -> $k_fused | $lu ms | $lf ms | $(ratio "$lf" "$lu") |"
  done
  echo
  echo "Median over $REPEATS repeats of the median of $RUNS timed runs each (after a warm-up run)."
} | tee "$HERE/report.md"
rm -rf "$OUT"
