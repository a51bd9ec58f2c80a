#!/bin/bash
# mlvpipe convert timing options checked with exiftool and ffprobe: --fps 24000/1001 gives
# DNG FrameRate 23.976 and TimeCodes counting 24 a second, a WAV as long as the frames at
# that rate, and movies with r_frame_rate 24000/1001 whose 48 kHz audio is padded to end
# with the last frame; --timecode time-of-day starts at the RTCI clock (DNG, MOV tmcd);
# --drop-frame skips codes at the minute at 29.97 and is refused (exit 2) at other rates;
# bad values are usage errors (exit 2).
# usage: cliopts_timing.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
for tool in exiftool ffprobe ffmpeg; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done

tc() { exiftool -s3 -TimeCodes "$1"; }
# frames_of CODE RATE: "HH:MM:SS.FF" (exiftool's rendering) as a frame count
frames_of() {
    local h m s f
    IFS=':.' read -r h m s f <<<"$1"
    echo $(( ((10#$h * 60 + 10#$m) * 60 + 10#$s) * $2 + 10#$f ))
}
# pcm_bytes FILE: decoded audio bytes as 16-bit stereo
pcm_bytes() { ffmpeg -nostdin -v error -i "$1" -map 0:a -f s16le - | wc -c; }

# 30 frames at 25 fps with 48 kHz audio (1.2 s), recorded at 2024-03-23 12:34:56 (RTCI).
"$mlvsynth" -o "$tmp/au.MLV" --audio --size 64x32 --frames 30 --content gradient >/dev/null ||
    fail "mlvsynth au"

run dng 0 convert "$tmp/au.MLV" -o "$tmp/dng" --fps 24000/1001
d=$tmp/dng/au
[ "$(exiftool -s3 -FrameRate "$d/au_000000.dng")" = 23.976 ] || fail "FrameRate not 23.976"
for n in 0 23 24 29; do
    got=$(frames_of "$(tc "$d/au_$(printf %06d $n).dng")" 24)
    [ "$got" = "$n" ] || fail "frame $n: TimeCodes $(tc "$d/au_$(printf %06d $n).dng")"
done
# The WAV holds the 30 frames' time at 24000/1001: 30 * 48000 * 1001 / 24000 samples.
[ "$(pcm_bytes "$d/au.wav")" = $((30 * 2002 * 4)) ] || fail "WAV length not 30 frames at 23.976"
# Without --fps: 25 fps, so frame 29 is 00:00:01:04.
run dng25 0 convert "$tmp/au.MLV" -o "$tmp/dng25"
[ "$(exiftool -s3 -FrameRate "$tmp/dng25/au/au_000000.dng")" = 25 ] || fail "recorded rate not 25"
[ "$(frames_of "$(tc "$tmp/dng25/au/au_000029.dng")" 25)" = 29 ] || fail "25 fps TimeCodes"

# Time of day: frame 0 at the recording start, the sequence still 24 codes a second.
run tod 0 convert "$tmp/au.MLV" -o "$tmp/tod" --fps 24000/1001 --timecode time-of-day
first=$(tc "$tmp/tod/au/au_000000.dng")
[ "$first" = "12:34:56.00" ] || fail "time-of-day starts at $first, expected 12:34:56.00"
[ $(( $(frames_of "$(tc "$tmp/tod/au/au_000029.dng")" 24) - $(frames_of "$first" 24) )) = 29 ] ||
    fail "time-of-day codes do not count 24 a second"
run tod-zero 0 convert "$tmp/au.MLV" -o "$tmp/tod-zero" --timecode zero
cmp -s "$tmp/dng25/au/au_000003.dng" "$tmp/tod-zero/au/au_000003.dng" ||
    fail "--timecode zero is not the default"

# Movies: the time base follows --fps; audio keeps 48 kHz and is padded to the last frame.
run mkv 0 convert "$tmp/au.MLV" -o "$tmp/m.mkv" --to ffv1 --fps 24000/1001
run mov 0 convert "$tmp/au.MLV" -o "$tmp/m.mov" --to prores422hq --fps 24000/1001 \
    --timecode time-of-day
for m in m.mkv m.mov; do
    r=$(ffprobe -v error -select_streams v -show_entries stream=r_frame_rate -of csv=p=0 \
        "$tmp/$m")
    [ "$r" = 24000/1001 ] || fail "$m: r_frame_rate $r"
    a=$(ffprobe -v error -select_streams a -show_entries stream=sample_rate -of csv=p=0 \
        "$tmp/$m")
    [ "$a" = 48000 ] || fail "$m: audio at $a Hz"
    [ "$(pcm_bytes "$tmp/$m")" = $((30 * 2002 * 4)) ] || fail "$m: audio not cut to the frames"
done
t=$(ffprobe -v error -select_streams v -show_entries stream_tags=timecode -of csv=p=0 \
    "$tmp/m.mov")
[ "$t" = "12:34:56:00" ] || fail "MOV time code $t, expected 12:34:56:00 (info: recorded 12:34:56)"

# Drop-frame at 29.97: 00:00:59;29 is followed by 00:01:00;02.
"$mlvsynth" -o "$tmp/long.MLV" --size 16x16 --bits 10 --frames 1802 >/dev/null ||
    fail "mlvsynth long"
run df 0 convert "$tmp/long.MLV" -o "$tmp/df" --fps 30000/1001 --drop-frame --frames 1799-1801
run ndf 0 convert "$tmp/long.MLV" -o "$tmp/ndf" --fps 30000/1001 --frames 1800
[ "$(tc "$tmp/df/long/long_001799.dng")" = "00:00:59.29" ] || fail "drop-frame 1799"
[ "$(tc "$tmp/df/long/long_001800.dng")" = "00:01:00.02" ] || fail "drop-frame 1800"
[ "$(tc "$tmp/ndf/long/long_001800.dng")" = "00:01:00.00" ] || fail "non-drop-frame 1800"

# Bad values: exit 2 and one line naming the option; drop-frame at 25 fps too.
bad() {
    run "bad$1" 2 convert "$tmp/au.MLV" -o "$tmp/bad" "${@:2}"
    grep -q -- "$2" "$tmp/bad$1.err" || fail "bad $*: message does not name $2"
    [ "$(grep -c 'mlvpipe convert:' "$tmp/bad$1.err")" = 1 ] || fail "bad $*: not one line"
}
bad 1 --fps 0
bad 2 --fps 24/0
bad 3 --fps 23.976
bad 4 --fps 24000/1001x
bad 5 --fps 5000
bad 6 --timecode tod
run bad7 2 convert "$tmp/au.MLV" -o "$tmp/bad" --drop-frame
grep -q "drop-frame time code needs 30000/1001" "$tmp/bad7.err" || fail "drop-frame at 25 fps"
[ ! -e "$tmp/bad" ] || fail "a usage error wrote output"
finish
