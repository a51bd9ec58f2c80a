#!/bin/bash
# Standard output: NUT into `ffmpeg -i - -c:v ffv1` is lossless (audio too); rawvideo rgb48le
# read with the matching ffmpeg input options; FFV1/Matroska streams; a reader that closes the
# pipe early ends the writer with the output-error status (5) and a one-line message, not
# SIGPIPE (run with SIGPIPE at its default disposition), and no temporary file is left; a
# full device behind stdout fails the same way.
. "$(dirname "$0")/av_lib.sh"
S=160x90

"$AVW" --dump-rgb want.raw --size $S --frames 0-23
"$AVW" --dump-audio want.pcm --audio 48000:2:16 --frames 0-23

"$AVW" --kind nut -o - --size $S --frames 0-23 --audio 48000:2:16 |
  ffmpeg -nostdin -v error -f nut -i - -c:v ffv1 -level 3 -g 1 -c:a copy out.mkv ||
  fail "nut | ffmpeg failed"
expect "piped codec" "$(probe out.mkv v:0 codec_name)" ffv1
ffmpeg -nostdin -v error -i out.mkv -f rawvideo -pix_fmt gbrp16le got.raw
cmp -s got.raw want.raw || fail "nut | ffmpeg -c:v ffv1: frames not lossless"
ffmpeg -nostdin -v error -i out.mkv -map 0:a -f s16le got.pcm
cmp -s got.pcm want.pcm || fail "nut | ffmpeg: audio differs"
rm -f got.raw out.mkv

"$AVW" --kind rawvideo -o - --size $S --frames 0-23 |
  ffmpeg -nostdin -v error -f rawvideo -pix_fmt rgb48le -s $S -r 24000/1001 -i - \
         -f rawvideo -pix_fmt gbrp16le got.raw || fail "rawvideo | ffmpeg failed"
cmp -s got.raw want.raw || fail "rawvideo pipe: frames differ"
rm -f got.raw

"$AVW" --kind ffv1 -o - --size $S --frames 0-23 --audio 48000:2:16 > streamed.mkv
ffmpeg -nostdin -v error -i streamed.mkv -f rawvideo -pix_fmt gbrp16le got.raw
cmp -s got.raw want.raw || fail "ffv1 to stdout: frames differ"
decode_ok streamed.mkv

# The reader goes away after 1000 bytes of a 200-frame stream.
set +e
env --default-signal=PIPE "$AVW" --kind nut -o - --size 320x180 --frames 0-199 2>err.txt |
  head -c 1000 >/dev/null
status=("${PIPESTATUS[@]}")
set -e
expect "closed pipe status" "${status[0]}" 5
grep -q "pipe closed by the reader" err.txt || fail "closed pipe message: $(cat err.txt)"
expect "closed pipe: one message line" "$(wc -l < err.txt)" 1

# A full device behind stdout: the same clean failure, naming the cause.
set +e
"$AVW" --kind nut -o - --frames 0-3 >/dev/full 2>err.txt; rc=$?
set -e
expect "stdout on a full device status" "$rc" 5
grep -q "No space left on device" err.txt || fail "full device message: $(cat err.txt)"
no_leftovers
echo "ok"
