#!/bin/bash
# Raw defects through the real CLI (issue #11). On mlvsynth clips with a focus-pixel lattice,
# hot/cold pixels and stripes: `info --defects` reports the 12x10 lattice and the stripes; the
# DNGs of a single-ISO clip, read by dcraw, have every simulated dead pixel (0 DN) repaired to
# within a few noise sigmas of its neighbours while untouched pixels keep their recorded values;
# the output is the same for 1 and 2 threads, for two chunks and for a sidecar from `analyze`;
# each --no-* switch changes the output. On a clean clip, and on small noiseless clips whose
# frames give no independent evidence, the fixes change no byte.
# usage: rawfix_cli.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
command -v dcraw >/dev/null || { echo "SKIP: dcraw not installed"; exit 77; }

geo=(--size 712x388 --frames 12 --shift 1.5)
"$mlvsynth" -o "$tmp/s.MLV" --dual-iso --ev-gap 0.01 --no-diso "${geo[@]}" --defects >/dev/null ||
    fail "mlvsynth single"
"$mlvsynth" -o "$tmp/d.MLV" --dual-iso "${geo[@]}" --defects >/dev/null || fail "mlvsynth dual"
"$mlvsynth" -o "$tmp/c.MLV" --dual-iso "${geo[@]}" >/dev/null || fail "mlvsynth clean"

# info --defects: the lattice and the stripes, text and JSON
run info 0 info "$tmp/d.MLV" --defects --json
python3 - "$tmp/info.out" <<'PY' || fail "info --defects --json"
import json, sys
d = json.load(open(sys.argv[1]))["raw_defects"][0]
assert d["lattice"] and (d["lattice"]["period_x"], d["lattice"]["period_y"]) == (12, 10), d
assert 300 <= d["single_pixels"] <= 420, d
assert d["stripes"] and 0.3 < d["stripe_amplitude_pct"] < 0.7, d
PY
run info-clean 0 info "$tmp/c.MLV" --defects
grep -q "no focus-pixel lattice; 0 hot/cold pixels; stripes .* (not significant)" \
    "$tmp/info-clean.out" || fail "clean clip: $(grep 'raw defects' "$tmp/info-clean.out")"

# single ISO: dcraw's raw values around the simulated dead pixels
run single 0 convert "$tmp/s.MLV" -o "$tmp/single" --frames 5
run single-off 0 convert "$tmp/s.MLV" -o "$tmp/single-off" --frames 5 --no-focus-pixels \
    --no-bad-pixels --no-stripes
dcraw -D -4 -c "$tmp/single/s/s_000005.dng" > "$tmp/fixed.pgm" || fail "dcraw fixed"
dcraw -D -4 -c "$tmp/single-off/s/s_000005.dng" > "$tmp/raw.pgm" || fail "dcraw raw"
python3 "$(dirname "$0")/dead_pixels.py" "$tmp/s.truth.json" "$tmp/fixed.pgm" "$tmp/raw.pgm" 90 ||
    fail "dead pixels"

# determinism: threads, chunks, sidecar
for c in d s; do
    run "$c-t1" 0 convert "$tmp/$c.MLV" -o "$tmp/$c-t1.md5" --to md5 --threads 1
    run "$c-t2" 0 convert "$tmp/$c.MLV" -o "$tmp/$c-t2.md5" --to md5 --threads 2
    cmp -s "$tmp/$c-t1.md5" "$tmp/$c-t2.md5" || fail "$c: 1 and 2 threads differ"
    run "$c-a" 0 convert "$tmp/$c.MLV" -o "$tmp/$c-a.md5" --to md5 --frames 0-5
    run "$c-b" 0 convert "$tmp/$c.MLV" -o "$tmp/$c-b.md5" --to md5 --frames 6-11
    cat "$tmp/$c-a.md5" "$tmp/$c-b.md5" | cmp -s - "$tmp/$c-t1.md5" || fail "$c: chunks differ"
    run "$c-analyze" 0 analyze "$tmp/$c.MLV" -o "$tmp/$c.levels.json"
    grep -q '"rawfix"' "$tmp/$c.levels.json" || fail "$c: no rawfix map in the sidecar"
    run "$c-side" 0 convert "$tmp/$c.MLV" -o "$tmp/$c-side.md5" --to md5 --levels "$tmp/$c.levels.json"
    cmp -s "$tmp/$c-side.md5" "$tmp/$c-t1.md5" || fail "$c: sidecar output differs"
done
for off in --no-focus-pixels --no-bad-pixels --no-stripes; do
    run "d$off" 0 convert "$tmp/d.MLV" -o "$tmp/d$off.md5" --to md5 "$off"
    ! cmp -s "$tmp/d$off.md5" "$tmp/d-t1.md5" || fail "$off changed nothing"
done

# mlvsynth's noiseless clips (default pattern, gradient) at small sizes: their frames are one
# look however many there are, so nothing is a defect and the fixes change no byte (the old
# detector found 135 hot/cold pixels in the default 64x32, 8-frame pattern)
for shape in "64x32 8 pattern" "128x64 16 pattern" "200x120 12 pattern" "64x32 8 gradient"; do
    read -r size frames content <<<"$shape"
    n="n-$size-$frames-$content"
    "$mlvsynth" -o "$tmp/$n.MLV" --size "$size" --frames "$frames" --content "$content" \
        >/dev/null || fail "mlvsynth $n"
    run "$n-info" 0 info "$tmp/$n.MLV" --defects
    grep -q "no focus-pixel lattice; 0 hot/cold pixels" "$tmp/$n-info.out" ||
        fail "$n: $(grep 'raw defects' "$tmp/$n-info.out")"
    run "$n" 0 convert "$tmp/$n.MLV" -o "$tmp/$n.md5" --to md5
    run "$n-off" 0 convert "$tmp/$n.MLV" -o "$tmp/$n-off.md5" --to md5 --no-focus-pixels \
        --no-bad-pixels --no-stripes
    cmp -s "$tmp/$n.md5" "$tmp/$n-off.md5" || fail "$n: the fixes changed a noiseless clip"
done

# a clean clip keeps its bytes: default = every fix off (nothing even looked for)
run clean 0 convert "$tmp/c.MLV" -o "$tmp/clean.md5" --to md5
run clean-off 0 convert "$tmp/c.MLV" -o "$tmp/clean-off.md5" --to md5 --no-focus-pixels \
    --no-bad-pixels --no-stripes
cmp -s "$tmp/clean.md5" "$tmp/clean-off.md5" || fail "the fixes changed a clean clip"
finish
