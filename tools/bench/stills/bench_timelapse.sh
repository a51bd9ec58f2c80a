#!/bin/bash
# A static dual-ISO timelapse of 48 photos (tools/cr2synth --frame 0..47: sample for sample
# the frames of `mlvsynth --dual-iso --size 1280x720 --frames 48 --seed 3`) converted as a
# sequence (--sequence: levels pooled over the photos) and photo by photo (each its own
# levels), both judged by flicker_check against the clip's truth; CPU time of each, and the
# sequence's samples against the clip's (doc/stills.md 6).
# usage: bench_timelapse.sh BUILD_DIR [WORK_DIR]
set -u
b=$1
d=${2:-$(mktemp -d /tmp/mlvpipe-timelapse.XXXXXX)}
mkdir -p "$d/tl"
"$b/tools/mlvsynth/mlvsynth" -o "$d/static.MLV" --dual-iso --size 1280x720 --frames 48 \
    --seed 3 --overwrite >/dev/null || exit 1
for f in $(seq 0 47); do
    "$b/tools/cr2synth/cr2synth" -o "$(printf "%s/tl/IMG_%04d.CR2" "$d" "$f")" --dual 4 \
        --size 1208x692 --ob 72x28 --seed 3 --frame "$f" --overwrite || exit 1
done
rm -rf "$d/seq" "$d/each" "$d/clip" "$d/each_seq"
t() { /usr/bin/time -f "$1: %U s user + %S s system, %e s wall" "${@:2}"; }
t "sequence, 2 threads" "$b/tools/mlvpipe/mlvpipe" -q convert --sequence "$d/tl" -o "$d/seq" --threads 2
t "photo by photo" "$b/tools/mlvpipe/mlvpipe" -q convert "$d/tl" -o "$d/each" --threads 2
t "the clip" "$b/tools/mlvpipe/mlvpipe" -q convert "$d/static.MLV" -o "$d/clip" --threads 2
mkdir -p "$d/each_seq"
i=0
for f in "$d"/each/IMG_*.dng; do
    ln -sf "$f" "$(printf "%s/each_seq/each_%06d.dng" "$d" "$i")"
    i=$((i + 1))
done
for run in seq/tl each_seq; do
    echo "== $run"
    "$b/tools/bench/flicker/flicker_check" --fine "$d/static.truth.json" "$d/$run"
done
for i in 0 47; do
    cmp -s <(dcraw -D -4 -c "$(printf "%s/seq/tl/tl_%06d.dng" "$d" "$i")") \
           <(dcraw -D -4 -c "$(printf "%s/clip/static/static_%06d.dng" "$d" "$i")") &&
        echo "frame $i: the sequence's samples are the clip's" ||
        echo "frame $i: the sequence's samples differ from the clip's"
done
