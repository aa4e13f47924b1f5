# Sourced by quant_ab.sh and quant_tiles_ab.sh: the kernels' compilation
# and the two runs (sides in both orders) of their A/B programs.

# The program's ISA argument (0 generic, 1 avx2, 2 avx512) for $1, or exit.
quant_ab_isa() {
  case "$1" in
    avx512) echo 2 ;;
    avx2) echo 1 ;;
    generic) echo 0 ;;
    *) echo "$(basename "$0"): ISA must be avx512, avx2 or generic, not '$1'" >&2; exit 2 ;;
  esac
}

# quant_ab_compile OUT NAME FILE... -- CXX...: compiles each FILE with
# CXX and its instruction set's flags (by its name) into OUT/NAME-*.o, in
# parallel; writes the objects' paths to OUT/NAME.objs.
quant_ab_compile() {
  local out="$1" name="$2" files=() objs=()
  shift 2
  while [[ $1 != -- ]]; do files+=("$1"); shift; done
  shift
  for f in "${files[@]}"; do
    local flags=()
    case "$(basename "$f")" in
      *Int8Avx512*) flags=(-mavx512f -mavx512bw -mavx512vnni -mf16c) ;;
      *Avx512*) flags=(-mavx512f) ;;
      *Avx2*) flags=(-mavx2 -mfma -mf16c) ;;
    esac
    local obj="$out/$name-$(basename "$f" .cpp).o"
    "$@" "${flags[@]}" -c "$f" -o "$obj" &
    objs+=("$obj")
  done
  wait
  printf '%s\n' "${objs[@]}" > "$out/$name.objs"
}

# quant_ab_run PROGRAM FIRST SECOND ARGS...: prints the CPU, then runs
# PROGRAM ARGS twice, FIRST's side first and then SECOND's (swap).
quant_ab_run() {
  local program="$1" first="$2" second="$3"
  shift 3
  echo "CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1);" \
    "$(date -u '+%Y-%m-%d %H:%M UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  export RELAX_NUM_THREADS="${RELAX_NUM_THREADS:-2}"
  echo "## $first-first"
  "$program" "$@"
  echo "## $second-first"
  "$program" "$@" s
}
