#!/bin/bash
# Issue #12 item 5: an option the output format does not take is a usage error (exit 2) that
# says what the option does, which formats take it (from the format table) and what the
# chosen format does instead; found before the clip is read, nothing written. Develop options
# (--wb, --gamut, --curve, --exposure, --fast) with the raw formats (dng, md5, null); DNG
# storage (--dng-bits, --dng-compression) with anything but DNG; sequence options (--naming,
# --clip-index, --one-based, --skip-existing) with one-file formats; --audio (the WAV beside a
# sequence) with movies and md5; --clip-index without resolve names. The formats that take them
# still do (tiff: develop + sequence options; dng: storage + sequence options). Before item 5
# every one of these exited 0, the option silently ignored.
# usage: cli_options.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$(realpath "$1")
mlvsynth=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
"$mlvsynth" -o A001.MLV --size 64x32 --frames 2 --audio >/dev/null || { fail "mlvsynth"; finish; }

developed="tiff, exr, prores422hq, prores4444, prores422, prores422lt, prores422proxy, dnxhrhq, dnxhrhqx, dnxhr444, h264, h265, ffv1, nut, movraw, rawvideo"
# NAME | options | the message
n=0
while IFS='|' read -r name opts message; do
    n=$((n+1))
    # shellcheck disable=SC2086
    run "$name" 2 convert A001.MLV -o "out$n" $opts
    { grep -q '^mlvpipe convert: ' "$tmp/$name.err" && grep -qF -- "$message" "$tmp/$name.err"; } ||
        fail "$name: expected 'mlvpipe convert: ...$message', got: $(head -c 400 "$tmp/$name.err")"
    ls | grep -q "^out$n" && fail "$name: output written"
done <<LIST
curve-dng|--curve logc3|--curve sets the transfer curve of the developed picture (--to $developed); --to dng takes the raw mosaic, undeveloped
gamut-dng|--to dng --gamut rec2020|--gamut sets the primaries of the developed picture (--to $developed); --to dng takes the raw mosaic, undeveloped
exposure-dng|--exposure 1|--exposure shifts the exposure of the developed picture
wb-dng|--wb 5600|--wb sets the white balance of the developed picture
fast-dng|--fast|--fast picks the demosaic of the developed picture
curve-md5|--to md5 --curve linear|--to md5 takes the raw mosaic, undeveloped
wb-null|--to null --wb auto|--to null takes the raw mosaic, undeveloped
dngbits-mov|--to prores422hq --dng-bits 16|--dng-bits sets the sample size of DNG files (--to dng); --to prores422hq writes developed RGB, not DNG
dngcomp-tiff|--to tiff --dng-compression lj92|--dng-compression compresses DNG files (--to dng); --to tiff writes developed RGB, not DNG
dngbits-md5|--to md5 --dng-bits 16|--to md5 writes no DNG
naming-mov|--to prores422hq --naming resolve|--naming names the folder and files of an image sequence (--to dng, tiff, exr); --to prores422hq writes one .mov file
naming-mkv|--to ffv1 --naming plain|--to ffv1 writes one .mkv file
onebased-nut|--to nut --one-based|--one-based numbers the files of an image sequence from 1 (--to dng, tiff, exr); --to nut writes one .nut file
clipindex-mov|--to dnxhrhq --naming resolve --clip-index 2|--naming names the folder and files
skip-raw|--to rawvideo --skip-existing|--skip-existing keeps the finished files of an image sequence (--to dng, tiff, exr); --to rawvideo writes one stream, not a folder of files
naming-null|--to null --naming resolve|--to null writes no file
audio-mov|--to prores422hq --audio|--audio writes the WAV beside an image sequence for a --frames part (--to dng, tiff, exr); --to prores422hq carries the audio of its frames in the file, whatever --frames says
audio-md5|--to md5 --audio|--to md5 writes no audio
clipindex-plain|--clip-index 3|--clip-index is the C0000 part of resolve names; give --naming resolve with it
mov-name-curve|-o x.mov --dng-bits 16|--dng-bits sets the sample size of DNG files (--to dng); --to prores422hq writes developed RGB, not DNG
LIST
[ "$n" -eq 20 ] || fail "ran $n cases, not 20"

# The formats that take them.
run tiff-all 0 convert A001.MLV -o tiff --to tiff --curve linear --gamut rec2020 --exposure 0.5 \
    --wb 5600 --fast --naming resolve --clip-index 7 --one-based --audio --frames 0
ls tiff/*_C0007/*_C0007_000001.tiff tiff/*_C0007/*_C0007.wav >/dev/null 2>&1 ||
    fail "tiff with develop and sequence options: $(find tiff | tr '\n' ' ')"
run dng-all 0 convert A001.MLV -o dng --dng-bits 16 --naming plain --one-based --audio --frames 1
[ -f dng/A001/A001_000002.dng ] && [ -f dng/A001/A001.wav ] || fail "dng options: $(find dng | tr '\n' ' ')"
run dng-resume 0 convert A001.MLV -o dng --dng-bits 16 --one-based --skip-existing
run mov-dev 0 convert A001.MLV -o a.mov --curve logc3 --gamut aces --wb 2,1,1.5 --no-audio
finish
