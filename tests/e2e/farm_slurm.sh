#!/bin/bash
# mlvpipe plan --engine slurm on a real single-node Slurm cluster started from Debian's
# packages (tests/farm/slurm_up.sh: munge, slurmctld, slurmd on localhost, as root): the
# plans of a 48-frame dual-ISO clip with audio in 4 chunks (DNG, FFV1, ProRes 422 HQ) are
# submitted with sbatch (analyze -> job array afterok -> final job afterok) and waited for;
# every job must complete, the DNGs and WAV must be byte-identical to one process, and the
# joined movies must have its video packets and audio. Skips (77) with the reason when Slurm
# cannot run here (not root, packages missing, daemons refused). A task killed mid-chunk and
# the plan submitted again gives the same bytes. A task stopped by SIGTERM requeues itself and
# the plan completes; the array throttle holds; the README's hand-written array job runs
# without --cpus-per-task.
# usage: farm_slurm.sh MLVPIPE MLVSYNTH SRCDIR
set -u
mlvpipe=$(realpath "$1")
mlvsynth=$(realpath "$2")
srcdir=$3
command -v ffmpeg >/dev/null || { echo "no ffmpeg: skip"; exit 77; }
. "$(dirname "$0")/farm_lib.sh"
state="$tmp/slurm"
trap '"$srcdir/tests/farm/slurm_down.sh" "$state"; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT

up=$("$srcdir/tests/farm/slurm_up.sh" "$state" 2>"$tmp/up.err")
rc=$?
if [ "$rc" -eq 77 ]; then echo "SKIP: $(tail -1 "$tmp/up.err")"; exit 77; fi
[ "$rc" -eq 0 ] || { echo "FAIL: slurm_up.sh exit $rc: $(cat "$tmp/up.err")"; exit 1; }
eval "$up"          # export SLURM_CONF=...

make_clip
t0=$(date +%s.%N)
"$mlvpipe" convert "$tmp/A001.MLV" -o "$tmp/ref" --threads 2 2>/dev/null || fail "reference run"
t_one=$(echo "$(date +%s.%N) - $t0" | bc)
make_reference_movies() {
    local kind; mkdir -p "$tmp/refm"
    for kind in $movie_kinds; do
        "$mlvpipe" convert "$tmp/A001.MLV" -o "$tmp/refm/A001.${kind##*:}" --to "${kind%%:*}" \
            --threads 2 2>/dev/null || fail "reference ${kind%%:*} run"
    done
}
make_reference_movies

# wait_jobs TIMEOUT: until the queue is empty
wait_jobs() {
    local i
    for i in $(seq 1 $(($1 * 5))); do
        [ -z "$(squeue -h -o %i)" ] && return 0
        sleep 0.2
    done
    fail "jobs still queued after $1 s: $(squeue -h | head -5 | tr '\n' ';')"
    return 1
}
# all_completed IDS...: every job (and array task) ended COMPLETED
all_completed() {
    local id states
    for id in "$@"; do
        states=$(scontrol -o show job "$id" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | tr '\n' ' ')
        case $states in *JobState=COMPLETED*) ;; *) fail "job $id: no completed state ($states)";; esac
        [ -z "$(scontrol -o show job "$id" | grep -v JobState=COMPLETED)" ] ||
            fail "job $id: not all COMPLETED: $states"
    done
}

# DNG first, alone, timed from submission to the last job's end.
"$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/slurm_dng" --chunk 12 --threads 1 > "$tmp/dng.sh" ||
    fail "plan slurm"
grep -q -- '--array=0-3 --dependency=afterok:"$analyze"' "$tmp/dng.sh" || fail "plan: no 4-task array after analyze"
t0=$(date +%s.%N)
ids=$(bash "$tmp/dng.sh" 2>"$tmp/sub.err") || fail "sbatch: $(cat "$tmp/sub.err")"
wait_jobs 300
t_slurm=$(echo "$(date +%s.%N) - $t0" | bc)
[ "$(wc -w <<<"$ids")" -eq 3 ] || fail "expected 3 job ids (analyze, array, audio), got '$ids'"
all_completed $ids
same_frames "Slurm DNG" "$tmp/ref" "$tmp/slurm_dng"
[ "$(ls "$tmp/slurm_dng/A001_logs" | grep -c '_convert_.*\.log$')" -eq 4 ] || fail "not 4 array task logs"
printf 'wall time, 48 frames: one process with 2 threads %.2f s; Slurm, 4 chunks x 1 thread %.2f s\n' \
    "$t_one" "$t_slurm"

