#!/bin/bash
# Issue #31's timelapse (tools/bench/stills/bench_timelapse.sh): 48 CR2 photos of a static
# dual-ISO scene converted with --sequence pass the flicker check in every band (levels pooled
# over the photos) and give the samples of the same frames recorded as an MLV clip; converted
# photo by photo (each its own levels) they fail it, which is why --sequence exists; and below
# 11 EV the sequence flickers at most 1.25 times as much as the ISO-100 sequence of the scene,
# above it at most 1.15 times as much as that sequence's low-ISO rows alone.
# usage: stills_timelapse.sh BENCH_TIMELAPSE BUILD_DIR
set -u
bench=$1
build=$2
. "$(dirname "$0")/lib.sh"
need dcraw /usr/bin/time

bash "$bench" "$build" "$tmp" >"$tmp/bench.txt" 2>&1 || fail "bench: $(tail -3 "$tmp/bench.txt")"
cat "$tmp/bench.txt"
verdicts=$(awk '/^== /{run=$2} /^(PASS|FAIL):/{print run, $1}' "$tmp/bench.txt")
grep -qx "seq/tl PASS:" <<<"$verdicts" || fail "the sequence flickers: $verdicts"
grep -qx "each_seq FAIL:" <<<"$verdicts" || fail "photo by photo passes: $verdicts"
# against the same exposures on the ISO-100 sensor as a sequence (issue #31: at most 1.25 times
# its flicker): below 11 EV, where the levels decide; above, only the low-ISO rows see the light
# and the band mean is noisier by about sqrt 2 whatever the levels: there the sequence is held
# to the ISO-100 photos with the high-ISO rows interpolated from the low field (measured 0.98
# of it; doc/stills.md 6)
awk '/ratio to ISO 100/ {found = 1; for (f = 8; f <= 20; f += 6) if ($f > 1.25) bad = 1
                         if ($26 > 1.15 * $30) bad = 1}
     END {exit !(found && !bad)}' "$tmp/bench.txt" ||
    fail "dual-ISO sequence flicker above 1.25x ISO 100's (below 11 EV) or 1.15x the low field's: $(grep 'ratio to ISO' "$tmp/bench.txt")"
for i in 0 47; do
    grep -q "frame $i: the sequence's samples are the clip's" "$tmp/bench.txt" ||
        fail "frame $i differs from the clip's"
done
finish
