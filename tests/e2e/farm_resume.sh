#!/bin/bash
# A farm task killed mid-chunk (SIGKILL: no clean-up at all) and run again: the DNG task's
# --skip-existing keeps the frames finished before the kill (same inode and time stamp, not
# rewritten), never trusts a partial temporary file left by the kill, and the final files are
# byte-identical to a single-process run. A killed movie-segment task leaves no segment under
# its final name; run again (--overwrite) it gives the same joined packets.
# The commands are the plan's own (JSON argv), as any farm engine would run them.
# usage: farm_resume.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$(realpath "$1")
mlvsynth=$(realpath "$2")
command -v ffmpeg >/dev/null || { echo "no ffmpeg: skip"; exit 77; }
. "$(dirname "$0")/farm_lib.sh"

make_clip
make_reference

# task_argv PLAN ID: the task's argv, NUL-separated
task_argv() {
    python3 -c 'import json,sys
p=json.load(open(sys.argv[1]))
t=[t for t in p["tasks"] if t["id"]==sys.argv[2]][0]
sys.stdout.write("\0".join(t["argv"])+"\0")' "$1" "$2"
}
# run_task PLAN ID: runs it, exit status as the task's
run_task() {
    local -a argv
    mapfile -d '' argv < <(task_argv "$1" "$2")
    "${argv[@]}" >/dev/null 2>"$tmp/task.err"
}
# kill_task PLAN ID N: starts the task and SIGKILLs it once N frames are reported done
# (without the plan's --progress-every 10, so that every frame is reported); returns the
# task's exit status (137 when the kill landed).
kill_task() {
    local -a argv
    mapfile -d '' argv < <(task_argv "$1" "$2" | sed -z '/^--progress-every$/,+1d')
    rm -f "$tmp/events"; mkfifo "$tmp/events"
    "${argv[@]}" >/dev/null 2>"$tmp/events" &
    local pid=$! n=0 line
    while read -r line; do
        case $line in *'"event":"frame"'*)
            n=$((n+1)); [ "$n" -eq "$3" ] && kill -9 "$pid" 2>/dev/null ;;
        esac
    done < "$tmp/events"
    { wait "$pid"; } 2>/dev/null
}
# snapshot DIR: "name inode mtime" of the visible DNGs
snapshot() { (cd "$1" && find . -name '*.dng' ! -name '.*' -printf '%p %i %T@\n' | sort); }

"$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/out" --chunk 24 --threads 1 --engine json \
    > "$tmp/plan.json" || fail "plan"
mkdir -p "$tmp/out"
run_task "$tmp/plan.json" analyze || fail "analyze: $(head -c 300 "$tmp/task.err")"
kill_task "$tmp/plan.json" convert_000000-000023 3
rc=$?
[ "$rc" -eq 137 ] || fail "the chunk task was not killed (exit $rc)"
done_before=$(snapshot "$tmp/out/A001" | wc -l)
echo "killed after $done_before of 24 frames; temporary files left: $(ls -A "$tmp/out/A001" | grep -c '^\.')"
[ "$done_before" -gt 0 ] && [ "$done_before" -lt 24 ] ||
    fail "the kill did not land mid-chunk ($done_before of 24 frames written)"
snapshot "$tmp/out/A001" > "$tmp/before"
# What a kill during a write leaves: a partial file under the temporary name of the next
# frame (hidden, ".NAME.PID-N.part"). It must not be taken for the frame.
next=$(printf 'A001_%06d.dng' "$done_before")
head -c 1000 "$tmp/ref/A001/$next" > "$tmp/out/A001/.$next.99999-0.part"

run_task "$tmp/plan.json" convert_000000-000023 || fail "re-run: $(head -c 300 "$tmp/task.err")"
skipped=$(grep -o '"skipped":[0-9]*' "$tmp/task.err" | tail -1 | cut -d: -f2)
[ "$skipped" = "$done_before" ] || fail "re-run skipped ${skipped:-?} frames, $done_before were done"
[ -s "$tmp/out/A001/$next" ] && cmp -s "$tmp/out/A001/$next" "$tmp/ref/A001/$next" ||
    fail "the frame with a stale partial file was not written in full"
# Frames finished before the kill were not rewritten.
[ -z "$(join -v1 "$tmp/before" <(snapshot "$tmp/out/A001"))" ] ||
    fail "frames finished before the kill were rewritten"
run_task "$tmp/plan.json" convert_000024-000047 || fail "chunk 2: $(head -c 300 "$tmp/task.err")"
run_task "$tmp/plan.json" audio || fail "audio step: $(head -c 300 "$tmp/task.err")"
same_frames "killed + resumed DNG" "$tmp/ref" "$tmp/out"

# Movie segment: killed -> no final segment; run again -> the same joined packets.
"$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/mov" --chunk 24 --threads 1 --engine json --to ffv1 \
    > "$tmp/mplan.json" || fail "plan ffv1"
mkdir -p "$tmp/mov/A001_segments"
run_task "$tmp/mplan.json" analyze || fail "analyze (ffv1)"
kill_task "$tmp/mplan.json" convert_000000-000023 3
seg="$tmp/mov/A001_segments/A001_000000-000023.mkv"
[ ! -e "$seg" ] || fail "a killed segment task left $seg under its final name"
for id in convert_000000-000023 convert_000024-000047 join; do
    run_task "$tmp/mplan.json" "$id" || fail "$id (ffv1): $(head -c 300 "$tmp/task.err")"
done
same_movie "killed + redone ffv1" "$tmp/refm/A001.mkv" "$tmp/mov/A001.mkv"

finish
