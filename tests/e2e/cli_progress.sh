#!/bin/bash
# The progress display on a real terminal (a tmux pseudo-terminal whose screen is read back):
# the levels pre-pass and the frames each get a bar, a percentage, the elapsed time and an ETA
# (the frames also fps), the pre-pass line stays above the frames' one, the summary's time is
# the whole run's (not less than the frames' alone); with -o - into an
# ffmpeg that draws its own status line on the same terminal, mlvpipe's lines are whole lines
# and never share a screen line with ffmpeg's; JSON frame events are rate-limited by
# --progress-every (one per S seconds plus the last).
# usage: cli_progress.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$(realpath "$1")
mlvsynth=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || { echo "SKIP: tmux not installed (scripts/deps.sh test)"; exit 77; }
command -v ffmpeg >/dev/null || { echo "SKIP: ffmpeg not installed"; exit 77; }

"$mlvsynth" -o "$tmp/d.MLV" --dual-iso --frames 40 --size 640x360 >/dev/null ||
    { fail "mlvsynth"; finish; }

sock=mlvpipe-e2e-$$
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"; tmux -L "$sock" kill-server 2>/dev/null' EXIT

# screen NAME COMMAND: runs COMMAND in a 150x40 terminal until it ends (at most 120 s) and
# leaves the screen's non-empty lines in $tmp/NAME.screen; mid-run screens go to
# $tmp/NAME.during (every 0.2 s, concatenated).
screen() {
    local name=$1 cmd=$2 i
    tmux -L "$sock" kill-server 2>/dev/null
    tmux -L "$sock" new-session -d -x 150 -y 40 "$cmd; echo E2E-END; sleep 60"
    : >"$tmp/$name.during"
    for i in $(seq 1 600); do
        tmux -L "$sock" capture-pane -p >"$tmp/$name.now"
        cat "$tmp/$name.now" >>"$tmp/$name.during"
        grep -q E2E-END "$tmp/$name.now" && break
        sleep 0.2
    done
    grep -v '^$' "$tmp/$name.now" | grep -v E2E-END >"$tmp/$name.screen"
    tmux -L "$sock" kill-server 2>/dev/null
}

# A file output: the levels line (100 %) above the frames line (100 %), then the summary.
screen file "'$mlvpipe' convert '$tmp/d.MLV' --to ffv1 -o '$tmp/d.mkv' --threads 1"
bar='\[[#.]{24}\]'
grep -Eq "^levels $bar 100%  32/32 sampled frames  [0-9]+:[0-9]{2} elapsed  ETA 0:00\$" "$tmp/file.screen" ||
    fail "no finished levels line: $(cat "$tmp/file.screen")"
grep -Eq "^frames $bar 100%  40/40  [0-9.]+ fps  [0-9]+:[0-9]{2} elapsed  ETA 0:00\$" "$tmp/file.screen" ||
    fail "no finished frames line: $(cat "$tmp/file.screen")"
[ "$(grep -n "^levels" "$tmp/file.screen" | cut -d: -f1 | head -1)0" -lt \
  "$(grep -n "^frames" "$tmp/file.screen" | cut -d: -f1 | head -1)0" ] || fail "levels line not above the frames line"
grep -q "^40 frames (40 written, 0 skipped) in" "$tmp/file.screen" || fail "no summary line"
whole=$(sed -n 's/^40 frames (40 written, 0 skipped) in \([0-9.]*\) s.*/\1/p' "$tmp/file.screen")
frames_s=$(sed -n 's/^frames .* \([0-9]*\):\([0-9]*\) elapsed  ETA 0:00$/\1 \2/p' "$tmp/file.screen" |
    awk '{ print $1 * 60 + $2 }')
awk -v w="${whole:-0}" -v f="${frames_s:-0}" 'BEGIN { exit !(w + 0.5 >= f) }' ||
    fail "the summary's $whole s is less than the frames' $frames_s s"
# While it ran: a partly filled bar with a known ETA.
grep -Eq "^frames \[#*\.+\] +[0-9]+%  [0-9]+/40  [0-9.]+ fps  [0-9]+:[0-9]{2} elapsed  ETA [0-9]+:[0-9]{2}\$" \
    "$tmp/file.during" || fail "no frames line mid-run"

# A pipe into ffmpeg: its status line ("frame=") and ours never share a screen line.
screen pipe "'$mlvpipe' convert '$tmp/d.MLV' --to nut -o - --threads 1 | ffmpeg -hide_banner -f nut -i - -f null -"
grep -q "^frame=" "$tmp/pipe.screen" || fail "ffmpeg's status line missing: $(cat "$tmp/pipe.screen")"
grep -Eq "^frames $bar 100%  40/40" "$tmp/pipe.screen" || fail "pipe: no finished frames line"
grep -q "^40 frames (40 written" "$tmp/pipe.screen" || fail "pipe: no summary line"
mixed=$(cat "$tmp/pipe.during" "$tmp/pipe.screen" | grep -E "(levels|frames) \[|[0-9]+ frames \(|ETA|sampled frames" |
        grep -vE "^(levels|frames) $bar [ 0-9]{3}%  [0-9]+/[0-9]+ [^=#]*\$|^[0-9]+ frames \([0-9]+ written, [0-9]+ skipped\) in [0-9.]+ s, [0-9.]+ fps\$")
[ -z "$mixed" ] || fail "a progress line shares the screen with ffmpeg's output: $mixed"
grep "frame=" "$tmp/pipe.during" | grep -qv "^frame=" && fail "ffmpeg's line written over: $(grep 'frame=' "$tmp/pipe.during" | grep -v '^frame=' | head -2)"

# Not a terminal: nothing by default; JSON rate-limited by --progress-every.
"$mlvpipe" convert "$tmp/d.MLV" --to null -o x --threads 1 2>"$tmp/none.err" || fail "null run"
[ ! -s "$tmp/none.err" ] || fail "progress on a non-terminal: $(head -c 200 "$tmp/none.err")"
"$mlvpipe" convert "$tmp/d.MLV" --to null -o x --progress json --progress-every 3600 \
    2>"$tmp/every.err" || fail "--progress-every run"
[ "$(grep -c '"event":"frame"' "$tmp/every.err")" = 2 ] ||
    fail "--progress-every 3600: $(grep -c '"event":"frame"' "$tmp/every.err") frame events, expected 2 (first, last)"
tail -n 2 "$tmp/every.err" | head -n 1 | grep -q '"done":40,"total":40' || fail "last frame event missing"
"$mlvpipe" convert "$tmp/d.MLV" --to null -o x --progress json 2>"$tmp/all.err" || fail "json run"
[ "$(grep -c '"event":"frame"' "$tmp/all.err")" = 40 ] || fail "--progress json without -every: not 40 events"
"$mlvpipe" convert "$tmp/d.MLV" --to null -o x --progress-every -1 2>/dev/null
[ $? = 2 ] || fail "--progress-every -1 not a usage error"
finish
