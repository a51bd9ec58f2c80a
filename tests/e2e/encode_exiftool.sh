#!/usr/bin/env bash
# exiftool -validate: no warnings for any variant or the WAV; TimeCodes, FrameRate and levels
# read back as written and consistent over a sequence; the WAV's TimeReference matches the
# first frame's time code (doc/cinemadng.md 6.4).
source "$(dirname "$0")/encode_lib.sh"
need exiftool

validate() {
  local out
  out=$(exiftool -validate -warning -a "$1" 2>&1) || fail "exiftool failed on $1: $out"
  [ "$(tr -s ' ' <<<"$out")" = "Validate : OK" ] || fail "exiftool -validate on $1: $out"
}

for v in $VARIANTS; do
  storage=${v%:*} bits=${v#*:}
  write_seq "$WORK/$v" "$storage" "$bits" 512 256 7 1
  validate "$WORK/$v/CLIP/CLIP_000007.dng"
done

# A sequence crossing a second at 23.976: absolute frame numbers, codes one frame apart.
write_seq "$WORK/seq" native 14 64 32 22 5 wav
got=$(exiftool -q -s -s -s -TimeCodes "$WORK"/seq/CLIP/CLIP_0000{22..26}.dng | tr '\n' ' ')
[ "$got" = "00:00:00.22 00:00:00.23 00:00:01.00 00:00:01.01 00:00:01.02 " ] ||
  fail "TimeCodes over frames 22-26: $got"
for tag in FrameRate BlackLevel WhiteLevel BaselineExposure; do
  vals=$(exiftool -q -s -s -s -$tag "$WORK"/seq/CLIP/*.dng | sort -u)
  [ "$(wc -l <<<"$vals")" = 1 ] || fail "$tag varies over the sequence: $vals"
done
[ "$(exiftool -q -s -s -s -FrameRate "$WORK/seq/CLIP/CLIP_000022.dng")" = 23.976 ] ||
  fail "FrameRate is not 23.976"
[ "$(exiftool -q -s -s -s -BlackLevel -WhiteLevel "$WORK/seq/CLIP/CLIP_000022.dng" | tr '\n' ' ')" \
  = "2048 16383 " ] || fail "levels not read back"
validate "$WORK/seq/CLIP/CLIP.wav"
# Frame 22 at 48 kHz and 24000/1001 fps: 22 * 2002 samples.
[ "$(exiftool -q -s -s -s -TimeReference "$WORK/seq/CLIP/CLIP.wav")" = $((22 * 2002)) ] ||
  fail "WAV TimeReference is not that of frame 22"

# Drop-frame at 29.97: ;00 and ;01 are skipped at the minute.
write_seq "$WORK/df" native 12 64 32 1798 4 df fps=30000/1001
got=$(exiftool -q -s -s -s -TimeCodes "$WORK"/df/CLIP/*.dng | tr '\n' ' ')
[ "$got" = "00:00:59.28 00:00:59.29 00:01:00.02 00:01:00.03 " ] || fail "drop-frame codes: $got"
grep -q "<TIMECODE_FLAG>DF</TIMECODE_FLAG>" <(write_seq "$WORK/dfw" native 12 64 32 0 1 df \
  fps=30000/1001 wav; cat "$WORK"/dfw/CLIP/CLIP.wav) || fail "drop-frame WAV lacks TIMECODE_FLAG DF"

# Time of day from RTCI with Resolve names: TimeReference denotes the first code's instant.
write_seq "$WORK/tod" 16 14 64 32 0 2 tod resolve wav
base=$WORK/tod/CLIP_1_2024-06-21_1430_C0000/CLIP_1_2024-06-21_1430_C0000
tc=$(exiftool -q -s -s -s -TimeCodes "${base}_000000.dng")
[ "$tc" = "14:30:04.00" ] || fail "time-of-day code $tc"
IFS=':.' read -r h m s f <<<"$tc"
frames=$(( ((10#$h * 60 + 10#$m) * 60 + 10#$s) * 24 + 10#$f ))
[ "$(exiftool -q -s -s -s -TimeReference "$base.wav")" = $((frames * 2002)) ] ||
  fail "WAV TimeReference does not match $tc"
echo "exiftool: valid, codes and levels consistent"
