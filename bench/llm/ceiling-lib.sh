# Shared by the quantized decode benchmarks that measure against the
# read-only ceiling (bench/llm/ceiling-pairs.sh, decode-ab.sh); source it
# after bench/lib.sh, once OUT is a scratch folder. Builds read_bw
# (bench/cpu/read_bw.c) into OUT and sets PROMPT, the token ids of
# test/lit/E2E/Inputs/llm/prompt.txt separated by commas (llama-generate's
# --prompt); `ceiling T` prints the read-only ceiling in GB/s at T threads
# (256 MiB, the median of 5 runs; the best of read_bw.c's four ways,
# measured alternated: 4 KiB and huge pages, one run and eight per thread;
# the weights live in huge pages).
cc -O3 -march=native -fopenmp -o "$OUT/read_bw" "$ROOT/bench/cpu/read_bw.c"
PROMPT=$(tr -s ' \n' ',' < "$ROOT/test/lit/E2E/Inputs/llm/prompt.txt" |
         sed 's/^,//; s/,$//')
ceiling() {
  OMP_NUM_THREADS="$1" "$OUT/read_bw" 67108864 5 |
    sed -n 's/.* \([0-9.]*\) GB\/s.*/\1/p'
}
