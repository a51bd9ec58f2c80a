#!/bin/bash
# Piping into ffmpeg as the README shows it: the NUT recipe gives H.264 High, yuv420p,
# tagged BT.709 (primaries, transfer, matrix, limited range) whose pictures decode within
# 40 dB PSNR of the stream's RGB (measured 43; the default BT.601 conversion gives 32); -v names the
# ffmpeg input options of NUT and rawvideo (colour tags; for rawvideo also pixel format, size,
# rate), and with them ffmpeg reads the rawvideo stream into the same pictures as the NUT one,
# tagged.
# usage: cli_pipe.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$(realpath "$1")
mlvsynth=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
for tool in ffmpeg ffprobe; do
    command -v $tool >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
ffmpeg -hide_banner -encoders 2>/dev/null | grep -q libx264 || { echo "SKIP: no libx264"; exit 77; }

"$mlvsynth" -o "$tmp/A001.MLV" --size 320x180 --frames 10 >/dev/null || { fail "mlvsynth"; finish; }
cd "$tmp" || exit 1

# tags FILE: profile, pixel format and colour tags of the video stream
tags() {
    ffprobe -v error -select_streams v -show_entries \
        stream=profile,pix_fmt,color_range,color_space,color_transfer,color_primaries \
        -of compact=p=0 "$1"
}
# psnr A B: average PSNR of B's pictures against A's (both read as RGB; A is RGB already)
psnr() {
    ffmpeg -nostdin -v info -i "$2" -i "$1" -filter_complex \
        "[0:v]scale=in_color_matrix=bt709:in_range=tv,format=gbrp[a];[1:v]format=gbrp[b];[a][b]psnr" \
        -f null - 2>&1 | sed -n 's/.*PSNR.*average:\([0-9.inf]*\).*/\1/p'
}

"$mlvpipe" convert A001.MLV --to nut -o A001.nut 2>/dev/null || fail "nut file"
# The README's recipe, word for word.
mlvpipe() { "$MLVPIPE" "$@"; }
MLVPIPE=$mlvpipe
mlvpipe convert A001.MLV --to nut -o - | \
  ffmpeg -color_primaries bt709 -color_trc bt709 -colorspace rgb -f nut -i - \
    -vf scale=out_color_matrix=bt709:out_range=tv,format=yuv420p \
    -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv \
    -c:v libx264 -crf 18 A001.mp4 2>x264.err || fail "README recipe: $(tail -3 x264.err)"
t=$(tags A001.mp4)
[ "$t" = "profile=High|pix_fmt=yuv420p|color_range=tv|color_space=bt709|color_transfer=bt709|color_primaries=bt709" ] ||
    fail "H.264 from the recipe: $t"
p=$(psnr A001.nut A001.mp4)
awk -v p="$p" 'BEGIN { exit !(p > 40) }' || fail "recipe H.264 PSNR $p dB, expected > 40"
echo "recipe: $t, PSNR $p dB"

# -v names the input options; with them ffmpeg reads rawvideo into the NUT's pictures.
"$mlvpipe" -v convert A001.MLV --to nut -o n2.nut 2>nut.err || fail "nut -v"
grep -q "read it with: ffmpeg -color_primaries bt709 -color_trc bt709 -colorspace rgb -color_range pc -f nut -i -" nut.err ||
    fail "nut -v line: $(grep 'read it' nut.err)"
"$mlvpipe" -v convert A001.MLV --to rawvideo --no-audio -o - 2>raw.err >A001.rgb ||
    fail "rawvideo: $(cat raw.err)"
opts=$(sed -n 's/.*read it with: ffmpeg \(.*\) -i -$/\1/p' raw.err)
grep -q -- "-pix_fmt rgb48le -s 320x180 -r 25/1" <<<"$opts" || fail "rawvideo -v: '$opts'"
# shellcheck disable=SC2086
ffmpeg -nostdin -v error $opts -i A001.rgb -c:v ffv1 -pix_fmt gbrp16le raw.mkv ||
    fail "ffmpeg with the -v options"
md5() { ffmpeg -nostdin -v error -i "$1" -map 0:v -pix_fmt rgb48le -f framemd5 - | grep -v '^#' | cut -d, -f2,4-; }
[ "$(md5 raw.mkv)" = "$(md5 A001.nut)" ] && [ "$(md5 raw.mkv | wc -l)" = 10 ] ||
    fail "rawvideo read with the -v options differs from the NUT stream"
[ "$(tags raw.mkv)" = "profile=unknown|pix_fmt=gbrp16le|color_range=pc|color_space=gbr|color_transfer=bt709|color_primaries=bt709" ] ||
    fail "rawvideo -> FFV1 tags: $(tags raw.mkv)"
finish
