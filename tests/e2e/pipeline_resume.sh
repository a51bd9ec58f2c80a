#!/bin/bash
# Interrupt and resume: SIGTERM mid-run stops cleanly (exit 6, only complete files under
# final names, each identical to an uninterrupted run's), and --skip-existing finishes the
# sequence to the same bytes. Also: existing outputs are refused without --overwrite (exit 2).
# usage: pipeline_resume.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/pipeline_lib.sh"

frames=20
"$mlvsynth" -o "$tmp/clip.MLV" --dual-iso --size 960x540 --frames $frames >/dev/null ||
    fail "mlvsynth"
run ref 0 convert "$tmp/clip.MLV" -o "$tmp/ref" --threads 2

# Interrupt once two frames are out.
"$mlvpipe" convert "$tmp/clip.MLV" -o "$tmp/out" --threads 1 --progress json \
    2>"$tmp/killed.err" &
two_dngs_out() { [ "$(find "$tmp/out" -name '*.dng' 2>/dev/null | wc -l)" -ge 2 ]; }
stop_when $! two_dngs_out
[ $rc -eq 6 ] || fail "interrupted run: exit $rc, expected 6"
tail -n 1 "$tmp/killed.err" | grep -q '"event":"error".*"status":"interrupted"' ||
    fail "interrupted run: last JSON event: $(tail -n 1 "$tmp/killed.err")"
done_before=$(find "$tmp/out" -type f | wc -l)
[ "$done_before" -ge 2 ] && [ "$done_before" -lt $frames ] ||
    fail "interrupted run left $done_before files"
for f in $(cd "$tmp/out" && find . -type f); do
    case $f in
        ./clip/clip_0000[0-9][0-9].dng) cmp -s "$tmp/out/$f" "$tmp/ref/$f" ||
            fail "interrupted run: $f differs from the uninterrupted run" ;;
        *) fail "interrupted run left $f" ;;
    esac
done

# Resume: the finished frames are skipped, the rest written, the result identical.
run resume 0 convert "$tmp/clip.MLV" -o "$tmp/out" --skip-existing --progress json --threads 2
skipped=$(grep -c '"event":"frame".*"skipped":true' "$tmp/resume.err")
[ "$skipped" -eq "$done_before" ] || fail "resume skipped $skipped frames, expected $done_before"
tail -n 1 "$tmp/resume.err" | grep -q "\"event\":\"done\",\"done\":$frames,\"total\":$frames" ||
    fail "resume: last event $(tail -n 1 "$tmp/resume.err")"
same_tree "resumed vs uninterrupted" "$tmp/ref" "$tmp/out"

# Existing finals are a usage error unless --overwrite (which rewrites the same bytes).
run again 2 convert "$tmp/clip.MLV" -o "$tmp/out" --frames 3-4 --progress none
grep -q "exists" "$tmp/again.err" || fail "existing output message: $(cat "$tmp/again.err")"
run overwrite 0 convert "$tmp/clip.MLV" -o "$tmp/out" --frames 3-4 --overwrite
same_tree "after --overwrite" "$tmp/ref" "$tmp/out"

finish
