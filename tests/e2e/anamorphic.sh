#!/bin/bash
# Movies of anamorphic and line-skipping modes (issue #11 item 5), judged by ffprobe/ffmpeg:
# a 320x180 clip recorded like 720p (RAWC binning 3x1, skipping 0x4: pixels 3 wide, 5 tall)
# comes out 320x300 with square pixels (sample_aspect_ratio 1:1) in ProRes/MOV, FFV1/MKV
# and NUT, and TIFF/EXR frames are 320x300; --no-stretch keeps 320x180 and says 3:5 in the
# container (display aspect 16:15 both ways), in EXR's pixelAspectRatio (exrheader) and in
# TIFF's X/Y resolution (tiffinfo: 120 and 72 dpi). The picture (a horizontal gradient, constant
# down each column) decodes losslessly from FFV1 to the recorded pixels' columns on every
# row. A 3x1-binned mode (pixels 3 wide) grows the width: 960x180 or 3:1. Same bytes
# at 1 and 2 threads. Clips with square pixels are not resampled.
# usage: anamorphic.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/pipeline_lib.sh"
need ffprobe ffmpeg python3 exrheader tiffinfo

"$mlvsynth" -o "$tmp/a.MLV" --content gradient --size 320x180 --frames 3 --binning 3x1 \
    --skipping 0x4 >/dev/null || fail "mlvsynth 720p-like"
"$mlvsynth" -o "$tmp/h.MLV" --content gradient --size 320x180 --frames 2 --binning 3x1 \
    >/dev/null || fail "mlvsynth 3x1"
"$mlvsynth" -o "$tmp/s.MLV" --content gradient --size 320x180 --frames 2 >/dev/null ||
    fail "mlvsynth square"

# probe FILE: "WIDTHxHEIGHT SAR DAR" of the video stream
probe() {
    ffprobe -v error -select_streams v:0 -show_entries \
        stream=width,height,sample_aspect_ratio,display_aspect_ratio -of csv=p=0 "$1" |
        awk -F, '{print $1 "x" $2, $3, $4}'
}
expect() {   # expect WHAT FILE "WxH SAR DAR"
    local got
    got=$(probe "$2")
    [ "$got" = "$3" ] || fail "$1: $got, expected $3"
}

for ext in mov mkv nut; do
    run "stretch-$ext" 0 convert "$tmp/a.MLV" -o "$tmp/a.$ext" -v
    expect "stretched $ext" "$tmp/a.$ext" "320x300 1:1 16:15"
    run "keep-$ext" 0 convert "$tmp/a.MLV" -o "$tmp/k.$ext" --no-stretch
    expect "kept $ext" "$tmp/k.$ext" "320x180 3:5 16:15"
done
grep -q "resampled to 320x300" "$tmp/stretch-mov.err" || fail "no resampling logged"
run dnxhr 0 convert "$tmp/a.MLV" -o "$tmp/d.mov" --to dnxhrhq --no-stretch
expect "kept dnxhr" "$tmp/d.mov" "320x180 3:5 16:15"
run h-stretch 0 convert "$tmp/h.MLV" -o "$tmp/h.mkv"
expect "3x1 stretched" "$tmp/h.mkv" "960x180 1:1 16:3"
run h-keep 0 convert "$tmp/h.MLV" -o "$tmp/hk.mkv" --no-stretch
expect "3x1 kept" "$tmp/hk.mkv" "320x180 3:1 16:3"
run square 0 convert "$tmp/s.MLV" -o "$tmp/s.mkv" -v
expect "square" "$tmp/s.mkv" "320x180 1:1 16:9"
grep -q "resampled" "$tmp/square.err" && fail "square pixels resampled"

run tiff 0 convert "$tmp/a.MLV" -o "$tmp/tiff" --to tiff
[ "$(probe "$tmp/tiff/a/a_000000.tiff" | cut -d' ' -f1)" = 320x300 ] || fail "tiff size"
run exr 0 convert "$tmp/a.MLV" -o "$tmp/exr" --to exr
[ "$(probe "$tmp/exr/a/a_000000.exr" | cut -d' ' -f1)" = 320x300 ] || fail "exr size"

