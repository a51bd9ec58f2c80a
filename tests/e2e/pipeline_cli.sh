#!/bin/bash
# mlvpipe convert / analyze command lines: usage errors (exit 2), unreadable input and
# frame ranges past the clip (3), damaged input with every intact frame written (4), output
# refused (5), --frames with absolute numbers across dropped frames, progress modes (quiet
# when stderr is not a terminal, JSON lines), --to md5 in frame order, strict sidecars.
# usage: pipeline_cli.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/pipeline_lib.sh"

"$mlvsynth" -o "$tmp/c.MLV" --size 96x64 --frames 12 >/dev/null || fail "mlvsynth c"
"$mlvsynth" -o "$tmp/drop.MLV" --size 96x64 --frames 10 --drop 3,5-6 >/dev/null ||
    fail "mlvsynth drop"
"$mlvsynth" -o "$tmp/cut.MLV" --size 96x64 --frames 6 --truncate 3000 >/dev/null ||
    fail "mlvsynth cut"
in=$tmp/c.MLV

# Usage errors: exit 2, nothing written.
run help 0 convert --help
grep -q -- "--skip-existing" "$tmp/help.out" || fail "convert --help lacks --skip-existing"
run ahelp 0 analyze --help
grep -q -- "--levels FILE" "$tmp/ahelp.out" || fail "analyze --help lacks the convert link"
run u-noargs 2 convert
run u-noout 2 convert "$in"
run u-two 2 convert "$in" "$in" -o "$tmp/u"
run u-threads 2 convert "$in" -o "$tmp/u" --threads 0
run u-progress 2 convert "$in" -o "$tmp/u" --progress loud
run u-to 2 convert "$in" -o "$tmp/u" --to gif
run u-both 2 convert "$in" -o "$tmp/u" --skip-existing --overwrite
run u-opt 2 convert "$in" -o "$tmp/u" --turbo
run u-frames 2 convert "$in" -o "$tmp/u" --frames 5-2
run u-phase 2 analyze "$in" --phase 4
run u-gamut 2 convert "$in" --to ffv1 -o "$tmp/u" --gamut p3
run u-curve 2 convert "$in" --to ffv1 -o "$tmp/u" --curve log
run u-ev 2 convert "$in" --to ffv1 -o "$tmp/u" --exposure 17
run u-stdout 2 convert "$in" -o -
[ ! -e "$tmp/u" ] || fail "a usage error wrote output"

# Input errors: exit 3.
run missing 3 convert "$tmp/none.MLV" -o "$tmp/m"
run past-end 2 convert "$in" -o "$tmp/m" --frames 12-20
grep -q "starts after the clip's last frame 11" "$tmp/past-end.err" || fail "past-end message"

# An end past the clip is clamped with a warning (farm engines overshoot the last chunk).
run clamp 0 convert "$in" -o "$tmp/clamp" --frames 10-19
grep -q "ends after the clip's last frame 11" "$tmp/clamp.err" || fail "clamp warning"
[ "$(ls "$tmp/clamp/c")" = "$(printf 'c_000010.dng\nc_000011.dng')" ] || fail "clamp files"

# Absolute frame numbers across dropped frames, in the file names too.
run drop 0 convert "$tmp/drop.MLV" -o "$tmp/drop" --frames 2-7
[ "$(ls "$tmp/drop/drop" | tr '\n' ' ')" = "drop_000002.dng drop_000004.dng drop_000007.dng " ] ||
    fail "dropped frames: $(ls "$tmp/drop/drop" | tr '\n' ' ')"

# Damaged input: the intact frames are written, exit 4.
run cut 4 convert "$tmp/cut.MLV" -o "$tmp/cut"
[ "$(find "$tmp/cut" -name '*.dng' | wc -l)" -eq 5 ] || fail "damaged clip: intact frames"
grep -q "runs past the end of the file" "$tmp/cut.err" || fail "damage not reported"
grep -q "damaged input" "$tmp/cut.err" || fail "damage summary missing"

# Progress: nothing on a non-terminal stderr by default; JSON lines on request.
run quiet 0 convert "$in" -o "$tmp/quiet"
[ ! -s "$tmp/quiet.err" ] || fail "auto progress printed to a pipe: $(head -c 200 "$tmp/quiet.err")"
run json 0 convert "$in" -o "$tmp/json" --progress json --frames 2-9
python3 - "$tmp/json.err" <<'PY' || fail "JSON progress lines"
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert ev[0] == {"event": "start", "total": 8, "first_frame": 2, "last_frame": 9,
                 "threads": ev[0]["threads"]}, ev[0]
