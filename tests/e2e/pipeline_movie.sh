#!/bin/bash
# mlvpipe convert to movies: the same bytes for any --threads; chunks (--frames) joined with
# mlvpipe join give the packets and duration of a whole run; NUT on stdout decodes to the same
# pictures as FFV1 in a file; dropped frames are filled and audio spans the video exactly;
# SIGTERM leaves no file; step ranges and --skip-existing are refused for movies.
# usage: pipeline_movie.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || { echo "no ffmpeg: skip"; exit 77; }
. "$(dirname "$0")/pipeline_lib.sh"

"$mlvsynth" -o "$tmp/d.MLV" --dual-iso --size 320x160 --frames 12 >/dev/null || fail "mlvsynth d"
"$mlvsynth" -o "$tmp/au.MLV" --size 96x64 --frames 25 --audio --drop 5-6 >/dev/null ||
    fail "mlvsynth au"

# packets FILE: one MD5 per video packet (ffmpeg -c copy), in order
packets() { ffmpeg -v error -i "$1" -map 0:v -c copy -f framemd5 - | grep -v '^#' | cut -d, -f6; }
# pictures ARGS...: one MD5 per decoded picture
pictures() { ffmpeg -v error "$@" -map 0:v -f framemd5 - | grep -v '^#' | cut -d, -f6; }

run t1 0 convert "$tmp/d.MLV" --to ffv1 -o "$tmp/t1.mkv" --threads 1
run t3 0 convert "$tmp/d.MLV" --to ffv1 -o "$tmp/t3.mkv" --threads 3
cmp -s "$tmp/t1.mkv" "$tmp/t3.mkv" || fail "FFV1 bytes differ between --threads 1 and 3"
# The picture is the active area: 320x160 less mlvsynth's 72x28 optical-black borders.
size=$(ffprobe -v error -select_streams v -show_entries stream=width,height -of csv=p=0 "$tmp/t1.mkv")
[ "$size" = "248,132" ] || fail "movie size $size, expected the 248x132 active area"

for kind in ffv1:mkv prores422hq:mov; do
    k=${kind%%:*} ext=${kind##*:}
    run "$k-whole" 0 convert "$tmp/d.MLV" --to "$k" -o "$tmp/whole.$ext"
    run "$k-c0" 0 convert "$tmp/d.MLV" --to "$k" -o "$tmp/c0.$ext" --frames 0-4
    run "$k-c1" 0 convert "$tmp/d.MLV" --to "$k" -o "$tmp/c1.$ext" --frames 5-
    run "$k-join" 0 join "$tmp/joined.$ext" "$tmp/c0.$ext" "$tmp/c1.$ext"
    packets "$tmp/whole.$ext" >"$tmp/whole.md5"
    packets "$tmp/joined.$ext" >"$tmp/joined.md5"
    d() { ffprobe -v error -show_entries format=duration -of csv=p=0 "$1"; }
    [ "$(d "$tmp/whole.$ext")" = "$(d "$tmp/joined.$ext")" ] ||
        fail "$k: joined chunks last $(d "$tmp/joined.$ext") s, the whole run $(d "$tmp/whole.$ext") s"
    [ "$(wc -l <"$tmp/whole.md5")" -eq 12 ] || fail "$k: $(wc -l <"$tmp/whole.md5") packets"
    cmp -s "$tmp/whole.md5" "$tmp/joined.md5" || fail "$k: joined chunks differ from a whole run"
done

"$mlvpipe" convert "$tmp/d.MLV" --to nut -o - 2>"$tmp/pipe.err" >"$tmp/pipe.nut" ||
    fail "nut to stdout: $(cat "$tmp/pipe.err")"
pictures -i "$tmp/pipe.nut" >"$tmp/nut.md5"
pictures -i "$tmp/t1.mkv" >"$tmp/ffv1.md5"
cmp -s "$tmp/nut.md5" "$tmp/ffv1.md5" || fail "NUT on stdout and FFV1 decode differently"

# Frames 5 and 6 were dropped by the "camera": the movie still has 25 frames (1 s at 25 fps)
# and 48000 audio samples; a chunk starts at its own time.
run au 0 convert "$tmp/au.MLV" --to prores4444 -o "$tmp/au.mov"
probe() { ffprobe -v error -show_entries "stream=codec_type,nb_frames,start_time" -of csv=p=0 "$1" | sort; }
[ "$(probe "$tmp/au.mov")" = "$(printf 'audio,0.000000,48000\ndata,0.000000,1\nvideo,0.000000,25')" ] ||
    fail "audio clip: $(probe "$tmp/au.mov" | tr '\n' ' ')"
run au-chunk 0 convert "$tmp/au.MLV" --to prores4444 -o "$tmp/au10.mov" --frames 10-19
[ "$(probe "$tmp/au10.mov")" = "$(printf 'audio,0.400000,19200\ndata,0.000000,1\nvideo,0.400000,10')" ] ||
    fail "audio chunk: $(probe "$tmp/au10.mov" | tr '\n' ' ')"

run step 2 convert "$tmp/d.MLV" --to ffv1 -o "$tmp/step.mkv" --frames 0-9:2
run skip 2 convert "$tmp/d.MLV" --to ffv1 -o "$tmp/skip.mkv" --skip-existing
run exists 2 convert "$tmp/d.MLV" --to ffv1 -o "$tmp/t1.mkv"

# SIGTERM while a movie is written: exit 6, neither the movie nor a temporary file remains.
"$mlvsynth" -o "$tmp/big.MLV" --dual-iso --size 960x540 --frames 30 >/dev/null || fail "mlvsynth big"
mkdir "$tmp/kill"
"$mlvpipe" convert "$tmp/big.MLV" --to ffv1 -o "$tmp/kill/big.mkv" --threads 1 \
    --progress json 2>"$tmp/kill.err" &
stop_when $! grep -qs '"event":"frame"' "$tmp/kill.err"
[ $rc -eq 6 ] || fail "interrupted movie: exit $rc, expected 6"
[ -z "$(ls -A "$tmp/kill")" ] || fail "interrupted movie left $(ls -A "$tmp/kill")"

finish
