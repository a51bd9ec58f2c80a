#!/bin/bash
# Batches (issue #12 item 12): convert given several clips and a folder converts each clip to
# its own output (DNG folders; FFV1 movies DIR/NAME.mkv checked with ffprobe), goes on past a
# missing and a damaged clip, lists every clip's outcome at the end and exits with the worst
# status; one clip's output is byte-identical to converting it alone; batch misuse (-o - or a
# movie name, --levels) is a usage error.
# usage: cli_batch.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
command -v ffprobe >/dev/null || { echo "SKIP: ffprobe not installed"; exit 77; }

mkdir -p "$tmp/card"
"$mlvsynth" -o "$tmp/card/A001.MLV" --size 96x64 --frames 5 >/dev/null || fail "mlvsynth A001"
"$mlvsynth" -o "$tmp/card/A002.MLV" --size 96x64 --frames 7 --dual-iso >/dev/null || fail "mlvsynth A002"
"$mlvsynth" -o "$tmp/cut.MLV" --size 96x64 --frames 6 --truncate 3000 >/dev/null || fail "mlvsynth cut"
echo notes >"$tmp/card/README.txt"

# A folder: every clip in it to its own DNG folder (the text file ignored).
run ok 0 convert "$tmp/card" -o "$tmp/dng" --no-audio
[ "$(ls "$tmp/dng/A001" | grep -c dng)" = 5 ] && [ "$(ls "$tmp/dng/A002" | grep -c dng)" = 7 ] ||
    fail "folder batch: $(ls "$tmp/dng" | tr '\n' ' ')"
"$mlvpipe" convert "$tmp/card/A002.MLV" -o "$tmp/alone" 2>/dev/null || fail "A002 alone"
for f in "$tmp"/alone/A002/*.dng; do
    cmp -s "$f" "$tmp/dng/A002/${f##*/}" || { fail "batch A002 ${f##*/} differs from a run alone"; break; }
done

# Failures do not stop the batch; worst status; a report per clip.
run mixed 3 convert "$tmp/card/A001.MLV" "$tmp/none.MLV" "$tmp/cut.MLV" "$tmp/card/A002.MLV" \
    -o "$tmp/mixed"
[ -d "$tmp/mixed/A002" ] && [ "$(ls "$tmp/mixed/cut" | grep -c dng)" = 5 ] ||
    fail "the batch stopped at a failing clip: $(ls "$tmp/mixed" | tr '\n' ' ')"
grep -q "batch: 2 of 4 clips converted" "$tmp/mixed.err" || fail "no batch summary: $(tail -5 "$tmp/mixed.err")"
grep -q "batch: $tmp/none.MLV: exit 3" "$tmp/mixed.err" || fail "missing clip not reported"
grep -q "batch: $tmp/cut.MLV: exit 4" "$tmp/mixed.err" || fail "damaged clip not reported"
grep -q "batch: $tmp/card/A001.MLV: ok" "$tmp/mixed.err" || fail "good clip not reported"
run damaged 4 convert "$tmp/card" "$tmp/cut.MLV" -o "$tmp/d2"

# Movies: FOLDER/NAME.mkv per clip.
run movies 0 convert "$tmp/card" -o "$tmp/mov" --to ffv1
for n in A001:5 A002:7; do
    c=$(ffprobe -v error -count_packets -select_streams v -show_entries stream=codec_name,nb_read_packets \
        -of csv=p=0 "$tmp/mov/${n%%:*}.mkv")
    [ "$c" = "ffv1,${n##*:}" ] || fail "batch movie ${n%%:*}.mkv: $c"
done

# Misuse.
run stdout 2 convert "$tmp/card" -o - --to nut
run moviename 2 convert "$tmp/card" -o "$tmp/x.mkv" --to ffv1
grep -q "several clips need -o FOLDER" "$tmp/moviename.err" || fail "movie name message"
run levels 2 convert "$tmp/card" -o "$tmp/l" --levels "$tmp/x.json"
mkdir -p "$tmp/empty"
run empty 2 convert "$tmp/empty" -o "$tmp/e"
grep -q "a folder without clips or raw photos" "$tmp/empty.err" || fail "empty folder message"
finish
