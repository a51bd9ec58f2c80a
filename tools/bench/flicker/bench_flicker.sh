#!/bin/bash
# Flicker benchmark (issue #4 at HD): a static 1920x1080-active dual-ISO clip of FRAMES
# frames (default 48) -> mlvpipe convert (2 threads) -> flicker_check, and the contrasts
# with levels from each frame alone (our estimator; plus cr2hdr's integer black).
# Prints the three tables and the time of each step. Exit status: the pooled check's.
# usage: bench_flicker.sh MLVSYNTH MLVPIPE FLICKER_CHECK [FRAMES]
set -u
mlvsynth=$1
mlvpipe=$2
check=$3
frames=${4:-48}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

step() { # step NAME COMMAND...: runs it, prints its wall time in ms
    local name=$1 t0 rc
    shift
    t0=$(date +%s%N)
    "$@"
    rc=$?
    echo "time $name: $((($(date +%s%N) - t0) / 1000000)) ms (exit $rc)"
    return $rc
}

step mlvsynth "$mlvsynth" -o "$tmp/hd.MLV" --dual-iso --size 1992x1108 --frames "$frames" ||
    exit 2
step convert "$mlvpipe" convert "$tmp/hd.MLV" -o "$tmp/out" --threads 2 || exit 2
echo "== levels pooled over the clip (mlvpipe convert)"
step check "$check" --fine "$tmp/hd.truth.json" "$tmp/out/hd"
rc=$?
echo "== levels from each frame alone"
step per-frame "$check" --per-frame "$tmp/hd.MLV" "$tmp/hd.truth.json"
echo "== levels from each frame alone, cr2hdr's integer black"
step per-frame-cr2hdr "$check" --per-frame --cr2hdr-black "$tmp/hd.MLV" "$tmp/hd.truth.json"
exit $rc
