#!/bin/bash
# The pre-pass probe: a 40-frame single-ISO clip of noisy sensor content is decided from its
# 4 probe frames (-v says so, the sidecar says single ISO) and converts to the same DNGs
# with 1 and 2 threads; the same scene recorded as dual ISO without a DISO
# block is still found dual from all 32 samples. The raw-defect sums of both still clips stop
# at 16 of the 32 samples (mp_rawfix_accum_settled) while the dual levels keep all 32; the
# same scene drifting (--shift) takes all 32 for its defects. The dual clip's map, built on a
# thread of its own beside the last 16 samples with 2 threads (prepass.c early_map), is the
# one built after them with 1: the same sidecar.
# usage: prepass_probe.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"

"$mlvsynth" -o "$tmp/s.MLV" --content dualiso --ev-gap 0.01 --no-diso --size 400x240 \
    --frames 40 >/dev/null || fail "mlvsynth single"
"$mlvsynth" -o "$tmp/d.MLV" --content dualiso --no-diso --size 400x240 --frames 40 \
    >/dev/null || fail "mlvsynth dual"

run s-an 0 -v analyze "$tmp/s.MLV" -o "$tmp/s.json"
grep -q "frames 0-39: single ISO, ratio none (no trace of the row pattern in the probe's frames)" \
    "$tmp/s-an.err" || fail "single: not decided by the probe ($(cat "$tmp/s-an.err"))"
grep -q "frames 0-39: raw defects from 16 frames" "$tmp/s-an.err" ||
    fail "single: still clip's defect sums not settled at 16 frames ($(cat "$tmp/s-an.err"))"
"$mlvsynth" -o "$tmp/m.MLV" --content dualiso --ev-gap 0.01 --no-diso --size 400x240 \
    --frames 40 --shift 1.5 >/dev/null || fail "mlvsynth moving"
run m-an 0 -v analyze "$tmp/m.MLV" -o "$tmp/m.json"
grep -q "frames 0-39: raw defects from 32 frames" "$tmp/m-an.err" ||
    fail "moving: defect sums stopped early ($(cat "$tmp/m-an.err"))"
run s1 0 convert "$tmp/s.MLV" -o "$tmp/s1" --threads 1 --dng-bits 16
run s2 0 convert "$tmp/s.MLV" -o "$tmp/s2" --threads 2 --dng-bits 16
for f in 0 17 39; do
    n=$(printf '%06d' "$f")
    cmp -s "$tmp/s1/s/s_$n.dng" "$tmp/s2/s/s_$n.dng" || fail "single: frame $f differs by threads"
done
python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['segments']; sys.exit(len(s) != 1 or s[0]['levels']['is_dual'])" \
    "$tmp/s.json" || fail "single: sidecar not one single-ISO segment"

run d-an 0 -v analyze "$tmp/d.MLV" -o "$tmp/d.json"
grep -q "frames 0-39: dual ISO, .* from 32 of 32 sampled frames" "$tmp/d-an.err" ||
    fail "dual without DISO: not pooled from all samples ($(cat "$tmp/d-an.err"))"
grep -q "frames 0-39: raw defects from 16 frames" "$tmp/d-an.err" ||
    fail "dual: still clip's defect sums not settled at 16 frames ($(cat "$tmp/d-an.err"))"
run d-an1 0 analyze "$tmp/d.MLV" -o "$tmp/d1.json" --threads 1
run d-an2 0 analyze "$tmp/d.MLV" -o "$tmp/d2.json" --threads 2
grep -q '"rawfix"' "$tmp/d1.json" || fail "dual: no raw-defect map in the sidecar"
cmp -s "$tmp/d1.json" "$tmp/d2.json" || fail "dual: the sidecar differs by threads"
finish
