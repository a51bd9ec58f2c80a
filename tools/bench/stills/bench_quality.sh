#!/bin/bash
# Issue #31's quality must-show: dual-ISO DNG stills (1920x1080 active, 100/1600) written
# by a writer that is not ours (mlvdump_dng.py: mlv_dump's layout, the untouched interlaced
# mosaic), converted as a folder with default options, scored against truth (still_quality);
# beside them the same exposures as one MLV clip (mlvsynth: frame f is cr2synth --frame f,
# sample for sample), converted as a clip; and as the reference, the same scene on the plain
# ISO-100 sensor (single-ISO DNG stills, kept as recorded). CPU time of each conversion. Both
# scenes of doc/dualiso.md 8 (benchmark, objects).
# usage: bench_quality.sh BUILD_DIR [STILLS [WORK_DIR]]        (default 16 stills)
set -u
b=$1
n=${2:-16}
d=${3:-$(mktemp -d /tmp/mlvpipe-stillq.XXXXXX)}
here=$(dirname "$0")
seed=7
for scene in benchmark objects; do
    w=$d/$scene
    rm -rf "$w/dng" "$w/out" "$w/clip_out" "$w/iso100" "$w/iso100_out"
    mkdir -p "$w/dng" "$w/iso100"
    "$b/tools/mlvsynth/mlvsynth" -o "$w/clip.MLV" --content dualiso --scene $scene \
        --size 1992x1108 --frames "$n" --seed $seed --overwrite >/dev/null || exit 1
    for f in $(seq 0 $((n - 1))); do
        name=$(printf "IMG_%04d" "$f")
        "$b/tools/cr2synth/cr2synth" -o "$w/tmp.CR2" --scene $scene --dual 4 \
            --size 1920x1080 --ob 72x28 --seed $seed --frame "$f" --samples "$w/tmp.pgm" \
            --overwrite || exit 1
        python3 "$here/mlvdump_dng.py" "$w/tmp.pgm" "$w/dng/$name.dng" 72 28 || exit 1
        "$b/tools/cr2synth/cr2synth" -o "$w/tmp.CR2" --scene $scene --dual 0 \
            --size 1920x1080 --ob 72x28 --seed $seed --frame "$f" --samples "$w/tmp.pgm" \
            --overwrite || exit 1
        python3 "$here/mlvdump_dng.py" "$w/tmp.pgm" "$w/iso100/$name.dng" 72 28 || exit 1
    done
    rm -f "$w/tmp.CR2" "$w/tmp.pgm"
    echo "== $scene scene: $n DNG stills as a folder (default options, one thread)"
    /usr/bin/time -f "CPU %U s user + %S s system for $n stills" \
        "$b/tools/mlvpipe/mlvpipe" -q convert "$w/dng" -o "$w/out" --threads 1 || exit 1
    "$b/tools/bench/stills/still_quality" --scene $scene --seed $seed "$w"/out/*.dng || exit 1
    echo "== $scene scene: the same $n exposures as one MLV clip"
    /usr/bin/time -f "CPU %U s user + %S s system for $n frames" \
        "$b/tools/mlvpipe/mlvpipe" -q convert "$w/clip.MLV" -o "$w/clip_out" --threads 1 || exit 1
    "$b/tools/bench/stills/still_quality" --scene $scene --seed $seed "$w"/clip_out/clip/*.dng ||
        exit 1
    echo "== $scene scene: the reference, $n ISO-100 DNG stills (single ISO, kept as recorded)"
    "$b/tools/mlvpipe/mlvpipe" -q convert "$w/iso100" -o "$w/iso100_out" --threads 1 \
        --dng-bits 16 || exit 1
    "$b/tools/bench/stills/still_quality" --scene $scene --seed $seed "$w"/iso100_out/*.dng ||
        exit 1
done
