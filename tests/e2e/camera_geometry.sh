#!/bin/bash
# Clips with real-camera header geometry (mlvsynth --camera-geometry: raw_info = the whole
# 5D Mark III LiveView buffer with its optical-black borders, the recorded frame a window in
# its active area, VIDF cropPos/panPos and RAWC offsets) convert exactly like the same clip
# with the simplified header (buffer = frame): same frame MD5s, same DNG geometry tags
# (ActiveArea 0 0 H W: the buffer's active area does not fit the frame), same movie bytes
# (picture = the whole frame). mlvpipe info reports the recorded size, not the buffer's.
# usage: camera_geometry.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1 mlvsynth=$2
command -v exiftool >/dev/null || { echo "exiftool not installed: skip"; exit 77; }
. "$(dirname "$0")/lib.sh"

for case in "plain:--frames 3 --size 128x64" "lj92:--frames 3 --size 128x64 --compress lj92" \
            "dual:--frames 2 --size 256x128 --dual-iso --ob 0x0"; do
    name=${case%%:*} opts=${case#*:}
    # shellcheck disable=SC2086
    "$mlvsynth" -o "$tmp/$name-simple.MLV" $opts || { fail "$name: mlvsynth"; continue; }
    # shellcheck disable=SC2086
    "$mlvsynth" -o "$tmp/$name-camera.MLV" $opts --camera-geometry ||
        { fail "$name: mlvsynth --camera-geometry"; continue; }
    run "$name-info" 0 info --json "$tmp/$name-camera.MLV"
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w, h = (int(x) for x in sys.argv[2].split("x"))
sys.exit(not (d["width"] == w and d["height"] == h and not d["damage"]))' \
        "$tmp/$name-info.out" "$(sed 's/.*--size \([0-9x]*\).*/\1/' <<<"$opts")" ||
        fail "$name: info does not report the recorded size: $(head -c 300 "$tmp/$name-info.out")"
    for v in simple camera; do
        run "$name-$v-md5" 0 convert "$tmp/$name-$v.MLV" --to md5 -o "$tmp/$name-$v.md5"
        run "$name-$v-dng" 0 convert "$tmp/$name-$v.MLV" -o "$tmp/$name-$v-dng"
        run "$name-$v-mkv" 0 convert "$tmp/$name-$v.MLV" --to ffv1 -o "$tmp/$name-$v.mkv"
    done
    cmp -s "$tmp/$name-simple.md5" "$tmp/$name-camera.md5" || fail "$name: frames differ"
    cmp -s "$tmp/$name-simple.mkv" "$tmp/$name-camera.mkv" || fail "$name: movies differ"
    a=$(ls "$tmp/$name-simple-dng"/*/*_000000.dng) b=$(ls "$tmp/$name-camera-dng"/*/*_000000.dng)
    for tag in ActiveArea DefaultCropOrigin DefaultCropSize CFAPattern2 ImageWidth ImageHeight; do
        x=$(exiftool -n -s3 -"$tag" "$a") y=$(exiftool -n -s3 -"$tag" "$b")
        [ -n "$x" ] && [ "$x" = "$y" ] || fail "$name: $tag '$x' vs '$y' with camera geometry"
    done
    [ "$name" = dual ] || [ "$(exiftool -n -s3 -ActiveArea "$b")" = "0 0 $(exiftool -n -s3 \
        -ImageHeight "$b") $(exiftool -n -s3 -ImageWidth "$b")" ] || fail "$name: ActiveArea"
done
finish