# the pixels' shape in image files, read by OpenEXR's exrheader and libtiff's tiffinfo:
# pixelAspectRatio (width / height of a pixel) and the ratio of TIFF's resolutions (pixels
# per inch across / down = height / width of a pixel): square when resampled, 3:5 and 3:1
# kept with --no-stretch
exr_aspect() {   # exr_aspect WHAT FILE VALUE
    local got
    got=$(exrheader "$2" | sed -n 's/^pixelAspectRatio (type float): //p')
    python3 -c "import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 1e-6)" \
        "${got:-nan}" "$3" || fail "$1: pixelAspectRatio '$got', expected $3"
}
tiff_res() {   # tiff_res WHAT FILE "X, Y"
    local got
    got=$(tiffinfo "$2" 2>/dev/null | sed -n 's/^ *Resolution: \(.*\) pixels\/inch$/\1/p')
    [ "$got" = "$3" ] || fail "$1: resolution '$got' pixels/inch, expected $3"
}
run exr-keep 0 convert "$tmp/a.MLV" -o "$tmp/exrk" --to exr --no-stretch
run tiff-keep 0 convert "$tmp/a.MLV" -o "$tmp/tiffk" --to tiff --no-stretch
run exr-keep-h 0 convert "$tmp/h.MLV" -o "$tmp/exrh" --to exr --no-stretch
run tiff-keep-h 0 convert "$tmp/h.MLV" -o "$tmp/tiffh" --to tiff --no-stretch
exr_aspect "stretched exr" "$tmp/exr/a/a_000000.exr" 1
exr_aspect "kept exr" "$tmp/exrk/a/a_000000.exr" 0.6
exr_aspect "kept 3x1 exr" "$tmp/exrh/h/h_000000.exr" 3
tiff_res "stretched tiff" "$tmp/tiff/a/a_000000.tiff" "72, 72"
tiff_res "kept tiff" "$tmp/tiffk/a/a_000000.tiff" "120, 72"
tiff_res "kept 3x1 tiff" "$tmp/tiffh/h/h_000000.tiff" "24, 72"
[ "$(probe "$tmp/exrk/a/a_000002.exr" | cut -d' ' -f1)" = 320x180 ] || fail "kept exr size"
[ "$(probe "$tmp/tiffh/h/h_000001.tiff" | cut -d' ' -f1)" = 320x180 ] || fail "kept tiff size"

# FFV1 is lossless: every row of the stretched frame holds the recorded columns (the
# developed gradient is constant down each column but for a ripple of a few DN from the
# demosaic; Lanczos may overshoot it slightly: 64 of 65535 allowed)
ffmpeg -v error -i "$tmp/a.mkv" -frames:v 1 -f rawvideo -pix_fmt rgb48le - >"$tmp/a.rgb" ||
    fail "decode stretched"
ffmpeg -v error -i "$tmp/k.mkv" -frames:v 1 -f rawvideo -pix_fmt rgb48le - >"$tmp/k.rgb" ||
    fail "decode kept"
python3 - "$tmp/a.rgb" "$tmp/k.rgb" <<'PY' || fail "stretched picture differs from the columns"
import struct, sys
a, k = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
row = 320 * 6
assert len(a) == 300 * row and len(k) == 180 * row, (len(a), len(k))
K = [struct.unpack("<960H", k[y * row:(y + 1) * row]) for y in range(180)]
A = [struct.unpack("<960H", a[y * row:(y + 1) * row]) for y in range(300)]
lo = [min(r[i] for r in K) for i in range(960)]
hi = [max(r[i] for r in K) for i in range(960)]
assert max(hi) - min(lo) > 30000, "a flat picture tests nothing"
out = max(max(lo[i] - r[i], r[i] - hi[i]) for r in A for i in range(960))
print("stretched samples beyond their recorded column's range: %d" % max(out, 0))
assert out <= 64, out
PY

run t1 0 convert "$tmp/a.MLV" -o "$tmp/t1.mkv" --threads 1
run t2 0 convert "$tmp/a.MLV" -o "$tmp/t2.mkv" --threads 2
cmp -s "$tmp/t1.mkv" "$tmp/t2.mkv" || fail "1 and 2 threads differ"
run dng-stretch 2 convert "$tmp/a.MLV" -o "$tmp/dng" --no-stretch
finish
