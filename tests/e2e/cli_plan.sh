#!/bin/bash
# mlvpipe plan as a cluster admin reads it (no cluster needed; farm-slurm runs the scripts):
# Slurm resources go where the work is — --threads, --mem and --sbatch-work on the analyze
# and convert jobs, not on the single-threaded final join; --sbatch on every job; the array
# throttled with %N; analyze and convert --requeue with append-mode logs and a self-requeue
# on exit 6 while the job runs on; convert tasks log JSON progress per 10 s; bad values exit 2;
# the options after -- checked at plan time as convert checks them (item 3).
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

# Item 3: the options after -- are checked at plan time by convert's own parser and checks,
# on the command every task will run; exit 2 with convert's message and no plan on stdout
# (before, every case below planned, exit 0, and the tasks failed later on the nodes).
# bad NAME 'MESSAGE' PLAN ARGS...: exit 2, MESSAGE on stderr, nothing on stdout
bad() {
    local name=$1 message=$2
    shift 2
    run "$name" 2 plan "$tmp/A001.MLV" -o "$tmp/out" "$@"
    grep -qF -- "$message" "$tmp/$name.err" ||
        fail "$name: expected '$message', got: $(head -c 400 "$tmp/$name.err")"
    [ -s "$tmp/$name.out" ] && fail "$name: a plan was written"
}
bad typo "mlvpipe convert: unknown option '--crve'" --to ffv1 -- --crve logc3
bad value "mlvpipe convert: --curve takes bt709, linear, logc3 or slog3, not 'logc4'" --to ffv1 -- --curve logc4
bad curv-dng "mlvpipe convert: --curve sets the transfer curve of the developed picture" -- --curv logc3
bad wb-dng "mlvpipe convert: --wb sets the white balance" --engine json -- --wb 5600
bad to-dng "mlvpipe plan: --to after -- contradicts what the plan writes" -- --to ffv1
bad naming-mov "mlvpipe convert: --naming names the folder and files of an image sequence" --to prores422hq -- --naming resolve
bad dngbits-mkv "mlvpipe convert: --dng-bits sets the sample size of DNG files (--to dng); --to ffv1" --to ffv1 -- --dng-bits 16
bad overwrite-dng "mlvpipe convert: --skip-existing and --overwrite exclude each other" -- --overwrite
bad frames "mlvpipe plan: --frames after -- contradicts" -- --fram 1-5
bad output "mlvpipe plan: -o after -- contradicts" -- -o x
bad threads "mlvpipe plan: --threads after -- contradicts" --threads 2 -- --threads 3
bad operand "mlvpipe plan: 'B.MLV' after -- is not a convert option" -- --fast B.MLV
bad missing "mlvpipe convert: option '--gamut' needs a value" --to ffv1 -- --gamut
bad clipindex "mlvpipe convert: --clip-index is the C0000 part of resolve names" --to tiff -- --clip-index 2
# What convert takes, plan takes (and passes on verbatim).
run dev-ok 0 plan "$tmp/A001.MLV" -o "$tmp/out" --to ffv1 --engine json -- --curve logc3 --gamut aces --fast
grep -q '"--curve", "logc3", "--gamut", "aces", "--fast"' "$tmp/dev-ok.out" || fail "develop options not passed on"
run seq-ok 0 plan "$tmp/A001.MLV" -o "$tmp/out" --to tiff -- --curve linear --naming resolve --one-based
run dng-ok 0 plan "$tmp/A001.MLV" -o "$tmp/out" -- --dng-bits 16 --naming resolve --clip-index 3 --phase 0
finish
