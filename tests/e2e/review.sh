#!/bin/bash
# H.264 and H.265 review copies (issue #35 item 4), judged by ffprobe and ffmpeg: `--to h264`
# (and .mp4 without --to) is H.264 High, yuv420p, BT.709 primaries/transfer/matrix, limited
# range, with AAC-LC audio in MP4; `--to h265` HEVC Main. The audio is in sync: both streams
# start at 0 with the same duration (frames / fps), and a tone that starts 0.1 s into the clip
# (mlvsynth --audio-offset) starts on the same sample in the decoded AAC as in the PCM of the
# ProRes movie of the same clip (within 1 ms). Dropped frames keep their place. The bytes
# do not depend on --threads (x264 and x265 run a fixed thread count). The picture is close
# to the lossless FFV1 of the same clip (PSNR above 35 dB). plan refuses them with one line
# saying that chunks do not join.
# usage: review.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/pipeline_lib.sh"
need ffprobe ffmpeg python3
ffmpeg -hide_banner -encoders 2>/dev/null | grep -q libx265 ||
    { echo "SKIP: this libavcodec has no libx265"; exit 77; }

"$mlvsynth" -o "$tmp/r.MLV" --size 320x180 --frames 24 --audio --audio-offset 100000 \
    >/dev/null || fail "mlvsynth"

streams() {   # streams FILE: one line a stream, "codec|profile|pix_fmt|..."
    ffprobe -v error -show_entries \
        stream=codec_name,profile,pix_fmt,color_primaries,color_transfer,color_space,color_range,start_time,duration \
        -of csv=p=0:s='|' "$1" | head -n 2
}

run h264 0 convert "$tmp/r.MLV" -o "$tmp/r.mp4"
run h265 0 convert "$tmp/r.MLV" -o "$tmp/r5.mp4" --to h265
for f in "r.mp4 h264|High" "r5.mp4 hevc|Main"; do
    got=$(streams "$tmp/${f%% *}")
    want="${f#* }|yuv420p|tv|bt709|bt709|bt709|0.000000|0.960000
aac|LC|0.000000|0.960000"
    [ "$got" = "$want" ] || fail "${f%% *} streams:
$got
expected
$want"
done

# onset FILE: the first sample (mono, 48 kHz) at half the peak
onset() {
    ffmpeg -v error -i "$1" -map 0:a -f s16le -ac 1 - | python3 -c '
import struct, sys
b = sys.stdin.buffer.read(); x = struct.unpack("<%dh" % (len(b) // 2), b)
peak = max(abs(v) for v in x)
print(next(i for i, v in enumerate(x) if abs(v) > peak / 2), len(x))'
}
run pcm 0 convert "$tmp/r.MLV" -o "$tmp/r.mov" --to prores422proxy
read -r at_pcm n_pcm <<<"$(onset "$tmp/r.mov")"
for f in r.mp4 r5.mp4; do
    read -r at n <<<"$(onset "$tmp/$f")"
    echo "$f: tone starts at sample $at of $n (PCM: $at_pcm of $n_pcm)"
    [ "$n" = "$n_pcm" ] || fail "$f: $n samples decoded, the PCM has $n_pcm"
    [ $((at - at_pcm)) -le 48 ] && [ $((at_pcm - at)) -le 48 ] ||
        fail "$f: the tone starts at $at, in the PCM at $at_pcm (more than 1 ms apart)"
done

for k in h264 h265; do
    run "$k-t1" 0 convert "$tmp/r.MLV" -o "$tmp/$k-1.mp4" --to $k --threads 1
    run "$k-t2" 0 convert "$tmp/r.MLV" -o "$tmp/$k-2.mp4" --to $k --threads 2
    cmp -s "$tmp/$k-1.mp4" "$tmp/$k-2.mp4" || fail "$k: 1 and 2 threads differ"
done
cmp -s "$tmp/r.mp4" "$tmp/h264-1.mp4" || fail "h264: the default threads and 1 differ"

run ffv1 0 convert "$tmp/r.MLV" -o "$tmp/r.mkv" --no-audio
psnr=$(ffmpeg -v info -nostats -i "$tmp/r.mkv" -i "$tmp/r.mp4" -filter_complex \
    "[0:v]format=yuv444p[a];[1:v]format=yuv444p[b];[a][b]psnr" -f null - 2>&1 |
    sed -n 's/.*PSNR.*average:\([0-9.]*\).*/\1/p')
echo "h264 against the lossless FFV1: PSNR $psnr dB"
awk -v p="${psnr:-0}" 'BEGIN { exit !(p > 35) }' || fail "h264 PSNR '$psnr', expected above 35"

# frames the camera dropped (mlvsynth --drop 0,7-8 of 12: the clip is frames 1..11, 7 and 8
# lost) are the last picture again, so the movie keeps every frame number's place: 11
frames() {
    ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets \
        -of csv=p=0 "$1"
}
[ "$(frames "$tmp/r.mp4")" = 24 ] || fail "h264: $(frames "$tmp/r.mp4") frames, expected 24"
"$mlvsynth" -o "$tmp/d.MLV" --size 320x180 --frames 12 --drop 0,7-8 >/dev/null || fail "mlvsynth drop"
for k in h264 h265; do
    run "drop-$k" 0 convert "$tmp/d.MLV" -o "$tmp/d-$k.mp4" --to $k
    [ "$(frames "$tmp/d-$k.mp4")" = 11 ] || fail "$k with drops: $(frames "$tmp/d-$k.mp4") frames"
done
run part 0 convert "$tmp/r.MLV" -o "$tmp/part.mp4" --frames 5-14 --no-audio
[ "$(frames "$tmp/part.mp4")" = 10 ] || fail "h264 frames 5-14: $(frames "$tmp/part.mp4")"

run plan 2 plan "$tmp/r.MLV" -o "$tmp/plan" --to h264
grep -q "farm chunks do not join into one MP4" "$tmp/plan.err" || fail "plan message: $(head -1 "$tmp/plan.err")"
[ "$(wc -l <"$tmp/plan.err")" -eq 2 ] || fail "plan refusal: not one line and the hint"
finish
