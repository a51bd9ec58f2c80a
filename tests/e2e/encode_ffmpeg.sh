#!/usr/bin/env bash
# ffmpeg's DNG decoder reads every variant; the same 14-bit frame decodes to the same image
# whether stored packed, as 16-bit samples or LJ92 (both layouts); sequences play.
source "$(dirname "$0")/encode_lib.sh"
need ffmpeg

decode_md5() {
  local err
  err=$(ffmpeg -nostdin -v error -i "$1" -f md5 - 2>&1 >"$WORK/md5") || fail "ffmpeg failed on $1: $err"
  [ -z "$err" ] || fail "ffmpeg reported on $1: $err"
  cat "$WORK/md5"
}

for v in $VARIANTS; do
  storage=${v%:*} bits=${v#*:}
  write_seq "$WORK/$v" "$storage" "$bits" 512 256 3 1
  decode_md5 "$WORK/$v/CLIP/CLIP_000003.dng" > "$WORK/$v.md5"
done
for v in 16:14 lj92:14 lj92-2c:14; do
  cmp -s "$WORK/native:14.md5" "$WORK/$v.md5" ||
    fail "$v decodes differently from native:14 ($(cat "$WORK/$v.md5") vs $(cat "$WORK/native:14.md5"))"
done
cmp -s "$WORK/lj92:16.md5" "$WORK/16:16.md5" || fail "lj92:16 decodes differently from 16:16"
cmp -s "$WORK/native:14.md5" "$WORK/native:12.md5" && fail "different frames decode alike"

# Sequences starting above frame 4 need -start_number (image2's default search is 0-4).
write_seq "$WORK/seq" lj92 14 512 256 40 5
n=$(ffmpeg -nostdin -v error -framerate 24000/1001 -start_number 40 \
      -i "$WORK/seq/CLIP/CLIP_%06d.dng" -f framemd5 - | grep -vc '^#') ||
  fail "ffmpeg could not play the sequence"
[ "$n" = 5 ] || fail "ffmpeg played $n frames of 5"

write_seq "$WORK/res" native 12 512 256 0 3 resolve
dir=$WORK/res/CLIP_1_2024-06-21_1430_C0000
n=$(ffmpeg -nostdin -v error -framerate 24 -i "$dir/CLIP_1_2024-06-21_1430_C0000_%06d.dng" \
      -f framemd5 - | grep -vc '^#') || fail "ffmpeg could not play the Resolve-named sequence"
[ "$n" = 3 ] || fail "ffmpeg played $n frames of 3 (Resolve names)"
echo "ffmpeg: all variants decode consistently; sequences play"
