#!/bin/bash
# A child process running LibRaw that makes no progress (here: stopped with SIGSTOP, as a lock
# inherited through fork would leave it) is stopped after 5 s and the photo is read again in
# a new helper's child (doc/stills.md 7): the still converts, exit 0, the same bytes as a run
# left alone. The child is caught by polling for the children of the conversion's helpers; a
# run in which none was caught (or which took less than the 5 s a stall costs) is tried
# again (at most 5 runs).
# usage: stills_stall.sh MLVPIPE CR2SYNTH
set -u
mlvpipe=$1
cr2synth=$2
. "$(dirname "$0")/lib.sh"

"$cr2synth" -o "$tmp/IMG_0001.CR2" --dual 4 --size 1920x1080 || fail "cr2synth"
run alone 0 convert "$tmp/IMG_0001.CR2" -o "$tmp/alone"
caught=0
for attempt in 1 2 3 4 5; do
    rm -rf "$tmp/stalled"
    start=$SECONDS
    "$mlvpipe" convert "$tmp/IMG_0001.CR2" -o "$tmp/stalled" 2>"$tmp/stalled.err" &
    pid=$!
    child=
    for _ in $(seq 1 4000); do
        for helper in $(pgrep -P "$pid"); do
            child=$(pgrep -P "$helper" | head -n 1)
            [ -n "$child" ] && break
        done
        [ -n "$child" ] || ! kill -0 "$pid" 2>/dev/null && break
    done
    [ -n "$child" ] && kill -STOP "$child" 2>/dev/null && caught=1
    wait "$pid"
    rc=$?
    # a child caught as it exited was no stall: the watch waits 5 s before it gives up
    [ $((SECONDS - start)) -ge 5 ] || caught=0
    [ "$caught" = 1 ] && break
done
[ "$caught" = 1 ] || fail "no child of LibRaw caught in 5 runs"
[ "$rc" = 0 ] || fail "stalled child: exit $rc ($(cat "$tmp/stalled.err"))"
cmp -s "$tmp/alone/IMG_0001.dng" "$tmp/stalled/IMG_0001.dng" ||
    fail "stalled child: other bytes than a run left alone"
finish
