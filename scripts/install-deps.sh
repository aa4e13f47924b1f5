#!/usr/bin/env bash
# Installs the Debian packages relax-mlir needs (when run as root) or names
# the missing ones. Idempotent: a machine that has everything is left alone.
set -euo pipefail

# Optional, not installed here: a CUDA toolkit (NVIDIA's, or Debian non-free
# nvidia-cuda-toolkit) for the GPU runtime, libdevice and the ptxas tests;
# without it the project builds and every non-GPU test passes (docs/gpu.md).
PACKAGES=(
  cmake ninja-build ccache g++ git
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools lld-22 libomp-22-dev
  libgtest-dev libbenchmark-dev libopenblas-dev
  # oneDNN: GEMMs whose weights are packed once (lib/Runtime/DnnlGemm.cpp).
  libdnnl-dev
  # Header-only JSON of the runtime (parameter files, module metadata), which
  # links no LLVM.
  nlohmann-json3-dev
  python3 python3-numpy
  # The ONNX importer (built when libonnx is found) and its tests.
  libonnx-dev libprotobuf-dev python3-onnx libonnx-testdata
  # Tokenizers of llama-generate (lib/Tokenizer, built when found):
  # SentencePiece models, and PCRE2 for the Unicode classes (\p{L}, \p{N})
  # of Hugging Face byte-level BPE pre-tokenizer regexes.
  libsentencepiece-dev libpcre2-dev
  # Unicode NFC of the normalizers of tokenizer.json files (Qwen2's), which
  # the composition tables of utf8proc apply as Hugging Face tokenizers does.
  libutf8proc-dev
  # Tensor-parallel Llama over MPI (lib/Runtime/RelaxCollectives.cpp,
  # llama-generate-tp; built when MPI is found): OpenMPI and its mpirun.
  libopenmpi-dev openmpi-bin
)
# `--fuzz` adds what scripts/fuzz-onnx.sh needs (clang's libFuzzer and ASan).
if [ "${1:-}" = "--fuzz" ]; then
  PACKAGES+=(clang-22 libclang-rt-22-dev)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: missing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: run as root, or install them with:" >&2
  echo "  sudo apt-get install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "install-deps: installed ${#missing[@]} packages"
