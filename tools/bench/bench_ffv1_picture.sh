#!/bin/bash
# bench_ffv1_picture: why bench_command's FFV1 row costs what it does. libavcodec's FFV1
# coder is the same on both sides of that row; what differs is the picture it codes. This
# codes two pictures of the same plain 14-bit clip with ffmpeg's FFV1 (one thread, level 3,
# range coder, slice CRCs, as mlvpipe's --to ffv1), from uncompressed NUT files so that
# neither side's develop counts:
#   ours    mlvpipe's developed frames (--to nut: the active area, matrix, BT.709 curve in
#           16-bit codes)
#   ffmpeg  ffmpeg's own picture of the MLV (its demuxer, swscale's Bayer interpolation to
#           rgb48: linear 14-bit samples times 4, black level kept, the whole sensor area)
# and ours again at 14 and 12 bits (gbrp14le, gbrp12le: what coding fewer bits would cost),
# and both at 4 and 16 slices. Each line: CPU ns per pixel (user + sys over the frames'
# pixels; the NUT decode included, the same on every line) and coded bits per sample,
# ROUNDS times A B A B ... in turn, as the machine is shared.
#
# usage: bench_ffv1_picture.sh MLVPIPE MLVSYNTH [FRAMES (8) [ROUNDS (2)]]
set -u
mlvpipe=$1
mlvsynth=$2
frames=${3:-8}
rounds=${4:-2}
bench=bench_ffv1_picture
. "$(dirname "$0")/bench_scratch.sh"

"$mlvsynth" -o "$tmp/plain.MLV" --dual-iso --single-iso --size 1920x1080 --frames "$frames" \
    >/dev/null || die "mlvsynth"
"$mlvpipe" convert --threads 1 "$tmp/plain.MLV" --to nut -o "$tmp/ours.nut" 2>"$tmp/err" ||
    die "mlvpipe: $(tail -n 2 "$tmp/err")"
ffmpeg -nostdin -v error -threads 1 -i "$tmp/plain.MLV" -c:v rawvideo -pix_fmt gbrp16le \
    -f nut "$tmp/ffmpeg.nut" || die "ffmpeg's picture"

# code PICTURE PIX_FMT SLICES: one line
code() {
    local pixels
    pixels=$(ffprobe -v error -select_streams v:0 -show_entries stream=width,height -of csv=p=0 \
             "$tmp/$1.nut" | awk -F, '{ print $1 * $2 }')
    /usr/bin/time -f '%U %S' -o "$tmp/cpu" ffmpeg -nostdin -v error -threads 1 -i "$tmp/$1.nut" \
        -c:v ffv1 -level 3 -g 1 -coder 1 -slicecrc 1 -slices "$3" -pix_fmt "$2" -y \
        "$tmp/out.mkv" || die "ffmpeg ffv1 $*"
    awk -v p="$pixels" -v n="$frames" -v b="$(stat -c %s "$tmp/out.mkv")" -v what="$1 $2 $3" \
        '{ printf "%-28s %6.0f ns/pixel %6.2f bits/sample\n", what " slices", \
                  ($1 + $2) * 1e9 / (p * n), b * 8 / (3 * p * n) }' "$tmp/cpu"
}

echo "bench_ffv1_picture: $frames frames, load $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < rounds; i++)); do
    code ours gbrp16le 16
    code ffmpeg gbrp16le 16
    code ours gbrp14le 16
    code ours gbrp12le 16
    code ours gbrp16le 4
    code ffmpeg gbrp16le 4
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
