#!/usr/bin/env bash
# cuobjdump for the SASS tests of the GPU path (test/lit/GPU/*sass*.test),
# with the nvdisasm it runs for -sass: the CUDA toolkit's own when it ships
# them (next to ptxas), else NVIDIA's PyPI wheels nvidia-cuda-cuobjdump and
# nvidia-cuda-nvdisasm installed into .cache/cuda-tools of the checkout (no
# root, nothing outside the tree). Optional: without a CUDA
# toolkit, or when the download fails, those tests are UNSUPPORTED with a
# note (test/lit/lit.cfg.py), and everything else runs.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEST="$ROOT/.cache/cuda-tools"

ptxas="$(command -v ptxas || true)"
for dir in "${CUDA_HOME:-}" "${CUDA_PATH:-}" /usr/local/cuda; do
  [[ -z "$ptxas" && -n "$dir" && -x "$dir/bin/ptxas" ]] && ptxas="$dir/bin/ptxas"
done
if [[ -z "$ptxas" ]]; then
  echo "install-cuda-tools: no CUDA toolkit (ptxas): nothing to do"
  exit 0
fi
bin="$(dirname "$ptxas")"
if [[ -x "$bin/cuobjdump" && -x "$bin/nvdisasm" ]] ||
   { command -v cuobjdump && command -v nvdisasm; } > /dev/null ||
   { compgen -G "$DEST/nvidia/*/bin/cuobjdump" &&
     compgen -G "$DEST/nvidia/*/bin/nvdisasm"; } > /dev/null; then
  echo "install-cuda-tools: cuobjdump and nvdisasm present"
  exit 0
fi
# One pip call for both: --target does not add to an existing package
# folder (nvidia/).
rm -rf "$DEST"
# The toolkit's major version picks the wheel's (13.x for CUDA 13).
major="$("$ptxas" --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')"
if python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
     --target "$DEST" "nvidia-cuda-cuobjdump==${major:-13}.*" \
     "nvidia-cuda-nvdisasm==${major:-13}.*"; then
  echo "install-cuda-tools: cuobjdump and nvdisasm installed into $DEST"
else
  rm -rf "$DEST"
  echo "install-cuda-tools: could not install nvidia-cuda-cuobjdump and" \
       "nvidia-cuda-nvdisasm; the SASS tests will be UNSUPPORTED" >&2
fi
exit 0
