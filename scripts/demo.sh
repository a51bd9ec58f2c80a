#!/usr/bin/env bash
# Installs what mlvpipe needs, builds it, and converts CLIP to a CinemaDNG sequence in out/
# (default CLIP: a 24-frame 100/1600 dual-ISO clip simulated by tools/mlvsynth).
# Extra arguments after CLIP are passed to `mlvpipe convert` (e.g. --to prores422hq).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh build
meson setup build --reconfigure -Dbuildtype=release >/dev/null 2>&1 || meson setup build -Dbuildtype=release
meson compile -C build
mkdir -p out
clip=${1:-}
[ $# -gt 0 ] && shift
if [ -z "$clip" ]; then
  clip=out/demo_dualiso.MLV
  [ -e "$clip" ] || ./build/tools/mlvsynth/mlvsynth --dual-iso --iso-low 100 --iso-high 1600 \
    --size 1920x1080 --frames 24 --fps 24000/1001 --audio -o "$clip"
fi
./build/tools/mlvpipe/mlvpipe info "$clip"
./build/tools/mlvpipe/mlvpipe convert "$clip" -o out --overwrite "$@"
echo "output: out/$(basename "${clip%.*}")/"
