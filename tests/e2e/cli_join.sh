#!/bin/bash
# mlvpipe join on mlvpipe's own chunk segments (FFV1/MKV, ProRes/MOV, NUT, with audio),
# given as a user or a shell glob gives them: in any order they join into the packets of a
# whole-clip run; a missing chunk is refused naming the missing frames (exit 3), and joined
# with --allow-gaps (a warning, 36 packets, timestamps kept); a chunk given twice (exit 2) and
# overlapping chunks (exit 3, naming the frames in both) are refused; nothing is left behind.
# Durations and time codes match the whole run; plans no longer print a concat fallback.
# usage: cli_join.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || { echo "SKIP: no ffmpeg"; exit 77; }
. "$(dirname "$0")/farm_lib.sh"

make_clip
for kind in $movie_kinds; do
    to=${kind%%:*} ext=${kind##*:}
    "$mlvpipe" convert "$tmp/A001.MLV" -o "$tmp/whole.$ext" --to "$to" 2>"$tmp/w.err" ||
        fail "$to whole: $(head -c 300 "$tmp/w.err")"
    for r in 0-11 12-23 24-35 36-47; do
        "$mlvpipe" convert "$tmp/A001.MLV" -o "$tmp/c$r.$ext" --to "$to" --frames "$r" \
            2>"$tmp/c.err" || fail "$to chunk $r: $(head -c 300 "$tmp/c.err")"
    done
    c() { for r in "$@"; do printf '%s\n' "$tmp/c$r.$ext"; done; }
    # Wrong order (as a user typed it): same packets as the whole run.
    "$mlvpipe" join "$tmp/o.$ext" $(c 24-35 0-11 36-47 12-23) 2>"$tmp/o.err" ||
        fail "$to shuffled join: $(cat "$tmp/o.err")"
    same_movie "$to shuffled chunks" "$tmp/whole.$ext" "$tmp/o.$ext"
    # ... with the same duration and time code (what ffmpeg's concat demuxer got wrong).
    for e in format=duration stream_tags=timecode; do
        a=$(ffprobe -v error -show_entries "$e" -of csv=p=0 "$tmp/whole.$ext" | sort -u)
        b=$(ffprobe -v error -show_entries "$e" -of csv=p=0 "$tmp/o.$ext" | sort -u)
        [ "$a" = "$b" ] || fail "$to shuffled chunks: $e $b, whole run $a"
    done
    # A chunk missing: refused, naming the frames.
    "$mlvpipe" join "$tmp/g.$ext" $(c 0-11 24-35 36-47) 2>"$tmp/g.err"; rc=$?
    [ "$rc" = 3 ] && grep -q "frames 12-23 are missing" "$tmp/g.err" ||
        fail "$to gap: exit $rc, $(cat "$tmp/g.err")"
    [ -z "$(ls -A "$tmp" | grep -e "^g\.$ext\$" -e '\.part$')" ] || fail "$to gap left a file"
    # ... unless asked for.
    "$mlvpipe" join --allow-gaps "$tmp/g.$ext" $(c 0-11 24-35 36-47) 2>"$tmp/g2.err" ||
        fail "$to --allow-gaps: $(cat "$tmp/g2.err")"
    grep -q "frames 12-23 missing" "$tmp/g2.err" || fail "$to --allow-gaps: no warning"
    [ "$(packets "$tmp/g.$ext" | wc -l)" = 36 ] || fail "$to --allow-gaps: not 36 packets"
    # The gap stays a gap: the third segment keeps its time.
    [ "$(packets "$tmp/g.$ext" | sed -n 13p | cut -d, -f2)" = \
      "$(packets "$tmp/whole.$ext" | sed -n 25p | cut -d, -f2)" ] ||
        fail "$to --allow-gaps: frame 24 moved"
    # The same chunk twice: usage error.
    "$mlvpipe" join "$tmp/d.$ext" $(c 0-11 12-23 12-23) 2>"$tmp/d.err"; rc=$?
    [ "$rc" = 2 ] && grep -q "given twice" "$tmp/d.err" ||
        fail "$to duplicate: exit $rc, $(cat "$tmp/d.err")"
done

# Plans assemble movies with join only (the concat fallback they printed made 2.88 s of 1.92).
for engine in slurm parallel; do
    "$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/farm" --to prores422hq --engine $engine \
        >"$tmp/plan.sh" 2>/dev/null || fail "plan $engine"
    ! grep -q concat "$tmp/plan.sh" || fail "$engine plan still offers ffmpeg's concat demuxer"
    grep -q "join" "$tmp/plan.sh" || fail "$engine plan without join"
done

# Overlapping chunks: 0-11 and 6-17 share frames 6-11.
"$mlvpipe" convert "$tmp/A001.MLV" -o "$tmp/v.mkv" --to ffv1 --frames 6-17 2>/dev/null ||
    fail "chunk 6-17"
"$mlvpipe" join "$tmp/ov.mkv" "$tmp/c0-11.mkv" "$tmp/v.mkv" 2>"$tmp/ov.err"; rc=$?
[ "$rc" = 3 ] && grep -q "frames 6-11 are in both" "$tmp/ov.err" ||
    fail "overlap: exit $rc, $(cat "$tmp/ov.err")"
finish
