#!/usr/bin/env bash
# cuobjdump for the SASS tests of the GPU path (test/lit/GPU/*sass*.test):
# the CUDA toolkit's own when it ships one (next to ptxas), else NVIDIA's
# PyPI wheel nvidia-cuda-cuobjdump installed into .cache/cuda-tools of the
# checkout (no root, nothing outside the tree). Optional: without a CUDA
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
if [[ -x "$(dirname "$ptxas")/cuobjdump" ]] || command -v cuobjdump > /dev/null ||
   compgen -G "$DEST/nvidia/*/bin/cuobjdump" > /dev/null; then
  echo "install-cuda-tools: cuobjdump present"
  exit 0
fi
# The toolkit's major version picks the wheel's (13.x for CUDA 13).
major="$("$ptxas" --version | sed -n 's/.*release \([0-9]*\)\..*/\1/p')"
if python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
     --target "$DEST" "nvidia-cuda-cuobjdump==${major:-13}.*"; then
  echo "install-cuda-tools: cuobjdump installed into $DEST"
else
  echo "install-cuda-tools: could not install nvidia-cuda-cuobjdump; the" \
       "SASS tests will be UNSUPPORTED" >&2
fi
exit 0
