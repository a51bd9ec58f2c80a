#!/usr/bin/env bash
# Runs every libFuzzer target BUILD_DIR/tests/fuzz/fuzz_* for SECONDS each, seeded from
# tests/fuzz/corpus/<target>/ (read only; new inputs go to a temporary directory).
# Crash inputs are kept in BUILD_DIR/tests/fuzz/artifacts/<target>/. Exits non-zero if any
# target crashed, leaked, timed out, or if there is no target at all.
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
build=$1
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
status=0
ran=0
for exe in "$build"/tests/fuzz/fuzz_*; do
  [ -f "$exe" ] && [ -x "$exe" ] || continue
  name=$(basename "$exe")
  ran=$((ran + 1))
  work=$(mktemp -d)
  artifacts="$build/tests/fuzz/artifacts/$name"
  mkdir -p "$artifacts"
  dirs=("$work")
  [ -d "$here/corpus/$name" ] && dirs+=("$here/corpus/$name")
  log="$build/tests/fuzz/$name.log"
  if "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
       -print_final_stats=1 -artifact_prefix="$artifacts/" "${dirs[@]}" >"$log" 2>&1; then
    echo "$name: ok ($(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$') runs in ${seconds}s)"
  else
    status=1
    echo "$name: FAILED, log $log, inputs in $artifacts"
    tail -n 30 "$log"
  fi
  rm -rf "$work"
done
if [ "$ran" = 0 ]; then
  echo "no fuzz targets in $build/tests/fuzz (configure with CC=clang -Dfuzz=true)" >&2
  exit 1
fi
exit $status