frames = [e for e in ev if e["event"] == "frame"]
assert [e["frame"] for e in frames] == list(range(2, 10)), frames
assert [e["done"] for e in frames] == list(range(1, 9)), frames
assert ev[-1]["event"] == "done" and ev[-1]["written"] == 8 and ev[-1]["status"] == "ok", ev[-1]
PY
# On a terminal (script(1) provides one): a status line, then a summary; -q silences both.
if command -v script >/dev/null; then
    script -qec "'$mlvpipe' convert '$in' -o '$tmp/tty'" /dev/null >"$tmp/tty.txt" 2>&1
    grep -q "frames \[#*\] 100%  12/12 .* fps  .* elapsed  ETA 0:00" "$tmp/tty.txt" || fail "no terminal status line"
    grep -q "12 frames (12 written, 0 skipped)" "$tmp/tty.txt" || fail "no terminal summary"
    script -qec "'$mlvpipe' -q convert '$in' -o '$tmp/tty-q'" /dev/null >"$tmp/tty-q.txt" 2>&1
    [ ! -s "$tmp/tty-q.txt" ] || fail "-q still printed: $(head -c 200 "$tmp/tty-q.txt")"
fi
run json-damaged 4 convert "$tmp/cut.MLV" -o "$tmp/cut2" --progress json
tail -n 1 "$tmp/json-damaged.err" | grep -q '"event":"error".*"status":"damaged"' ||
    fail "damaged JSON end event: $(tail -n 1 "$tmp/json-damaged.err")"

# Output refused: exit 5.
run exists 2 convert "$in" -o "$tmp/quiet" --frames 0
: >"$tmp/file"
run notdir 5 convert "$in" -o "$tmp/file/x"

# --to md5: one line per frame, in frame order for any thread count.
run md5-1 0 convert "$tmp/drop.MLV" --to md5 -o "$tmp/a.md5" --threads 1
run md5-3 0 convert "$tmp/drop.MLV" --to md5 -o "$tmp/b.md5" --threads 3
cmp -s "$tmp/a.md5" "$tmp/b.md5" || fail "md5 lists differ between thread counts"
[ "$(cut -d' ' -f1 "$tmp/a.md5" | tr '\n' ' ')" = "0 1 2 4 7 8 9 " ] ||
    fail "md5 list order: $(cut -d' ' -f1 "$tmp/a.md5" | tr '\n' ' ')"

# Audio: the WAV comes with a whole-clip run, not with a --frames part unless --audio.
"$mlvsynth" -o "$tmp/snd.MLV" --size 96x64 --frames 8 --audio >/dev/null || fail "mlvsynth snd"
run snd-part 0 convert "$tmp/snd.MLV" -o "$tmp/snd-part" --frames 0-3
[ ! -e "$tmp/snd-part/snd/snd.wav" ] || fail "a --frames part wrote the WAV"
run snd-forced 0 convert "$tmp/snd.MLV" -o "$tmp/snd-part" --frames 4-7 --audio
[ -s "$tmp/snd-part/snd/snd.wav" ] || fail "--audio wrote no WAV"
run snd-whole 0 convert "$tmp/snd.MLV" -o "$tmp/snd-whole"
[ -s "$tmp/snd-whole/snd/snd.wav" ] || fail "a whole-clip run wrote no WAV"
run snd-none 0 convert "$tmp/snd.MLV" -o "$tmp/snd-none" --no-audio
[ ! -e "$tmp/snd-none/snd/snd.wav" ] || fail "--no-audio wrote the WAV"
run snd-resume 0 convert "$tmp/snd.MLV" -o "$tmp/snd-whole" --skip-existing
run u-skip-md5 2 convert "$in" --to md5 -o "$tmp/x.md5" --skip-existing

# analyze: refuses to replace a sidecar without --overwrite (a usage error, 2, with the --help
# hint); a damaged sidecar is an input error naming the file and the key (3).
run an 0 analyze "$in" -o "$tmp/l.json"
run an-exists 2 analyze "$in" -o "$tmp/l.json"
[ "$(tail -n 1 "$tmp/an-exists.err")" = "(see 'mlvpipe analyze --help')" ] ||
    fail "existing sidecar: $(cat "$tmp/an-exists.err")"
run an-over 0 analyze "$in" -o "$tmp/l.json" --overwrite
sed 's/"ratio_ev"/"ratio_EV"/' "$tmp/l.json" >"$tmp/bad.json"
run bad-sidecar 3 convert "$in" -o "$tmp/bad" --levels "$tmp/bad.json"
grep -q "bad.json: key 'segments\[0\].levels.ratio_EV': unknown key" "$tmp/bad-sidecar.err" ||
    fail "bad sidecar message: $(cat "$tmp/bad-sidecar.err")"
run no-sidecar 3 convert "$in" -o "$tmp/bad" --levels "$tmp/none.json"

finish
