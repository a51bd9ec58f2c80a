#!/bin/bash
# mlvpipe plan / join command lines: help, usage errors (exit 2), unreadable clips (exit 3),
# options after -- passed to every convert task verbatim, relative paths made absolute,
# chunks of a clip with dropped frames (first frame 5, an empty chunk left out), text that
# cannot go into a script refused; and what a chunk does with a sidecar that does not match
# its clip (another GUID, another frame count): exit 3 with the reason.
# usage: farm_cli.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$(realpath "$1")
mlvsynth=$(realpath "$2")
. "$(dirname "$0")/farm_lib.sh"
cd "$tmp" || exit 1

# expect NAME CODE ARGS...: mlvpipe exits with CODE; stderr in NAME.err
expect() {
    local name=$1 want=$2; shift 2
    "$mlvpipe" "$@" >"$name.out" 2>"$name.err"; local rc=$?
    [ "$rc" -eq "$want" ] || fail "$name: exit $rc, expected $want ($(head -c 300 "$name.err"))"
}
# json_get FILE EXPR: a Python expression over the parsed plan p
json_get() { python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

"$mlvsynth" -o c.MLV --dual-iso --frames 48 --size 320x180 >/dev/null || fail mlvsynth
"$mlvsynth" -o g.MLV --dual-iso --frames 48 --size 320x180 --guid 7 >/dev/null || fail mlvsynth
"$mlvsynth" -o d.MLV --dual-iso --frames 48 --size 320x180 --drop 0-4,12-23 >/dev/null || fail mlvsynth

expect help 0 plan --help
grep -q -- '--chunk N' help.out && grep -q -- '--engine' help.out || fail "plan --help incomplete"
expect jhelp 0 join --help
expect noout 2 plan c.MLV
expect noclip 2 plan -o out
expect engine 2 plan c.MLV -o out --engine sge
expect to 2 plan c.MLV -o out --to md5
expect chunk0 2 plan c.MLV -o out --chunk 0
expect missing 3 plan nothere.MLV -o out
echo "not a clip" > text.MLV
expect text 3 plan text.MLV -o out
expect newline 2 plan c.MLV -o "$(printf 'out\nMLVPIPE_JOB')"
grep -q "control character" newline.err || fail "newline in a path: no clear reason"

# Relative paths become absolute; options after -- reach every convert task, in order.
expect rel 0 plan c.MLV -o out --chunk 12 --engine json -- --phase 0 --threads 3
[ "$(json_get rel.out 'p["clip"]["path"]')" = "$tmp/c.MLV" ] || fail "clip path not absolute"
[ "$(json_get rel.out 'p["output"]')" = "$tmp/out" ] || fail "output path not absolute"
[ "$(json_get rel.out 'sum(1 for t in p["tasks"] if t["kind"]=="convert" and t["argv"][-6:-2]==["--phase","0","--threads","3"])')" = 4 ] ||
    fail "options after -- not on every convert task"
[ "$(json_get rel.out 'p["clip"]["guid"]')" = 1122334455667788 ] || fail "GUID not in the plan"

# Default chunk: 1000 frame numbers, so the 48-frame clip is one task.
expect def 0 plan c.MLV -o out --engine json
[ "$(json_get def.out '(p["chunk_size"], p["chunk_count"])')" = "(1000, 1)" ] || fail "default chunk not 1000"

# Dropped frames: first frame 5, frames 12-23 missing: chunks 5-16 (5..11), 29-40, 41-47;
# 17-28 holds only 24..28.
expect drop 0 plan d.MLV -o out --chunk 12 --engine json
[ "$(json_get drop.out '" ".join("%d-%d/%d" % (t["first_frame"], t["last_frame"], t["frames"]) for t in p["tasks"] if t["kind"]=="convert")')" = \
  "5-16/7 17-28/5 29-40/12 41-47/7" ] || fail "chunks of the clip with dropped frames: $(json_get drop.out '[t.get("first_frame") for t in p["tasks"]]')"
"$mlvsynth" -o e.MLV --dual-iso --frames 48 --size 320x180 --drop 12-23 >/dev/null || fail mlvsynth
expect empty 0 plan e.MLV -o out --chunk 12
grep -q -- '--array=0-2 ' empty.out && grep -q '^frames=(0-11 24-35 36-47)$' empty.out ||
    fail "an empty chunk was not left out of the Slurm array"

# A chunk with another clip's sidecar: exit 3 naming the cause.
expect ag 0 analyze g.MLV -o g.levels.json
expect guid 3 convert c.MLV -o out --levels g.levels.json --frames 0-11
grep -q GUID guid.err || fail "GUID mismatch not named: $(cat guid.err)"
"$mlvsynth" -o f.MLV --dual-iso --frames 40 --size 320x180 >/dev/null || fail mlvsynth
expect af 0 analyze f.MLV -o f.levels.json
expect count 3 convert c.MLV -o out --levels f.levels.json --frames 0-11
grep -q "40 frames" count.err || fail "frame count mismatch not named: $(cat count.err)"

finish
