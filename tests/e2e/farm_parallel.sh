#!/bin/bash
# mlvpipe plan --engine parallel and --engine json, run for real: a 48-frame dual-ISO clip
# with audio in 4 chunks of 12 gives DNGs (and WAV) byte-identical to one process, and FFV1 /
# ProRes / NUT segments joined by the plan's `mlvpipe join` give the video packets and audio of a
# whole-clip run. The JSON plan is run by a tiny scheduler (tasks started once their "after"
# tasks succeeded) to show it is complete for other engines. With openssh-server installed,
# an FFV1 plan also runs with --sshlogin through a private sshd on 127.0.0.1.
# usage: farm_parallel.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$(realpath "$1")
mlvsynth=$(realpath "$2")
command -v parallel >/dev/null || { echo "GNU parallel missing (scripts/deps.sh test): skip"; exit 77; }
command -v ffmpeg >/dev/null || { echo "no ffmpeg: skip"; exit 77; }
. "$(dirname "$0")/farm_lib.sh"

make_clip
make_reference

# DNG: the plan is a script; run it with bash. The output folder's name needs quoting.
par="$tmp/p it's (1) \$HOME \`x\`"
"$mlvpipe" plan "$tmp/A001.MLV" -o "$par" --chunk 12 --threads 1 --engine parallel \
    > "$tmp/par.sh" || fail "plan parallel"
grep -q -- '::: 0-11 12-23 24-35 36-47$' "$tmp/par.sh" || fail "parallel plan: not 4 chunks of 12"
bash "$tmp/par.sh" >/dev/null 2>"$tmp/par.err" || fail "parallel run: $(tail -c 300 "$tmp/par.err")"
same_frames "parallel DNG" "$tmp/ref" "$par"
# The joblog lists 4 tasks, all exit 0.
[ "$(awk 'NR>1 && $7==0' "$par/A001_logs/A001_parallel.joblog" | wc -l)" -eq 4 ] ||
    fail "parallel joblog does not show 4 successful tasks"

# Re-running the finished plan redoes nothing (every frame skipped) and changes no byte.
bash "$tmp/par.sh" >/dev/null 2>"$tmp/par2.err" || fail "parallel re-run"
# (tasks log progress per 10 s: count the skipped frames of their "done" events)
skipped=$(grep '"event":"done"' "$tmp/par2.err" | sed 's/.*"skipped":\([0-9]*\).*/\1/' | paste -sd+ | bc)
[ "${skipped:-0}" -ge 48 ] || fail "re-run did not skip the 48 frames (skipped ${skipped:-0})"
same_frames "parallel DNG re-run" "$tmp/ref" "$par"

# Movies: segments per chunk, then join.
for kind in $movie_kinds; do
    k=${kind%%:*} ext=${kind##*:}
    "$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/par_$k" --chunk 12 --threads 1 --engine parallel \
        --to "$k" > "$tmp/par_$k.sh" || fail "plan parallel $k"
    bash "$tmp/par_$k.sh" >/dev/null 2>"$tmp/par_$k.err" ||
        fail "parallel $k run: $(tail -c 300 "$tmp/par_$k.err")"
    [ "$(ls "$tmp/par_$k/A001_segments" | grep -c "\.$ext\$")" -eq 4 ] || fail "$k: not 4 segments"
    same_movie "parallel $k" "$tmp/refm/A001.$ext" "$tmp/par_$k/A001.$ext"
done

# --sshlogin: the chunks run through ssh on a private sshd on 127.0.0.1 (tests/farm/
# sshd_up.sh), into a folder whose name needs quoting on the remote side too.
ssh_state="$tmp/sshd"
if ssh_cmd=$("$(dirname "$0")/../farm/sshd_up.sh" "$ssh_state" 2>"$tmp/sshd.err"); then
    trap 'kill "$(cat "$ssh_state/sshd.pid" 2>/dev/null)" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
    out="$tmp/ssh it's (1) \$HOME"
    "$mlvpipe" plan "$tmp/A001.MLV" -o "$out" --chunk 12 --threads 1 --engine parallel --to ffv1 \
        --sshlogin 2/127.0.0.1 > "$tmp/ssh.sh" || fail "plan --sshlogin"
    PARALLEL_SSH=$ssh_cmd bash "$tmp/ssh.sh" >/dev/null 2>"$tmp/ssh.err" ||
        fail "parallel --sshlogin run: $(tail -c 300 "$tmp/ssh.err")"
    [ "$(awk 'NR>1 && $2=="127.0.0.1" && $7==0' "$out/A001_logs/A001_parallel.joblog" | wc -l)" -eq 4 ] ||
        fail "--sshlogin: the joblog does not show 4 tasks done on 127.0.0.1"
    same_movie "parallel --sshlogin ffv1" "$tmp/refm/A001.mkv" "$out/A001.mkv"
else
    echo "--sshlogin part skipped: $(tail -1 "$tmp/sshd.err")"
fi

# JSON: a minimal scheduler runs the tasks in dependency order.
run_json() {
    python3 - "$1" <<'PY'
import json, os, subprocess, sys
plan = json.load(open(sys.argv[1]))
assert plan["format"] == "mlvpipe-plan" and plan["format_version"] == 1
for folder in plan["folders"]:
    os.makedirs(folder, exist_ok=True)
tasks = {t["id"]: t for t in plan["tasks"]}
done = set()
while len(done) < len(tasks):
    ready = [i for i, t in tasks.items() if i not in done and all(a in done for a in t["after"])]
    if not ready:
        sys.exit("dependency cycle or unknown id")
    for i in ready:
        r = subprocess.run(tasks[i]["argv"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode:
            sys.exit("task %s failed with %d" % (i, r.returncode))
        done.add(i)
print(len(done))
PY
}
"$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/js" --chunk 12 --engine json > "$tmp/js.json" ||
    fail "plan json"
[ "$(run_json "$tmp/js.json")" = 6 ] || fail "json plan: not analyze + 4 chunks + audio step run"
same_frames "json DNG" "$tmp/ref" "$tmp/js"
"$mlvpipe" plan "$tmp/A001.MLV" -o "$tmp/jsm" --chunk 12 --engine json --to ffv1 > "$tmp/jsm.json" ||
    fail "plan json ffv1"
[ "$(run_json "$tmp/jsm.json")" = 6 ] || fail "json ffv1 plan: not analyze + 4 chunks + join run"
same_movie "json ffv1" "$tmp/refm/A001.mkv" "$tmp/jsm/A001.mkv"

finish
