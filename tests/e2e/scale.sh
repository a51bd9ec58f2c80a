#!/bin/bash
# --scale and --size (issue #35 item 4: editing proxies), judged by ffprobe and ffmpeg: a
# 320x180 clip with audio to `--to prores422proxy --scale 0.5` is a 160x90 ProRes Proxy movie
# with square pixels (DAR 16:9), BT.709 tags, its PCM track and the full-size movie's
# duration; the picture equals ffmpeg's own Lanczos downscale of the full-size FFV1 (PSNR
# above 45 dB on 16-bit RGB); --size fits the box with the aspect kept (TIFF 100x56);
# anamorphic modes (720p-like 3:5 pixels) are stretched and scaled in one pass (160x150,
# 1:1) or keep their pixels with --no-stretch (160x90, SAR 3:5, DAR 16:15); the same bytes at
# 1 and 2 threads; --scale on DNG and --scale with --size are usage errors (exit 2).
# usage: scale.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/pipeline_lib.sh"
need ffprobe ffmpeg

"$mlvsynth" -o "$tmp/s.MLV" --size 320x180 --frames 4 --audio >/dev/null || fail "mlvsynth"
"$mlvsynth" -o "$tmp/a.MLV" --content gradient --size 320x180 --frames 3 --binning 3x1 \
    --skipping 0x4 >/dev/null || fail "mlvsynth 720p-like"

probe() {   # probe FILE ENTRIES: the video stream's entries, "a|b|c"
    ffprobe -v error -select_streams v:0 -show_entries "stream=$2" -of csv=p=0:s='|' "$1"
}
expect() {   # expect WHAT FILE ENTRIES VALUE
    local got
    got=$(probe "$2" "$3")
    [ "$got" = "$4" ] || fail "$1: $3 $got, expected $4"
}
shape=width,height,sample_aspect_ratio,display_aspect_ratio

run proxy 0 convert "$tmp/s.MLV" -o "$tmp/p.mov" --to prores422proxy --scale 0.5 -v
expect proxy "$tmp/p.mov" $shape "160|90|1:1|16:9"
expect "proxy profile" "$tmp/p.mov" codec_name,profile "prores|Proxy"
expect "proxy tags" "$tmp/p.mov" color_primaries,color_transfer,color_space "bt709|bt709|bt709"
grep -q "320x180 resampled to 160x90" "$tmp/proxy.err" || fail "resampling not logged"
run full 0 convert "$tmp/s.MLV" -o "$tmp/f.mov" --to prores422proxy
duration() {   # duration FILE STREAM
    ffprobe -v error -select_streams "$2" -show_entries stream=duration -of csv=p=0 "$1"
}
[ "$(duration "$tmp/p.mov" a:0)" = "$(duration "$tmp/f.mov" a:0)" ] &&
    [ -n "$(duration "$tmp/p.mov" a:0)" ] || fail "proxy audio differs from the full size's"
[ "$(duration "$tmp/p.mov" v:0)" = "$(duration "$tmp/f.mov" v:0)" ] || fail "proxy duration"
run threads 0 convert "$tmp/s.MLV" -o "$tmp/p1.mov" --to prores422proxy --scale 0.5 \
    --threads 1
cmp -s "$tmp/p.mov" "$tmp/p1.mov" || fail "1 thread and the default differ"
run threads2 0 convert "$tmp/s.MLV" -o "$tmp/p2.mov" --to prores422proxy --scale 0.5 \
    --threads 2
cmp -s "$tmp/p1.mov" "$tmp/p2.mov" || fail "1 and 2 threads differ"

# the picture against ffmpeg's Lanczos (swscale, a = 3) of the full-size lossless movie
run ffv1-full 0 convert "$tmp/s.MLV" -o "$tmp/full.mkv" --to ffv1 --no-audio
run ffv1-half 0 convert "$tmp/s.MLV" -o "$tmp/half.mkv" --to ffv1 --no-audio --scale 0.5
psnr=$(ffmpeg -v info -nostats -i "$tmp/full.mkv" -i "$tmp/half.mkv" -filter_complex \
    "[0:v]scale=160:90:flags=lanczos+accurate_rnd,format=gbrp16le[a];[1:v]format=gbrp16le[b];[a][b]psnr" \
    -f null - 2>&1 | sed -n 's/.*PSNR.*average:\([0-9.]*\).*/\1/p')
awk -v p="${psnr:-0}" 'BEGIN { exit !(p > 45) }' ||
    fail "half size against ffmpeg's Lanczos: PSNR '${psnr}' dB, expected above 45"
echo "half size against ffmpeg's Lanczos: PSNR $psnr dB"

run size 0 convert "$tmp/s.MLV" -o "$tmp/tiff" --to tiff --size 100x100
expect "--size tiff" "$tmp/tiff/s/s_000000.tiff" width,height "100|56"

run stretch 0 convert "$tmp/a.MLV" -o "$tmp/a.mov" --scale 0.5
expect "stretched and halved" "$tmp/a.mov" $shape "160|150|1:1|16:15"
run keep 0 convert "$tmp/a.MLV" -o "$tmp/k.mov" --scale 0.5 --no-stretch
expect "kept and halved" "$tmp/k.mov" $shape "160|90|3:5|16:15"
run keep-size 0 convert "$tmp/a.MLV" -o "$tmp/ks.mkv" --size 96x400 --no-stretch
expect "kept, fitted (shown 192 wide)" "$tmp/ks.mkv" $shape "160|90|3:5|16:15"

run dng 2 convert "$tmp/s.MLV" -o "$tmp/dng" --scale 0.5
run both 2 convert "$tmp/s.MLV" -o "$tmp/b.mov" --scale 0.5 --size 100x100
run range 2 convert "$tmp/s.MLV" -o "$tmp/r.mov" --scale 5
run box 2 convert "$tmp/s.MLV" -o "$tmp/r.mov" --size 100
finish
