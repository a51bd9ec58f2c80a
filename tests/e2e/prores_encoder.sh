#!/bin/bash
# --prores-encoder ks|ks-slice|aw: each writes the ProRes profile asked for (ffprobe: codec,
# profile, tag, pixel format, frame count), each frame carries its encoder's creator id (ProRes
# frame header bytes 12-15: prores_ks "Lavc", prores_aw "fmpg"), aw decodes within 40 dB PSNR
# of the lossless FFV1 of the same clip, aw's and ks's bytes do not depend on --threads, and the
# option is a usage error for formats that are not ProRes. On noisy content (the sensor
# simulator, single ISO), ks (one quantiser per frame) keeps every frame within prores_ks's
# budget for the profile (its PSNR against ks-slice is the unit test movie-prores: exact
# there, while here swscale's Y'CbCr would differ from ours by more than the codecs do).
# usage: prores_encoder.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
need ffprobe ffmpeg

"$mlvsynth" -o "$tmp/c.MLV" --size 256x144 --frames 4 --audio >/dev/null || fail "mlvsynth"

# creator FILE: the creator id of the first video packet (hex of bytes 12-15 as ffprobe dumps)
creator() {
    ffprobe -v error -select_streams v -show_packets -show_data -read_intervals '%+#1' "$1" |
        awk '/^00000000:/ { print $8 $9; exit }'
}

# ks writes every profile in the pinned outputs; here it shows its creator id once
for e in ks ks-slice aw; do
    formats="prores422hq:HQ:apch:yuv422p10le"
    [ "$e" = aw ] && formats="$formats prores4444:4444:ap4h:yuv444p prores422proxy:Proxy:apco:yuv422p10le"
    for f in $formats; do
        IFS=: read -r fmt profile tag pix <<<"$f"
        out="$tmp/$e.$fmt.mov"
        run "$e-$fmt" 0 convert "$tmp/c.MLV" --to "$fmt" --prores-encoder "$e" -o "$out"
        got=$(ffprobe -v error -select_streams v -count_frames -show_entries \
            stream=codec_name,profile,codec_tag_string,pix_fmt,nb_read_frames -of csv=p=0 "$out")
        case "$got" in
        "prores,$profile,$tag,$pix"*",4") ;;
        *) fail "$e $fmt: ffprobe says '$got', expected prores,$profile,$tag,$pix*,4" ;;
        esac
        want=4c617663   # "Lavc"
        [ "$e" = aw ] && want=666d7067   # "fmpg"
        [ "$(creator "$out")" = "$want" ] || fail "$e $fmt: creator $(creator "$out"), expected $want"
    done
done
cmp -s "$tmp/ks.prores422hq.mov" "$tmp/aw.prores422hq.mov" && fail "ks and aw wrote the same bytes"
cmp -s "$tmp/ks.prores422hq.mov" "$tmp/ks-slice.prores422hq.mov" &&
    fail "ks and ks-slice wrote the same bytes"

run aw-t2 0 convert "$tmp/c.MLV" --prores-encoder aw --threads 2 -o "$tmp/aw2.mov"
run aw-t1 0 convert "$tmp/c.MLV" --prores-encoder aw --threads 1 -o "$tmp/aw1.mov"
cmp -s "$tmp/aw1.mov" "$tmp/aw2.mov" || fail "aw: --threads 1 and 2 differ"


# psnr MOVIE REF: average PSNR of MOVIE against REF, both as 16-bit RGB
psnr() {
    ffmpeg -nostdin -v info -i "$1" -i "$2" -lavfi \
        "[0:v]format=gbrp16le[a];[1:v]format=gbrp16le[b];[a][b]psnr" -f null - 2>&1 |
        sed -n 's/.*PSNR.* average:\([0-9.inf]*\).*/\1/p'
}
run ffv1 0 convert "$tmp/c.MLV" --to ffv1 -o "$tmp/ref.mkv"
p=$(psnr "$tmp/aw1.mov" "$tmp/ref.mkv")
awk -v p="$p" 'BEGIN { exit !(p == "inf" || p + 0 >= 40) }' || fail "aw PSNR '$p' below 40 dB"

"$mlvsynth" -o "$tmp/n.MLV" --content dualiso --ev-gap 0.01 --no-diso --size 640x360 \
    --frames 3 >/dev/null || fail "mlvsynth (noisy)"
run n-ks 0 convert "$tmp/n.MLV" --threads 1 -o "$tmp/n-ks.mov"
run n-ks-t2 0 convert "$tmp/n.MLV" --threads 2 -o "$tmp/n-ks2.mov"
cmp -s "$tmp/n-ks.mov" "$tmp/n-ks2.mov" || fail "ks: --threads 1 and 2 differ"
run n-slice 0 convert "$tmp/n.MLV" --prores-encoder ks-slice -o "$tmp/n-slice.mov"
# prores_ks's HQ budget at this size (up to 1620 macroblocks): 1566 bits per macroblock
w=$(ffprobe -v error -select_streams v -show_entries stream=width,height -of csv=p=0 "$tmp/n-ks.mov")
budget=$(awk -v s="$w" 'BEGIN { split(s, d, ","); print int(int((d[1] + 15) / 16) * int((d[2] + 15) / 16) * 1566 / 8) }')
big=$(ffprobe -v error -select_streams v -show_entries packet=size -of csv=p=0 "$tmp/n-ks.mov" |
    awk -v b="$budget" '$1 > b')
[ -z "$big" ] || fail "ks: frames of $big bytes over the budget of $budget"
cmp -s "$tmp/n-ks.mov" "$tmp/n-slice.mov" && fail "noisy: ks and ks-slice wrote the same bytes"

for f in ffv1:mkv dnxhrhq:mov; do
    run "refuse-${f%%:*}" 2 convert "$tmp/c.MLV" --to "${f%%:*}" --prores-encoder aw -o "$tmp/x.${f##*:}"
    grep -q "prores-encoder.*is not ProRes" "$tmp/refuse-${f%%:*}.err" ||
        fail "refusal for ${f%%:*}: $(cat "$tmp/refuse-${f%%:*}.err")"
done
run refuse-dng 2 convert "$tmp/c.MLV" --prores-encoder aw -o "$tmp/dng"
run refuse-value 2 convert "$tmp/c.MLV" --prores-encoder fast -o "$tmp/y.mov"
grep -q "takes ks, ks-slice or aw" "$tmp/refuse-value.err" || fail "bad value: $(cat "$tmp/refuse-value.err")"
finish
