#!/bin/bash
# mlvpipe plan as a cluster admin reads it (no cluster needed; farm-slurm runs the scripts):
# Slurm resources go where the work is — --threads, --mem and --sbatch-work on the analyze
# and convert jobs, not on the single-threaded final join; --sbatch on every job; the array
# throttled with %N; analyze and convert --requeue with append-mode logs and a self-requeue
# on exit 6 while the job runs on; convert tasks log JSON progress per 10 s; bad values exit 2;
# the options after -- checked at plan time as convert checks them (item 3); several clips and
# folders in one plan (item 12).
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

# #35: the final step of a sequence with audio is a convert with the tasks' --threads, so it
# asks for as many CPUs; without --mem each work job gets one from the measured peaks
# (doc/farm.md "Memory": at 1080p and 4 threads analyze 192M, a ProRes task 512M), none on
# the final step; an unreadable clip of a folder is left out, named on stderr and in a comment
# at the end of the script, the others planned, exit 3.
run seq 0 plan "$tmp/A001.MLV" -o "$tmp/out" --chunk 10 --threads 2
job 3 "$tmp/seq.out" | grep -q -- "convert .*--threads 2" || fail "audio step without --threads 2"
job 3 "$tmp/seq.out" | grep -qxF "#SBATCH --cpus-per-task=2" ||
    fail "audio step CPUs: $(job 3 "$tmp/seq.out" | grep '#SBATCH' | tr '\n' ' ')"
job 3 "$tmp/seq.out" | grep -q -- "--mem" && fail "the audio step gets the work's memory"
"$mlvsynth" -o "$tmp/HD.MLV" --frames 2 --size 1920x1080 >/dev/null || fail "mlvsynth HD"
run hd 0 plan "$tmp/HD.MLV" -o "$tmp/out" --threads 4 --to prores422hq
job 1 "$tmp/hd.out" | grep -qxF "#SBATCH --mem=192M" || fail "analyze memory: $(job 1 "$tmp/hd.out" | grep mem)"
job 2 "$tmp/hd.out" | grep -qxF "#SBATCH --mem=512M" || fail "ProRes memory: $(job 2 "$tmp/hd.out" | grep mem)"
job 3 "$tmp/hd.out" | grep -q -- "--mem" && fail "the join gets the work's memory"
mkdir -p "$tmp/mixed"
cp "$tmp/A001.MLV" "$tmp/mixed/"
printf 'not a clip %.0s' $(seq 60) >"$tmp/mixed/X009.MLV"
run card 3 plan "$tmp/mixed" -o "$tmp/out"
grep -q "X009.MLV: left out of the plan (the other clips are planned)" "$tmp/card.err" ||
    fail "left-out clip not named: $(cat "$tmp/card.err")"
bash -n "$tmp/card.out" || fail "the plan with a clip left out does not parse"
grep -q "mlvpipe-A001-analyze" "$tmp/card.out" || fail "the readable clip was not planned"
[ "$(tail -n 1 "$tmp/card.out")" = "# left out of this plan, unreadable: $tmp/mixed/X009.MLV" ] ||
    fail "no comment for the clip left out: $(tail -n 1 "$tmp/card.out")"
head -n 1 "$tmp/card.out" | grep -q '^#!' || fail "the script does not start with #!"
run card-json 3 plan "$tmp/mixed" -o "$tmp/out" --engine json
python3 -c 'import json, sys; assert len(json.load(open(sys.argv[1]))) == 1' "$tmp/card-json.out" ||
    fail "JSON plan with a clip left out"

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
bad value "mlvpipe convert: --curve takes bt709, linear, logc3, slog3, acescct, davinci, logc4, vlog, clog3 or srgb, not 'logc5'" --to ffv1 -- --curve logc5
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

# Item 12: several clips and folders, as convert batches take them: one plan per clip (their
# own sidecar, tasks and final step in the one DIR), made before anything is printed; JSON an
# array of the plans (one clip: the plan object as before). Before: "one clip at a time".
mkdir -p "$tmp/card/sub"
cp "$tmp/A001.MLV" "$tmp/card/A001.MLV"
"$mlvsynth" -o "$tmp/card/B002.MLV" --frames 12 --size 96x64 >/dev/null || fail "mlvsynth B002"
cp "$tmp/A001.MLV" "$tmp/card/sub/A001.MLV"
run many 0 plan "$tmp/card" -o "$tmp/out" --chunk 10 --engine json
got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(" ".join("%s:%d:%s" % (p["clip"]["path"].split("/")[-1], sum(t["kind"]=="convert" for t in p["tasks"]), p["tasks"][0]["output"].split("/")[-1]) for p in d))' "$tmp/many.out")
[ "$got" = "A001.MLV:4:A001.levels.json B002.MLV:2:B002.levels.json" ] || fail "plan of a folder: $got"
run many-slurm 0 plan "$tmp/card/B002.MLV" "$tmp/A001.MLV" -o "$tmp/out" --chunk 10
bash -n "$tmp/many-slurm.out" || fail "the Slurm script of two clips does not parse"
[ "$(grep -c '^analyze=$(sbatch' "$tmp/many-slurm.out")" = 2 ] || fail "two clips: not two analyze jobs"
grep -q 'mlvpipe-B002-convert' "$tmp/many-slurm.out" && grep -q 'mlvpipe-A001-convert' "$tmp/many-slurm.out" ||
    fail "two clips: a convert array is missing"
run one-json 0 plan "$tmp/A001.MLV" -o "$tmp/out" --engine json
python3 -c 'import json,sys; assert isinstance(json.load(open(sys.argv[1])), dict)' "$tmp/one-json.out" ||
    fail "one clip: the JSON plan is no longer an object"
bad same-name "are both named A001" "$tmp/card/sub"
run missing-clip 3 plan "$tmp/card/B002.MLV" "$tmp/nothere.MLV" -o "$tmp/out"
[ -s "$tmp/missing-clip.out" ] && fail "a plan was printed though a clip is missing"
bad many-levels "--levels belongs to one clip" --levels "$tmp/x.json" "$tmp/card/B002.MLV"
finish
