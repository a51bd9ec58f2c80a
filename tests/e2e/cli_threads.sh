#!/bin/bash
# Default thread count (no --threads) from the CPUs the process may use, as nproc counts them:
# under taskset -c 0 the "start" progress event says 1 thread; inside a cgroup whose CPU
# quota is one CPU (a cgroup v2 folder with cpu.max, or a v1 cpu folder with
# cpu.cfs_quota_us, made here when /sys/fs/cgroup is writable) also 1. Skips what the machine
# cannot do (one CPU only, no writable cgroup), saying why.
# usage: cli_threads.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"

"$mlvsynth" -o "$tmp/c.MLV" --size 96x64 --frames 8 >/dev/null || { fail "mlvsynth"; finish; }

# threads_of ERRFILE: the "threads" of the start event
threads_of() { sed -n 's/.*"event":"start".*"threads":\([0-9]*\).*/\1/p' "$1"; }

online=$(getconf _NPROCESSORS_ONLN)
if [ "$online" -lt 2 ]; then
    echo "SKIP: one CPU online, a limit to 1 cannot be told from no limit"
    finish
fi

# No limit: one thread per CPU (the clip has more frames than CPUs here).
"$mlvpipe" convert "$tmp/c.MLV" --to null -o "$tmp/n" --progress json 2>"$tmp/free.err" ||
    fail "free run: $(head -c 300 "$tmp/free.err")"
[ "$(threads_of "$tmp/free.err")" = "$(nproc)" ] ||
    fail "no limit: $(threads_of "$tmp/free.err") threads, nproc says $(nproc)"

# Affinity mask.
taskset -c 0 "$mlvpipe" convert "$tmp/c.MLV" --to null -o "$tmp/n" --progress json \
    2>"$tmp/taskset.err" || fail "taskset run: $(head -c 300 "$tmp/taskset.err")"
[ "$(threads_of "$tmp/taskset.err")" = 1 ] ||
    fail "taskset -c 0: $(threads_of "$tmp/taskset.err") threads, expected 1"
# An explicit --threads still wins.
taskset -c 0 "$mlvpipe" convert "$tmp/c.MLV" --to null -o "$tmp/n" --progress json \
    --threads 2 2>"$tmp/taskset2.err" || fail "taskset --threads 2 run"
[ "$(threads_of "$tmp/taskset2.err")" = 2 ] || fail "--threads 2 under taskset not kept"

# CPU quota of one CPU in a cgroup of our own (v2 if the cpu controller is there, else v1).
cg=""
v2=/sys/fs/cgroup
grep -qw cpu "$v2/cgroup.subtree_control" 2>/dev/null || v2=/sys/fs/cgroup/unified
if grep -qw cpu "$v2/cgroup.subtree_control" 2>/dev/null &&
   mkdir "$v2/mlvpipe-e2e-$$" 2>/dev/null; then
    cg=$v2/mlvpipe-e2e-$$
    echo "100000 100000" >"$cg/cpu.max" || fail "cannot write $cg/cpu.max"
elif [ -d /sys/fs/cgroup/cpu ] && mkdir "/sys/fs/cgroup/cpu/mlvpipe-e2e-$$" 2>/dev/null; then
    cg=/sys/fs/cgroup/cpu/mlvpipe-e2e-$$
    echo 100000 >"$cg/cpu.cfs_period_us" && echo 100000 >"$cg/cpu.cfs_quota_us" ||
        fail "cannot write the v1 quota in $cg"
fi
if [ -z "$cg" ]; then
    echo "SKIP cgroup quota: no writable cgroup with the cpu controller (and no systemd to ask)"
else
    trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"; rmdir "$cg" 2>/dev/null' EXIT
    # A child shell moves itself into the cgroup, then runs mlvpipe there.
    sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$cg" \
        "$mlvpipe" convert "$tmp/c.MLV" --to null -o "$tmp/n" --progress json \
        2>"$tmp/cgroup.err" || fail "cgroup run: $(head -c 300 "$tmp/cgroup.err")"
    [ "$(threads_of "$tmp/cgroup.err")" = 1 ] ||
        fail "quota of 1 CPU ($cg): $(threads_of "$tmp/cgroup.err") threads, expected 1"
    echo "cgroup quota checked in $cg"
fi
finish
