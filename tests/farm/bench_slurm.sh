#!/usr/bin/env bash
# The farm figure: wall time of one `mlvpipe convert --threads 2` against the same clip run
# as a 4-chunk plan on the one-node Slurm cluster of slurm_up.sh (tasks of 1 thread, two at
# a time on 2 CPUs; submission to empty queue, so scheduler latency counts) and through GNU
# parallel (--jobs 2). Checks the outputs are identical. Prints one line per run.
# usage: tests/farm/bench_slurm.sh BUILD_DIR [WxH] [FRAMES]   (default 1920x1080, 48)
set -euo pipefail
build=$(realpath "$1"); size=${2:-1920x1080}; frames=${3:-48}
here=$(dirname "$(realpath "$0")")
mlvpipe=$build/tools/mlvpipe/mlvpipe
tmp=$(mktemp -d /tmp/mlvpipe-bench.XXXXXX)
trap '"$here/slurm_down.sh" "$tmp/slurm"; rm -rf "$tmp"' EXIT
eval "$("$here/slurm_up.sh" "$tmp/slurm")"
"$build/tools/mlvsynth/mlvsynth" -o "$tmp/A001.MLV" --dual-iso --frames "$frames" --size "$size" \
    --shift 2 >/dev/null
chunk=$(( (frames + 3) / 4 ))
now() { date +%s.%N; }
secs() { echo "$(now) - $1" | bc; }
echo "clip: $size, $frames dual-ISO frames -> 16-bit DNG; $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"

t=$(now); "$mlvpipe" convert "$tmp/A001.MLV" -o "$tmp/one" --threads 2 2>/dev/null
printf 'one process, --threads 2:                 %6.2f s\n' "$(secs "$t")"

"$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/slurm_out" --chunk "$chunk" --threads 1 > "$tmp/plan.sh"
t=$(now); bash "$tmp/plan.sh" >/dev/null
while [ -n "$(squeue -h -o %i)" ]; do sleep 0.1; done
printf 'Slurm, analyze + 4 chunks x 1 thread:      %6.2f s\n' "$(secs "$t")"

"$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/par_out" --chunk "$chunk" --threads 1 --jobs 2 \
    --engine parallel > "$tmp/par.sh"
t=$(now); bash "$tmp/par.sh" >/dev/null 2>&1
printf 'GNU parallel, analyze + 4 chunks x 1 thread: %6.2f s\n' "$(secs "$t")"

diff -r "$tmp/one/A001" "$tmp/slurm_out/A001" >/dev/null && diff -r "$tmp/one/A001" "$tmp/par_out/A001" >/dev/null &&
    echo "outputs identical" || { echo "OUTPUTS DIFFER"; exit 1; }
