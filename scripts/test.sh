#!/usr/bin/env bash
# Installs what the tests need, builds mlvpipe twice (release, and AddressSanitizer +
# UndefinedBehaviorSanitizer) and runs every test in both, then runs the fuzz targets briefly.
# FUZZ_SECONDS (default 30) is the time per fuzz target; 0 skips fuzzing.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test
jobs=$(nproc)

meson setup build --reconfigure -Dbuildtype=release >/dev/null 2>&1 || meson setup build -Dbuildtype=release
meson compile -C build
meson test -C build --print-errorlogs --num-processes "$jobs" || true

meson setup build-san --reconfigure -Dbuildtype=debugoptimized -Db_sanitize=address,undefined \
  -Db_lundef=false >/dev/null 2>&1 ||
  meson setup build-san -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false
meson compile -C build-san
MLVPIPE_SANITIZED=1 meson test -C build-san --print-errorlogs --num-processes "$jobs" \
  --no-suite slow || true
fuzz_seconds=${FUZZ_SECONDS:-30}
if [ "$fuzz_seconds" != 0 ]; then
  CC=clang meson setup build-fuzz --reconfigure -Dbuildtype=debugoptimized -Dfuzz=true -Dtests=false -Db_lundef=false \
    >/dev/null 2>&1 || CC=clang meson setup build-fuzz -Dbuildtype=debugoptimized -Dfuzz=true -Dtests=false -Db_lundef=false
  meson compile -C build-fuzz
  fuzz_rc=0
  bash tests/fuzz/run.sh build-fuzz "$fuzz_seconds" || fuzz_rc=$?
  [ "$fuzz_rc" = 0 ] || echo "fuzzing found a failure (exit $fuzz_rc)"
fi
# One closing line over both test runs; fails when any test failed, none ran, or fuzzing failed.
python3 scripts/test_summary.py build/meson-logs/testlog.json build-san/meson-logs/testlog.json
exit "${fuzz_rc:-0}"
