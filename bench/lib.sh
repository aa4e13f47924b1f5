# Helpers shared by the benchmark drivers (bench/cpu/run.sh,
# bench/gpu/run.sh); source it, do not run it. Sets ROOT (the repository),
# BUILD_DIR (default $ROOT/build) and BIN, the built tools.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
BIN="$BUILD_DIR/bin"

# The median of the numbers on stdin, one a line (the upper one for an even
# count).
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The X of a "... median X ms ..." line on stdin: what the C and cuBLAS peers
# print.
median_ms() { sed -n 's/.*median \([0-9.]*\) ms.*/\1/p'; }

# PY: the Python of bench/peers/.venv (onnxruntime, onnx, numpy from PyPI),
# created on first use (PYTHON picks the interpreter that makes it). Shared
# by bench/peers and bench/memory.
peers_python() {
  local venv="$ROOT/bench/peers/.venv"
  if [[ ! -x "$venv/bin/python" ]]; then
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/pip" install --quiet onnxruntime onnx numpy
  fi
  PY="$venv/bin/python"
}

# TVM_PY: the Python of bench/peers/.venv-tvm (apache-tvm, onnx, numpy from
# PyPI), created on first use (PYTHON picks the interpreter that makes it).
# A venv of its own: the ~100 MB wheel stays out of .venv, and a TVM that
# does not install cannot break the other benchmarks. Returns non-zero,
# with TVM_PY empty and what went wrong on stderr, when it cannot be made;
# a half-made venv is removed so that the next call tries again.
tvm_python() {
  local venv="$ROOT/bench/peers/.venv-tvm"
  TVM_PY=""
  if [[ ! -x "$venv/bin/python" ]] ||
     ! "$venv/bin/python" -c 'import tvm, onnx' 2> /dev/null; then
    rm -rf "$venv"
    if ! { "${PYTHON:-python3}" -m venv "$venv" &&
           "$venv/bin/pip" install --quiet apache-tvm onnx numpy &&
           "$venv/bin/python" -c 'import tvm.relax.frontend.onnx'; } >&2; then
      echo "tvm_python: could not make $venv with apache-tvm" >&2
      rm -rf "$venv"
      return 1
    fi
  fi
  TVM_PY="$venv/bin/python"
}

# IREE_PY: the Python of bench/peers/.venv-iree (iree-base-compiler,
# iree-base-runtime, onnx, numpy from PyPI), created on first use (PYTHON
# picks the interpreter that makes it); its bin/ holds iree-import-onnx and
# iree-compile. A venv of its own, as tvm_python's: returns non-zero, with
# IREE_PY empty and what went wrong on stderr, when it cannot be made; a
# half-made venv is removed so that the next call tries again.
iree_python() {
  local venv="$ROOT/bench/peers/.venv-iree"
  IREE_PY=""
  if [[ ! -x "$venv/bin/python" || ! -x "$venv/bin/iree-compile" ]] ||
     ! "$venv/bin/python" -c 'import iree.runtime, onnx' 2> /dev/null; then
    rm -rf "$venv"
    if ! { "${PYTHON:-python3}" -m venv "$venv" &&
           "$venv/bin/pip" install --quiet iree-base-compiler \
             iree-base-runtime onnx numpy &&
           "$venv/bin/python" -c 'import iree.runtime, iree.compiler' &&
           [[ -x "$venv/bin/iree-import-onnx" ]]; } >&2; then
      echo "iree_python: could not make $venv with IREE" >&2
      rm -rf "$venv"
      return 1
    fi
  fi
  IREE_PY="$venv/bin/python"
}
