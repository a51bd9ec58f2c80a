#!/bin/bash
# Pictures through each codec: FFV1 and NUT decode bit for bit to the RGB given (all 16 bits,
# 1 and 2 encoder threads); ProRes 4444 reaches >= 50 dB PSNR against the RGB, and ProRes
# 422 HQ >= 50 dB on luma, with the decoder's own Y'CbCr turned back into RGB using the matrix
# ffprobe reports for the file (a wrong matrix or tag costs ~15-30 dB).
. "$(dirname "$0")/av_lib.sh"
S=320x180

"$AVW" --dump-rgb want.raw --size $S --frames 0-11
for threads in 1 2; do
  for kind in ffv1 nut; do
    "$AVW" --kind $kind -o lossless.$kind --size $S --frames 0-11 --threads $threads
    ffmpeg -nostdin -v error -i lossless.$kind -f rawvideo -pix_fmt gbrp16le got.raw
    cmp -s got.raw want.raw || fail "$kind ($threads threads): decoded frames differ from the input"
    rm -f got.raw lossless.$kind
  done
done

# kind decoder_pix_fmt matrix min_rgb_psnr min_luma_psnr
while read -r kind pix matrix min_rgb min_luma; do
  "$AVW" --kind "$kind" -o p.mov --size $S --frames 0-11 --matrix "$matrix" --threads 2
  tagged=$(probe p.mov v:0 color_space)
  expect "$kind $matrix tag" "$tagged" "$matrix"
  ffmpeg -nostdin -v error -i p.mov -f rawvideo -pix_fmt "$pix" dec.raw
  read -r _ rgb _ worst _ luma < <("$AVW" --psnr dec.raw --decoded "$pix" --matrix "$tagged" \
                                    --range "$(probe p.mov v:0 color_range)" --size $S \
                                    --frames 0-11)
  echo "$kind $matrix: PSNR RGB $rgb dB (worst frame $worst), luma $luma dB"
  awk -v r="$rgb" -v w="$worst" -v l="$luma" -v mr="$min_rgb" -v ml="$min_luma" \
      'BEGIN { exit !(r >= mr && w >= mr && l >= ml) }' ||
    fail "$kind $matrix: PSNR RGB $rgb/$worst (need $min_rgb), luma $luma (need $min_luma)"
  rm -f p.mov dec.raw
done <<'LIST'
prores4444 yuv444p12le bt709 50 50
prores4444 yuv444p12le bt2020nc 50 50
prores4444 yuv444p12le smpte170m 50 50
prores422hq yuv422p10le bt709 30 50
prores422hq yuv422p10le bt2020nc 30 50
LIST
echo "ok"
