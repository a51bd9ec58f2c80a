#!/usr/bin/env bash
# The mount's figures (doc/mount.md, issue #32): a clip read through `mlvpipe mount` by two
# readers at once against `mlvpipe convert` writing the same files (analysis included in
# both: a fresh levels cache), the first frame of an analysed clip after a remount, the mount
# process's peak memory with the default cache, and 1000 random reads checked byte by byte.
# The two readers share the clip's files as a player decoding frames in parallel does
# (mount_reader.py --split: reader k reads files k, k+2, ...).
# Runs A B A B (convert, mount) so that others' load hits both alike.
# usage: bench_mount.sh BUILD_DIR CLIP WORK_DIR [ROUNDS]
set -u
build=$1 clip=$2 work=$3 rounds=${4:-2}
mlvpipe=$build/tools/mlvpipe/mlvpipe
reader=$(dirname "$0")/../../tests/e2e/mount_reader.py
mnt=$work/mnt
mkdir -p "$mnt"
trap 'fusermount3 -uz "$mnt" 2>/dev/null' EXIT
mounted() { grep -q " $mnt fuse" /proc/mounts; }
tf='%U %S %e %M'   # user s, sys s, wall s, peak KiB

mount_fg() {   # mount_fg TIMEFILE ARGS...: mount in the foreground, under time, in the background
    local out=$1; shift
    /usr/bin/time -o "$out" -f "$tf" "$mlvpipe" mount -f "$clip" "$mnt" "$@" 2>>"$work/mount.log" &
    mpid=$!
    for _ in $(seq 1 500); do mounted && return; sleep 0.01; done
    echo "mount did not come up" >&2
    exit 1
}

for r in $(seq 1 "$rounds"); do
    rm -rf "$work/conv"
    /usr/bin/time -o "$work/conv.$r" -f "$tf" "$mlvpipe" -q convert "$clip" -o "$work/conv"
    echo "convert  round $r: user sys wall peakKiB = $(cat "$work/conv.$r")"
    export XDG_CACHE_HOME=$work/xdg.$r   # a fresh levels cache: the analysis is included
    mount_fg "$work/mount.$r"
    start=$(date +%s.%N)
    python3 "$reader" "$work/conv" "$mnt" --readers 2 --split --no-compare >"$work/read.$r"
    end=$(date +%s.%N)
    fusermount3 -u "$mnt"; wait "$mpid"
    echo "mount    round $r: user sys wall peakKiB = $(cat "$work/mount.$r");" \
         "two readers $(echo "$end - $start" | bc) s wall"
done
# an analysed clip: remount with the levels cached, time the first frame
mount_fg "$work/mount.first"
python3 - "$mnt" <<'PY'
import os, sys, time
d = os.path.join(sys.argv[1], sorted(os.listdir(sys.argv[1]))[0])
t = time.monotonic()
names = sorted(n for n in os.listdir(d) if n.endswith(".dng"))
with open(os.path.join(d, names[0]), "rb") as f:
    data = f.read()
print(f"first frame after remount (analysis cached): {time.monotonic() - t:.3f} s, {len(data)} bytes")
PY
python3 "$reader" "$work/conv" "$mnt" --random 1000 --seed 7 | sed 's/^/random: /'
fusermount3 -u "$mnt"; wait "$mpid"
echo "mount (first frame + 1000 random reads): user sys wall peakKiB = $(cat "$work/mount.first")"
