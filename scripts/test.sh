#!/usr/bin/env bash
# Installs what the tests need, builds mlvpipe twice (release, and AddressSanitizer +
# UndefinedBehaviorSanitizer) and runs every test in both, then runs the fuzz targets briefly.
# FUZZ_SECONDS (default 5: a smoke run, the seeds are replayed in every build anyway; long runs are for scripts by hand) is the time per
# fuzz target; 0 skips fuzzing. CI's budget is 15 minutes on 2 cores: every phase prints its
# wall time and the closing summary names the slowest tests, so a test that grows shows up.
set -euo pipefail
cd "$(dirname "$0")/.."
phase_start=$SECONDS
phase() { echo "== $1: $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }
bash scripts/deps.sh test
phase "packages"
# One test more than CPUs: many tests wait on ffmpeg, pipes or Slurm part of the time.
jobs=$(($(nproc) + 1))

meson setup build --reconfigure -Dbuildtype=release >/dev/null 2>&1 || meson setup build -Dbuildtype=release
meson compile -C build
phase "release build"
meson test -C build --print-errorlogs --num-processes "$jobs" || true
phase "release tests"

meson setup build-san --reconfigure -Dbuildtype=debugoptimized -Db_sanitize=address,undefined \
  -Db_lundef=false >/dev/null 2>&1 ||
  meson setup build-san -Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false
meson compile -C build-san
phase "sanitizer build"
# The sanitizers watch our code running; the build suite checks how the code is built and
# installed (headers, symbols, pkg-config), and the pinned suite that output bytes stay the
# same, which the release run has covered (the same code paths run in the e2e suite here).
MLVPIPE_SANITIZED=1 meson test -C build-san --print-errorlogs --num-processes "$jobs" \
  --no-suite slow --no-suite build --no-suite pinned || true
phase "sanitizer tests"
fuzz_seconds=${FUZZ_SECONDS:-5}
if [ "$fuzz_seconds" != 0 ]; then
  CC=clang meson setup build-fuzz --reconfigure -Dbuildtype=debugoptimized -Dfuzz=true -Dtests=false -Db_lundef=false \
    >/dev/null 2>&1 || CC=clang meson setup build-fuzz -Dbuildtype=debugoptimized -Dfuzz=true -Dtests=false -Db_lundef=false
  meson compile -C build-fuzz $(cd tests/fuzz && ls fuzz_*.c | sed 's/\.c$//')   # the targets only
  fuzz_rc=0
  bash tests/fuzz/run.sh build-fuzz "$fuzz_seconds" || fuzz_rc=$?
  [ "$fuzz_rc" = 0 ] || echo "fuzzing found a failure (exit $fuzz_rc)"
  phase "fuzz build and run"
fi
# One closing line over both test runs; fails when any test failed, none ran, or fuzzing failed.
python3 scripts/test_summary.py build/meson-logs/testlog.json build-san/meson-logs/testlog.json
exit "${fuzz_rc:-0}"
