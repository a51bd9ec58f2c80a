#!/bin/bash
# Every movie kind as ffprobe/ffmpeg see it: codec, profile, FourCC, pixel format, frame count,
# frame rate, duration, colour tags, time code, audio stream (content and sync with the video,
# sample-exact against the PCM given; audio ending early), clean decodes; time bases from recorded rates;
# byte-identical repeat runs and thread counts; refusals (existing output, MOV to a pipe, full-
# range ProRes, frames out of order) and aborted runs leave no file behind.
. "$(dirname "$0")/av_lib.sh"

# kind ext codec profile fourcc pix_fmt color_space color_range duration
while read -r kind ext codec profile tag pix space range duration; do
  out=movie.$ext
  "$AVW" --kind "$kind" -o "$out" --frames 0-23 --fps 23976/1000 --audio 48000:2:16 \
         --tc 01:00:00:00 || fail "$kind: av_write failed"
  expect "$kind codec" "$(probe "$out" v:0 codec_name)" "$codec"
  [ "$profile" = - ] || expect "$kind profile" "$(probe "$out" v:0 profile)" "$profile"
  [ "$tag" = - ] || expect "$kind fourcc" "$(probe "$out" v:0 codec_tag_string)" "$tag"
  expect "$kind pix_fmt" "$(probe "$out" v:0 pix_fmt)" "$pix"
  expect "$kind size" "$(probe "$out" v:0 width,height | tr '\n' x)" "64x48x"
  expect "$kind rate" "$(probe "$out" v:0 r_frame_rate)" "24000/1001"
  frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames \
           -of default=nw=1:nk=1 "$out")
  expect "$kind frames" "$frames" 24
  if [ "$space" != - ]; then
    expect "$kind matrix" "$(probe "$out" v:0 color_space)" "$space"
    expect "$kind range" "$(probe "$out" v:0 color_range)" "$range"
    expect "$kind primaries" "$(probe "$out" v:0 color_primaries)" bt709
    expect "$kind transfer" "$(probe "$out" v:0 color_transfer)" bt709
  fi
  # 24 frames at 24000/1001: 1.001 s (NUT stores no packet durations: ffprobe reports the
  # last frame's start)
  dur=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$out")
  expect "$kind duration" "$dur" "$duration"
  tc=$(ffprobe -v error -show_entries format_tags=timecode:stream_tags=timecode \
       -of default=nw=1:nk=1 "$out" | sed -n 1p)
  expect "$kind time code" "$tc" 01:00:00:00
  expect "$kind audio codec" "$(probe "$out" a:0 codec_name)" pcm_s16le
  expect "$kind audio rate" "$(probe "$out" a:0 sample_rate,channels | tr '\n' ,)" 48000,2,
  # The audio is the clip's PCM from the first frame to the end of the last, to the sample.
  ffmpeg -nostdin -v error -i "$out" -map 0:a -f s16le -c:a pcm_s16le audio.raw
  "$AVW" --dump-audio want.raw --audio 48000:2:16 --frames 0-23
  cmp -s audio.raw want.raw || fail "$kind: audio differs from the PCM given (sync or length)"
  rm -f audio.raw want.raw
  decode_ok "$out"
  rm -f "$out"
done <<'LIST'
prores422hq mov prores HQ apch yuv422p10le bt709 tv 1.001000
prores4444 mov prores 4444 ap4h yuv444p12le bt709 tv 1.001000
ffv1 mkv ffv1 - - gbrp16le gbr pc 1.001000
nut nut rawvideo - - gbrp16le - - 0.959292
LIST

# A segment: PTS start at its first frame; 24-bit mono audio in Matroska; 25 fps time base.
"$AVW" --kind ffv1 -o seg.mkv --frames 10-19 --fps 25000/1000 --audio 44100:1:24
expect "segment rate" "$(probe seg.mkv v:0 r_frame_rate)" 25/1
expect "segment start" "$(probe seg.mkv v:0 start_time)" 0.400000
expect "24-bit audio" "$(probe seg.mkv a:0 codec_name)" pcm_s24le
expect "audio start" "$(probe seg.mkv a:0 start_time)" 0.400000
ffmpeg -nostdin -v error -i seg.mkv -map 0:a -f s24le -c:a pcm_s24le audio.raw
"$AVW" --dump-audio want.raw --audio 44100:1:24 --fps 25/1 --frames 10-19
cmp -s audio.raw want.raw || fail "segment audio differs from the clip's PCM for frames 10-19"
rm -f audio.raw want.raw
"$AVW" --kind prores4444 -o seg.mov --frames 10-19 --fps 25/1
expect "MOV time base" "$(probe seg.mov v:0 time_base)" 1/12800
expect "MOV segment start" "$(probe seg.mov v:0 start_time)" 0.400000

