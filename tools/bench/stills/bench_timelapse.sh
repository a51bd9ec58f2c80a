#!/bin/bash
# A static dual-ISO timelapse of 48 photos (tools/cr2synth --frame 0..47: sample for sample
# the frames of `mlvsynth --dual-iso --size 1280x720 --frames 48 --seed 3`) converted as a
# sequence (--sequence: levels pooled over the photos) and photo by photo (each its own
# levels), both judged by flicker_check against the clip's truth; CPU time of each, and the
# sequence's samples against the clip's; and the flicker of each (still_quality: the standard
# deviation over the photos of each band's error) against the same 48 exposures on the plain
# ISO-100 sensor converted as a sequence, the reference issue #31 holds the dual-ISO
# timelapse to (at most 1.25 times its flicker), and the same ISO-100 outputs with the rows a
# dual-ISO photo reads at the high ISO interpolated from the low field (still_quality --fields
# low): the flicker of a dual-ISO timelapse where its high field is clipped, at best
# (doc/stills.md 6).
# usage: bench_timelapse.sh BUILD_DIR [WORK_DIR]
set -u
b=$1
d=${2:-$(mktemp -d /tmp/mlvpipe-timelapse.XXXXXX)}
mkdir -p "$d/tl" "$d/tl100"
"$b/tools/mlvsynth/mlvsynth" -o "$d/static.MLV" --dual-iso --size 1280x720 --frames 48 \
    --seed 3 --overwrite >/dev/null || exit 1
for f in $(seq 0 47); do
    "$b/tools/cr2synth/cr2synth" -o "$(printf "%s/tl/IMG_%04d.CR2" "$d" "$f")" --dual 4 \
        --size 1208x692 --ob 72x28 --seed 3 --frame "$f" --overwrite || exit 1
    "$b/tools/cr2synth/cr2synth" -o "$(printf "%s/tl100/IMG_%04d.CR2" "$d" "$f")" \
        --size 1208x692 --ob 72x28 --seed 3 --frame "$f" --overwrite || exit 1
done
rm -rf "$d/seq" "$d/each" "$d/clip" "$d/each_seq" "$d/seq100"
t() { /usr/bin/time -f "$1: %U s user + %S s system, %e s wall" "${@:2}"; }
t "sequence, 2 threads" "$b/tools/mlvpipe/mlvpipe" -q convert --sequence "$d/tl" -o "$d/seq" --threads 2
t "photo by photo" "$b/tools/mlvpipe/mlvpipe" -q convert "$d/tl" -o "$d/each" --threads 2
t "the clip" "$b/tools/mlvpipe/mlvpipe" -q convert "$d/static.MLV" -o "$d/clip" --threads 2
t "ISO 100, sequence" "$b/tools/mlvpipe/mlvpipe" -q convert --sequence "$d/tl100" -o "$d/seq100" \
    --dng-bits 16 \
    --threads 2
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
q() { "$b/tools/bench/stills/still_quality" --size 1208x692 --seed 3 "$@" | grep flicker; }
echo "flicker, % (std over the 48 photos of each band's error; still_quality):"
dual=$(q "$d"/seq/tl/*.dng) && each=$(q "$d"/each/*.dng) && iso100=$(q "$d"/seq100/tl100/*.dng) &&
    low=$(q --fields low "$d"/seq100/tl100/*.dng) || exit 1
printf "  dual ISO, --sequence:     %s\n  dual ISO, photo by photo: %s\n  ISO 100, --sequence:      %s\n" \
    "${dual#*)}" "${each#*)}" "${iso100#*)}"
printf "  ISO 100, low field only:  %s\n" "${low#*)}"
awk -v a="$dual" -v b="$each" -v c="$iso100" -v l="$low" 'BEGIN {
    split(a, x, " "); split(b, y, " "); split(c, z, " "); split(l, w, " ")
    printf "  ratio to ISO 100 (limit 1.25):"
    for (i = 7; i <= length(x); i += 3)
        printf "  %s %.2f / %.2f / %.2f", x[i - 1], x[i] / z[i], y[i] / z[i], w[i] / z[i]
    printf "  (--sequence / photo by photo / ISO 100 low field only)\n"
}'
