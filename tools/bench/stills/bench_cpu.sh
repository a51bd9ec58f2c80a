#!/bin/bash
# CPU per still (issue #31: at most 0.24 CPU-s for a 1080p dual-ISO still, 2 for a 22-Mpx
# one): a 1080p dual-ISO DNG in mlv_dump's layout (mlvdump_dng.py) and a 5D Mark III-sized
# dual-ISO CR2 (5920x3950 with its borders, cr2synth), each converted alone with --threads 1,
# RUNS times; with a second mlvpipe (another build, e.g. main's), the two alternately (A B A
# B), the same output bytes checked. Prints user + system CPU (the process and the children
# it ran, such as LibRaw's: doc/stills.md 7) and peak memory of each run.
# usage: bench_cpu.sh BUILD_DIR [RUNS [OTHER_MLVPIPE [WORK_DIR]]]      (default 3 runs)
set -u
b=$1
runs=${2:-3}
other=${3:-}
d=${4:-$(mktemp -d /tmp/mlvpipe-stillcpu.XXXXXX)}
here=$(dirname "$0")
mkdir -p "$d"
if [ ! -f "$d/hd.dng" ]; then
    "$b/tools/cr2synth/cr2synth" -o "$d/hd.CR2" --dual 4 --size 1920x1080 --seed 5 \
        --samples "$d/hd.pgm" --overwrite || exit 1
    python3 "$here/mlvdump_dng.py" "$d/hd.pgm" "$d/hd.dng" 72 28 || exit 1
fi
[ -f "$d/big.CR2" ] || "$b/tools/cr2synth/cr2synth" -o "$d/big.CR2" --dual 4 \
    --size 5796x3870 --ob 124x80 --seed 3 --overwrite || exit 1
sides=("$b/tools/mlvpipe/mlvpipe")
[ -n "$other" ] && sides+=("$other")
for photo in hd.dng big.CR2; do
    for r in $(seq 1 "$runs"); do
        for s in "${!sides[@]}"; do
            rm -rf "$d/out$s"
            line=$(/usr/bin/time -f "%U %S %M" "${sides[$s]}" -q convert "$d/$photo" \
                   -o "$d/out$s" --threads 1 2>&1 >/dev/null | tail -1)
            read -r u sy kib <<<"$line"
            printf "%-8s %s: %.2f CPU-s (%s user + %s system), peak %d MB (load %s)\n" \
                "$photo" "${sides[$s]}" "$(awk -v a="$u" -v b="$sy" 'BEGIN {print a + b}')" \
                "$u" "$sy" $((kib / 1024)) "$(cut -d' ' -f1 /proc/loadavg)"
        done
        [ -z "$other" ] || cmp -s "$d/out0/${photo%.*}.dng" "$d/out1/${photo%.*}.dng" ||
            { echo "$photo: the two give other bytes"; exit 1; }
    done
done
