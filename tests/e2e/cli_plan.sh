#!/bin/bash
# mlvpipe plan as a cluster admin reads it (no cluster needed; farm-slurm runs the scripts):
# Slurm resources go where the work is — --threads, --mem and --sbatch-work on the analyze
# and convert jobs, not on the single-threaded final join; --sbatch on every job; the array
# throttled with %N; analyze and convert --requeue with append-mode logs and a self-requeue
# on exit 6 while the job runs on; convert tasks log JSON progress per 10 s; bad values exit 2.
# usage: cli_plan.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"

"$mlvsynth" -o "$tmp/A001.MLV" --frames 30 --size 96x64 --audio >/dev/null || { fail "mlvsynth"; finish; }

# job N FILE: the text of the N-th sbatch here-document (1 analyze, 2 convert, 3 final)
job() { awk -v n="$1" '/<<.MLVPIPE_JOB.$/ { k++; on = (k == n); next } /^MLVPIPE_JOB$/ { on = 0 } on' "$2"; }

run slurm 0 plan "$tmp/A001.MLV" -o "$tmp/out" --chunk 10 --to ffv1 --threads 2 --mem 2G \
    --throttle 3 --sbatch=--partition=render --sbatch-work=--time=1:00:00
s=$tmp/slurm.out
bash -n "$s" || fail "the Slurm script does not parse"
for n in 1 2; do
    for line in "#SBATCH --partition=render" "#SBATCH --cpus-per-task=2" "#SBATCH --mem=2G" \
                "#SBATCH --time=1:00:00" "#SBATCH --requeue" "#SBATCH --open-mode=append" \
                "scontrol requeue"; do
        job $n "$s" | grep -qxF -- "$line" || job $n "$s" | grep -qF -- "$line" ||
            fail "job $n lacks '$line'"
    done
done
job 3 "$s" | grep -qxF "#SBATCH --partition=render" || fail "final job lacks --sbatch"
job 3 "$s" | grep -qE -- "--cpus-per-task|--mem|--time|--requeue" &&
    fail "the final join gets the work's resources: $(job 3 "$s" | grep '#SBATCH' | tr '\n' ' ')"
grep -q -- "--array=0-2%3 " "$s" || fail "no array throttle: $(grep -o -- '--array=[^ ]*' "$s")"
job 2 "$s" | grep -q -- "--progress json --progress-every 10" || fail "convert tasks log every frame"
job 2 "$s" | grep -qx "trap '' TERM" || fail "the job shell does not outlive a SIGTERM"

# --requeue 0: no requeue lines, exec as before.
run noreq 0 plan "$tmp/A001.MLV" -o "$tmp/out" --chunk 10 --requeue 0
grep -q "requeue" "$tmp/noreq.out" && fail "--requeue 0 still requeues"
[ "$(grep -c '^exec ' "$tmp/noreq.out")" = 3 ] || fail "--requeue 0: jobs do not exec mlvpipe"

# The other engines also log per 10 s.
run json 0 plan "$tmp/A001.MLV" -o "$tmp/out" --chunk 10 --engine json
grep -q '"--progress-every", "10"' "$tmp/json.out" || fail "JSON plan: no --progress-every 10"

run help 0 plan --help
for o in --sbatch-work --mem --throttle --requeue; do
    grep -q -- "$o" "$tmp/help.out" || fail "plan --help lacks $o"
done
run mem 2 plan "$tmp/A001.MLV" -o "$tmp/out" --mem 2GB
run thr 2 plan "$tmp/A001.MLV" -o "$tmp/out" --throttle 0
run req 2 plan "$tmp/A001.MLV" -o "$tmp/out" --requeue x
finish
