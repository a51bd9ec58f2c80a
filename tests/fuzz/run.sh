#!/usr/bin/env bash
# Runs every libFuzzer target BUILD_DIR/tests/fuzz/fuzz_* for SECONDS each, as many at once as
# there are CPUs, seeded from tests/fuzz/corpus/<target>/ (read only; new inputs go to a
# temporary directory). Crash inputs are kept in BUILD_DIR/tests/fuzz/artifacts/<target>/.
# Exits non-zero if any target crashed, leaked, timed out, or if there is no target at all.
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
build=$1
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)

# fuzz_one EXE: runs one target; its verdict goes to BUILD_DIR/tests/fuzz/NAME.verdict, whose
# first line says "NAME: ok" or "NAME: FAILED".
fuzz_one() {
  local exe=$1 name work artifacts log dirs rc=0
  name=$(basename "$exe")
  work=$(mktemp -d)
  artifacts="$build/tests/fuzz/artifacts/$name"
  mkdir -p "$artifacts"
  dirs=("$work")
  [ -d "$here/corpus/$name" ] && dirs+=("$here/corpus/$name")
  log="$build/tests/fuzz/$name.log"
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${dirs[@]}" >"$log" 2>&1 || rc=$?
  if [ "$rc" = 0 ]; then
    echo "$name: ok ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') runs in ${seconds}s)"
  else
    echo "$name: FAILED, log $log, inputs in $artifacts"
    tail -n 30 "$log"
  fi >"$build/tests/fuzz/$name.verdict"
  rm -rf "$work"
}

status=0
ran=0
names=()
jobs=$(nproc)
for exe in "$build"/tests/fuzz/fuzz_*; do
  [ -f "$exe" ] && [ -x "$exe" ] || continue
  ran=$((ran + 1))
  names+=("$(basename "$exe")")
  rm -f "$build/tests/fuzz/$(basename "$exe").verdict"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n
  done
  fuzz_one "$exe" &
done
wait
for name in "${names[@]}"; do
  cat "$build/tests/fuzz/$name.verdict" 2>/dev/null || echo "$name: FAILED, no verdict"
  head -n 1 "$build/tests/fuzz/$name.verdict" 2>/dev/null | grep -q ': ok' || status=1
done
if [ "$ran" = 0 ]; then
  echo "no fuzz targets in $build/tests/fuzz (configure with CC=clang -Dfuzz=true)" >&2
  exit 1
fi
exit $status
