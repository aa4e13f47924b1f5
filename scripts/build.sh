#!/usr/bin/env bash
# Installs what is missing, configures (once) and builds everything into
# build/. BUILD_DIR and JOBS may be overridden from the environment.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc)}"

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/install-cuda-tools.sh"

# ccache keys on relative paths, so a fresh clone in another folder (CI)
# reuses the objects an earlier build compiled.
export CCACHE_BASEDIR="$ROOT"
export CCACHE_NOHASHDIR=1

if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$BUILD_DIR" -j "$JOBS"
