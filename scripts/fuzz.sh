#!/usr/bin/env bash
# Runs every fuzz target (or those named) for N minutes each, one after another, and prints
# per target: CPU seconds, executions, executions per second, coverage (edges "cov" and features "ft" as
# libFuzzer counts them), corpus size and findings. Builds the libFuzzer build first
# (clang, ASan+UBSan, BUILD_DIR, default build-fuzz). Seeds come from tests/fuzz/corpus/<target>
# (read only); what the fuzzer finds is kept in BUILD_DIR/tests/fuzz/work/<target> so that
# later runs go on from it; crash inputs land in BUILD_DIR/tests/fuzz/artifacts/<target>/.
# Exits 1 when a target crashed, leaked or timed out.
# Usage: scripts/fuzz.sh [--minutes N] [--build DIR] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=10
build=build-fuzz
while [ $# -gt 0 ]; do
  case $1 in
  --minutes) minutes=$2; shift 2 ;;
  --build) build=$2; shift 2 ;;
  -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
  -*) echo "unknown option $1" >&2; exit 2 ;;
  *) break ;;
  esac
done
if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" -Dbuildtype=debugoptimized -Dfuzz=true -Dtests=false \
    -Db_lundef=false >/dev/null
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for src in tests/fuzz/fuzz_*.c; do
    targets+=("$(basename "$src" .c)")
  done
fi
meson compile -C "$build" "${targets[@]}" >/dev/null   # only what the targets need
seconds=$(awk -v m="$minutes" 'BEGIN { printf "%d", m * 60 }')
status=0
printf '%-18s %7s %12s %9s %7s %7s %7s %s\n' target cpu_s execs execs/s cov ft corpus findings
# CPU seconds of all children so far (user + system), from this shell's `times` (a builtin
# in a pipe or $(...) would report a subshell's children)
children_cpu() {
  times >"$1"
  tail -1 "$1" |
    awk '{ n = 0; for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%.1f", n }'
}
for name in "${targets[@]}"; do
  exe=$build/tests/fuzz/$name
  work=$build/tests/fuzz/work/$name
  artifacts=$build/tests/fuzz/artifacts/$name
  log=$build/tests/fuzz/$name.log
  mkdir -p "$work" "$artifacts"
  dirs=("$work")
  [ -d "tests/fuzz/corpus/$name" ] && dirs+=("tests/fuzz/corpus/$name")
  rc=0
  children_cpu "$log.times" >"$log.cpu0"
  "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${dirs[@]}" >"$log" 2>&1 || rc=$?
  children_cpu "$log.times" >"$log.cpu1"
  cpu=$(awk '{ v[NR] = $1 } END { printf "%.0f", v[2] - v[1] }' "$log.cpu0" "$log.cpu1")
  stat() { grep -m1 -o "stat::$1: *[0-9]*" "$log" | grep -o '[0-9]*$' || echo 0; }
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  findings=$(find "$artifacts" -type f | wc -l)
  [ "$rc" = 0 ] || { status=1; findings="$findings (exit $rc, log $log)"; }
  printf '%-18s %7s %12s %9s %7s %7s %7s %s\n' "$name" "$cpu" "$(stat number_of_executed_units)" \
    "$(stat average_exec_per_sec)" "${cov:-?}" "${ft:-?}" "$(find "$work" -type f | wc -l)" \
    "$findings"
done
exit $status