# Movies: both plans at once, into folders whose names need quoting.
all_ids=""
for kind in $movie_kinds; do
    k=${kind%%:*}
    "$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/slurm $k it's (1) \$x" --chunk 12 --threads 1 --to "$k" \
        > "$tmp/$k.sh" || fail "plan slurm $k"
    all_ids="$all_ids $(bash "$tmp/$k.sh" 2>"$tmp/sub.err")" || fail "sbatch $k: $(cat "$tmp/sub.err")"
done
wait_jobs 300
all_completed $all_ids
for kind in $movie_kinds; do
    k=${kind%%:*} ext=${kind##*:}
    same_movie "Slurm $k" "$tmp/refm/A001.$ext" "$tmp/slurm $k it's (1) \$x/A001.$ext"
done

# A failing chunk stops the plan: the final job is cancelled, not run (afterok).
"$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/slurm_fail" --chunk 12 --threads 1 --no-audio \
    --to ffv1 > "$tmp/fail.sh" || fail "plan (failure case)"
mkdir -p "$tmp/slurm_fail/A001_segments/A001_000012-000023.mkv"   # a folder in the way
ids=$(bash "$tmp/fail.sh" 2>/dev/null) || fail "sbatch (failure case)"
wait_jobs 120
join_id=$(awk '{print $3}' <<<"$ids")
scontrol -o show job "$join_id" | grep -q -e 'JobState=CANCELLED' -e 'DependencyNeverSatisfied' ||
    fail "join job after a failed chunk: $(scontrol -o show job "$join_id" | grep -o 'JobState=[A-Z_]*')"
[ ! -e "$tmp/slurm_fail/A001.mkv" ] || fail "a movie was joined although a chunk failed"

# Requeue: task 0 of a plan stopped by SIGTERM mid-chunk (scancel --full --signal=TERM, as a
# preemption or time limit sends it) exits 6 and requeues itself; it runs again, keeps the
# frames it had, and the plan completes with the bytes of one process. The array is
# throttled to one task at a time (%1).
mkdir -p "$tmp/k"
"$mlvsynth" -o "$tmp/k/A001.MLV" --dual-iso --frames 48 --size 1280x720 --shift 2 >/dev/null ||
    fail "mlvsynth 720p"
"$mlvpipe" convert "$tmp/k/A001.MLV" -o "$tmp/kref" --threads 2 2>/dev/null || fail "720p reference"
"$mlvpipe" plan "$tmp/k/A001.MLV" -o "$tmp/term" --chunk 24 --threads 1 --throttle 1 \
    --mem 500M > "$tmp/term.sh" || fail "plan (TERM case)"
ids=$(bash "$tmp/term.sh" 2>"$tmp/sub.err") || fail "sbatch (TERM case): $(cat "$tmp/sub.err")"
array=$(awk '{print $2}' <<<"$ids")
scontrol -o show job "$array" | grep -q "ArrayTaskThrottle=1" ||
    fail "array not throttled: $(scontrol -o show job "$array" | grep -o 'ArrayTaskThrottle=[0-9]*' | head -1)"
for _ in $(seq 1 1200); do     # until task 0 (frames 0-23) has finished 2 frames
    [ "$(ls "$tmp/term/A001" 2>/dev/null | grep -c '^A001_0000[01][0-9]\.dng$')" -ge 2 ] && break
    sleep 0.05
done
scancel --full --signal=TERM "${array}_0"
# Slurm holds a requeued job back (BeginTime about two minutes on): once task 0 is pending
# again after its requeue, let it start now, or the test waits out that delay. Not within the
# second of the kill, though: slurmd refuses a launch whose credential is not newer, in whole
# seconds, than the revocation the kill made ("Job credential revoked": the task then ends
# FAILED with no second run; seen once the first run stopped fast enough).
for _ in $(seq 1 600); do
    scontrol -o show job "${array}_0" | grep -q 'JobState=PENDING.*Restarts=1\|Restarts=1.*JobState=PENDING' &&
        { sleep 1.2; scontrol update JobId="${array}_0" StartTime=now; break; }
    sleep 0.1
done
wait_jobs 300
all_completed $ids
restarts=$(scontrol -o show job "${array}_0" | grep -o 'Restarts=[0-9]*')
[ "$restarts" = Restarts=1 ] || fail "task 0 after SIGTERM: $restarts, expected Restarts=1 (requeued once)"
grep -q '"status":"interrupted"' "$tmp/term/A001_logs/"*convert*_0.log ||
    fail "task 0's log has no interrupted run"
same_frames "Slurm SIGTERM + requeue" "$tmp/kref" "$tmp/term"
echo "task 0 stopped by SIGTERM, requeued ($restarts), plan completed"

# The README's hand-written array job, SLURM_CPUS_PER_TASK unset (no --cpus-per-task), with
# 24-frame chunks for this 48-frame clip.
"$mlvpipe" analyze "$tmp/A001.MLV" -o "$tmp/hand.levels.json" 2>/dev/null || fail "hand analyze"
(cd "$tmp" && PATH="$(dirname "$mlvpipe"):$PATH" sbatch --array=0-1 --output="$tmp/hand_%a.log" \
    --wrap 'f=$((SLURM_ARRAY_TASK_ID*24)); mlvpipe convert A001.MLV -o hand \
    --frames $f-$((f+23)) --levels hand.levels.json ${SLURM_CPUS_PER_TASK:+--threads $SLURM_CPUS_PER_TASK} \
    --skip-existing --progress json --progress-every 10') >/dev/null || fail "sbatch (README example)"
wait_jobs 300
ls "$tmp/hand/A001/"*.dng 2>/dev/null | wc -l | grep -qx 48 ||
    fail "README example: $(ls "$tmp/hand/A001/" 2>/dev/null | grep -c dng) DNGs ($(cat "$tmp"/hand_*.log | head -c 300))"
for f in "$tmp"/ref/A001/*.dng; do
    cmp -s "$f" "$tmp/hand/A001/${f##*/}" || { fail "README example: ${f##*/} differs"; break; }
done
[ "$(grep -c '"event":"frame"' "$tmp/hand_0.log")" -le 3 ] ||
    fail "README example: $(grep -c '"event":"frame"' "$tmp/hand_0.log") frame lines in a 24-frame log"

# A task SIGKILLed mid-chunk by Slurm (scancel --full --signal=KILL), then the same plan
# submitted again: the frames finished before the kill are kept (not rewritten) and the
# result is byte-identical to one process. 720p frames so that a chunk runs for a second or two.
"$mlvpipe" plan "$tmp/k/A001.MLV" -o "$tmp/kill" --chunk 24 --threads 1 > "$tmp/kill.sh" ||
    fail "plan (kill case)"
ids=$(bash "$tmp/kill.sh" 2>/dev/null) || fail "sbatch (kill case)"
array=$(awk '{print $2}' <<<"$ids")
for _ in $(seq 1 1200); do     # until task 0 (frames 0-23) has finished 2 frames
    [ "$(ls "$tmp/kill/A001" 2>/dev/null | grep -c '^A001_0000[01][0-9]\.dng$')" -ge 2 ] && break
    sleep 0.05
done
scancel --full --signal=KILL "${array}_0"
wait_jobs 120
killed=$(ls "$tmp/kill/A001" | grep -c '^A001_0000[01][0-9]\.dng$\|^A001_00002[0-3]\.dng$')
echo "Slurm task 0 killed after $killed of 24 frames"
[ "$killed" -gt 0 ] && [ "$killed" -lt 24 ] || fail "the kill did not land mid-chunk ($killed of 24)"
scontrol -o show job "${array}_0" | grep -q -e JobState=FAILED -e JobState=CANCELLED ||
    fail "killed task state: $(scontrol -o show job "${array}_0" | grep -o 'JobState=[A-Z_]*')"
snap() { (cd "$tmp/kill/A001" && find . -name '*.dng' ! -name '.*' -printf '%p %i %T@\n' | sort); }
snap > "$tmp/kill.before"
ids=$(bash "$tmp/kill.sh" 2>/dev/null) || fail "re-submission"
wait_jobs 300
all_completed $ids
[ -z "$(join -v1 "$tmp/kill.before" <(snap))" ] || fail "frames finished before the kill were rewritten"
same_frames "Slurm kill + re-submit" "$tmp/kref" "$tmp/kill"

finish
