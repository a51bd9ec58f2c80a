#!/bin/bash
# A folder of dual-ISO stills (tools/cr2synth, 100/1600) converted with --threads 1 and
# --threads 2, alternately (1 2 1 2 ...): wall, user and system time of each run, the load
# average before each, the wall-time ratio of the medians, and whether every output is the
# same bytes whatever the thread count (doc/stills.md 6).
# usage: bench_batch.sh BUILD_DIR [STILLS [SIZE [RUNS [WORK_DIR]]]]   (defaults 16 1920x1080 5)
# The ratio needs idle cores; on a machine others load, run it as root under `chrt -f 10`
# (our processes first, as on idle cores; doc/benchmarks.md 11).
set -u
b=$1
n=${2:-16}
size=${3:-1920x1080}
runs=${4:-5}
d=${5:-$(mktemp -d /tmp/mlvpipe-batch.XXXXXX)}
mlvpipe=$b/tools/mlvpipe/mlvpipe
mkdir -p "$d/in"
for i in $(seq 1 "$n"); do
    f=$(printf "%s/in/IMG_%04d.CR2" "$d" "$i")
    [ -f "$f" ] || "$b/tools/cr2synth/cr2synth" -o "$f" --dual 4 --size "$size" --seed "$i" ||
        exit 1
done
declare -A wall
for r in $(seq 1 "$runs"); do
    for t in 1 2; do
        rm -rf "$d/out$t"
        load=$(cut -d' ' -f1 /proc/loadavg)
        line=$(/usr/bin/time -f "%e %U %S" "$mlvpipe" -q convert "$d/in" -o "$d/out$t" \
               --threads "$t" 2>&1 >/dev/null | tail -1)
        read -r e u s <<<"$line"
        printf "run %d, --threads %d: %6.2f s wall, %6.2f s user + %5.2f s system (load %s)\n" \
            "$r" "$t" "$e" "$u" "$s" "$load"
        wall[$t]="${wall[$t]:-} $e"
    done
    for f in "$d"/out1/*.dng; do
        cmp -s "$f" "$d/out2/${f##*/}" || { echo "DIFFERENT BYTES: ${f##*/}"; exit 1; }
    done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
m1=$(median <<<"${wall[1]}")
m2=$(median <<<"${wall[2]}")
echo "$n stills of $size: median wall $m1 s (1 thread), $m2 s (2 threads):" \
     "$(awk -v a="$m1" -v b="$m2" 'BEGIN {printf "%.2fx", a / b}'); outputs identical"