# Audio that ends 30 frames before the video: silence to the end, still interleaved frame by
# frame (video and audio packets alternate 100 times each: nothing held back waiting).
"$AVW" --kind ffv1 -o short.mkv --frames 0-99 --audio 48000:2:16 --audio-short 30
ffmpeg -nostdin -v error -i short.mkv -map 0:a -f s16le audio.raw
"$AVW" --dump-audio want.raw --audio 48000:2:16 --audio-short 30 --frames 0-99
cmp -s audio.raw want.raw || fail "short audio: not the PCM then silence to the last frame"
runs=$(ffprobe -v error -show_entries packet=stream_index -of csv=p=0 short.mkv | uniq | wc -l)
expect "short audio interleaving (stream changes)" "$runs" 200
rm -f audio.raw want.raw

# Drop-frame time code from a frame count; BT.2020 tags.
"$AVW" --kind prores422hq -o df.mov --frames 0-4 --fps 30000/1001 --tc-frames 1800 --drop \
       --matrix bt2020nc
expect "drop-frame code" "$(ffprobe -v error -show_entries stream_tags=timecode \
                            -of default=nw=1:nk=1 df.mov | sed -n 1p)" "00:01:00;02"
expect "2020 matrix" "$(probe df.mov v:0 color_space)" bt2020nc
expect "2020 primaries" "$(probe df.mov v:0 color_primaries)" bt2020
expect "2020 transfer" "$(probe df.mov v:0 color_transfer)" bt2020-10

# rawvideo: rgb48le frames back to back, exactly the pattern.
"$AVW" --kind rawvideo -o frames.rgb48 --frames 0-4
expect "rawvideo size" "$(stat -c %s frames.rgb48)" $((5 * 64 * 48 * 6))
ffmpeg -nostdin -v error -f rawvideo -pix_fmt rgb48le -s 64x48 -i frames.rgb48 \
       -f rawvideo -pix_fmt gbrp16le back.raw
"$AVW" --dump-rgb want.raw --frames 0-4
cmp -s back.raw want.raw || fail "rawvideo frames differ from the pattern"

# Same bytes on every run and for any thread count.
for kind in prores422hq ffv1; do
  "$AVW" --kind "$kind" -o a.out --frames 0-5 --size 320x180 --threads 1 --audio 48000:2:16
  "$AVW" --kind "$kind" -o b.out --frames 0-5 --size 320x180 --threads 2 --audio 48000:2:16
  cmp -s a.out b.out || fail "$kind: bytes differ between 1 and 2 threads"
  "$AVW" --kind "$kind" -o a.out --frames 0-5 --size 320x180 --threads 2 --audio 48000:2:16 \
         --overwrite
  cmp -s a.out b.out || fail "$kind: bytes differ between runs"
  rm -f a.out b.out
done

# Refusals: existing output (untouched), MOV to stdout, full-range ProRes is not offered.
echo keep > exists.mov
set +e
"$AVW" --kind prores4444 -o exists.mov --frames 0-1 2>err.txt; rc=$?
set -e
expect "existing output status" "$rc" 5
grep -q "exists" err.txt || fail "no 'exists' message: $(cat err.txt)"
expect "existing output content" "$(cat exists.mov)" keep
"$AVW" --kind prores4444 -o exists.mov --frames 0-1 --overwrite
expect "overwritten" "$(probe exists.mov v:0 codec_name)" prores
set +e
"$AVW" --kind prores422hq -o - --frames 0-1 >/dev/null 2>err.txt; rc=$?
set -e
[ "$rc" -ne 0 ] && grep -q "cannot be streamed" err.txt || fail "MOV to stdout not refused"

# An aborted run removes its temporary file and leaves no output.
set +e
"$AVW" --kind ffv1 -o aborted.mkv --frames 0-9 --fail-at 4 --audio 48000:2:16 2>/dev/null; rc=$?
set -e
expect "aborted status" "$rc" 1
[ ! -e aborted.mkv ] || fail "aborted run left aborted.mkv"
no_leftovers
echo "ok"
