#!/usr/bin/env bash
# mlvsynth output files: every variant generated twice is byte-identical (determinism); every
# clean MLV follows mlv_lite's block layout and every damaged one shows its damage
# (synth_layout.py, an independent block walker); the uncompressed ones decode in ffmpeg's
# MLV demuxer to exactly the content formula, in frame-number order (spanned and out-of-order
# included); and the plain clips agree with the independently generated shared samples.
# usage: synth_files.sh MLVSYNTH
set -euo pipefail
here=$(dirname "$0")
. "$here/synth_lib.sh"
mlvsynth=$1
command -v ffmpeg >/dev/null || { echo "ffmpeg not installed"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/a" "$dir/b"

synth_variants "" | while read -r name opts; do
    # shellcheck disable=SC2086
    "$mlvsynth" -o "$dir/a/$name" $opts
    # shellcheck disable=SC2086
    "$mlvsynth" -o "$dir/b/$name" $opts
done
n=0
for f in "$dir"/a/*; do
    cmp "$f" "$dir/b/${f##*/}"
    n=$((n + 1))
done
[ "$(ls "$dir/a" | wc -l)" = "$(ls "$dir/b" | wc -l)" ]
if ls -A "$dir/a" | grep '\.part$'; then echo "temporary files left"; exit 1; fi
echo "determinism: $n files identical"

clips_with() { synth_variants "$1" | while read -r name opts; do echo "$dir/a/$name"; done; }
mapfile -t layout_clips < <(clips_with l)
mapfile -t damaged_clips < <(clips_with d)
[ "${#layout_clips[@]}" -gt 0 ] && [ "${#damaged_clips[@]}" -gt 0 ]
python3 "$here/synth_layout.py" "${layout_clips[@]}"
python3 "$here/synth_layout.py" --expect-damage "${damaged_clips[@]}"

synth_variants f | while read -r name opts; do
    python3 "$here/synth_ffcheck.py" "$dir/a/$name"
done

samples=${MLVPIPE_SAMPLES:-}/synthetic
if [ -f "$samples/expected_md5.json" ]; then
    mkdir "$dir/s"
    for b in 10 12 14; do
        s=$samples/synth_${b}bit_128x64_3f.MLV
        "$mlvsynth" -o "$dir/s/p$b.MLV" --bits "$b" --header minimal
        python3 "$here/synth_ffcheck.py" "$dir/s/p$b.MLV" --md5 "$samples/expected_md5.json" \
            "${s##*/}"
        # The samples were written by another generator; only two header fields differ:
        # MLVI fileCount (byte 27: mlv_lite's 0 here, 1 there) and EXPO isoAnalog (byte 257:
        # Canon's raw code 72 here, 100 there).
        diffs=$({ cmp -l "$dir/s/p$b.MLV" "$s" || true; } | awk '{print $1}' | tr '\n' ' ')
        [ "$diffs" = "27 257 " ] || { echo "p$b.MLV differs from ${s##*/} at: $diffs"; exit 1; }
    done
    "$mlvsynth" -o "$dir/s/span.MLV" --frames 4 --chunk-frames 2 --header minimal
    python3 "$here/synth_ffcheck.py" "$dir/s/span.MLV" --md5 "$samples/expected_md5.json" \
        "synth_span.MLV+M00"
    echo "shared samples: same pixels and layout"
else
    echo "shared samples not found; sample cross-check skipped"
fi
