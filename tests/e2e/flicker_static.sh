#!/bin/bash
# Issue #4 flicker test: a 48-frame static dual-ISO clip from mlvsynth (independent noise per
# frame, constant illumination, 1280x720 so the scene's ramp is as gentle as at HD) ->
# mlvpipe convert -> flicker_check. The band means of the DNGs must move from frame to frame
# by at most 1.5x what shot and read noise predict, in every band of doc/dualiso.md 8.7
# ([2,5) .. [11,14) EV) and every 1-EV band from 2 to 14 EV. The same clip with levels
# estimated per frame and cr2hdr's integer black must fail (the check can fail), and levels
# from each frame alone (our own estimator) must flicker more than the pooled levels in the
# mid-tones.
# usage: flicker_static.sh MLVSYNTH MLVPIPE FLICKER_CHECK
set -u
mlvsynth=$1
mlvpipe=$2
check=$3
. "$(dirname "$0")/lib.sh"

# col FILE BAND N: column N of a band's table row (1 band, 7 std %, 8 predicted %, 9 ratio)
col() { awk -v band="$2" -v n="$3" '$1 == band { print $n; exit }' "$1"; }

"$mlvsynth" -o "$tmp/static.MLV" --dual-iso --size 1280x720 --frames 48 --seed 3 \
    >/dev/null || fail "mlvsynth"
"$mlvpipe" convert "$tmp/static.MLV" -o "$tmp/out" --threads 2 >"$tmp/convert.log" 2>&1 ||
    fail "convert: $(tail -3 "$tmp/convert.log")"

"$check" --fine "$tmp/static.truth.json" "$tmp/out/static" >"$tmp/pooled.txt" 2>&1
rc=$?
cat "$tmp/pooled.txt"
[ "$rc" -eq 0 ] || fail "pooled levels: exit $rc, expected 0 (PASS)"
[ "$(grep -c ' PASS$' "$tmp/pooled.txt")" -eq 16 ] || fail "pooled: not 16 bands PASS"
# and the prediction is not inflated (that would make the check pass anything): with 48
# frames a measured std is within about 10 % of its expectation
low=$(awk '/^\[/ && $9 < 0.6 { print $1 }' "$tmp/pooled.txt")
[ -z "$low" ] || fail "pooled: measured far below the prediction in $low"


"$check" --per-frame --cr2hdr-black "$tmp/static.MLV" "$tmp/static.truth.json" \
    >"$tmp/cr2hdr.txt" 2>&1
rc=$?
cat "$tmp/cr2hdr.txt"
[ "$rc" -eq 1 ] || fail "per-frame levels + integer black: exit $rc, expected 1 (FAIL)"
ratio=$(col "$tmp/cr2hdr.txt" "[2,5)" 9)
awk -v r="${ratio:-0}" 'BEGIN { exit !(r > 3) }' ||
    fail "per-frame levels + integer black: shadow ratio ${ratio:-none}, expected > 3"

"$check" --per-frame "$tmp/static.MLV" "$tmp/static.truth.json" >"$tmp/own.txt" 2>&1
rc=$?
cat "$tmp/own.txt"
[ "$rc" -le 1 ] || fail "per-frame levels: exit $rc"
pooled=$(col "$tmp/pooled.txt" "[8,11)" 7)
own=$(col "$tmp/own.txt" "[8,11)" 7)
awk -v a="${own:-0}" -v b="${pooled:-1}" 'BEGIN { exit !(a > 1.3 * b) }' ||
    fail "8-11 EV: per-frame std ${own:-none} % not above 1.3x pooled ${pooled:-none} %"

finish
