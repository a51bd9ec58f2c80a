#!/bin/bash
# Do no harm (issue #28; doc/rawfix.md "Do no harm"): on clean clips the raw fixes change
# nothing. mlvsynth clips without defects of the detail scene (the second benchmark scene with
# points of light, specular points that clip and fine text, each one photosite wide, which
# look like hot and cold pixels), still and drifting, dual and single ISO, at 10, 12 and 14
# bits, still detail scenes and the benchmark scene under a 0.3-EV flicker (a sample too
# quiet for its level is repaired in a still scene, session 14: a flicker must not make a
# clean one look so): the frames convert gives with every
# fix on (the default) are the bytes it gives with every fix off, `info --defects` claims no
# defect, and on the still clips it counts what it left alone. A clip with defects shows that
# the same run does repair (its stuck pixels), so the comparison can fail.
# usage: rawfix_no_harm.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
need python3

off=(--no-focus-pixels --no-bad-pixels --no-stripes)
# name: mlvsynth options
cases=(
    "dual-still-10:--dual-iso --bits 10 --scene detail"
    "dual-still-12:--dual-iso --bits 12 --scene detail --seed 2"
    "dual-still-14:--dual-iso --bits 14 --scene detail --seed 3"
    "single-still-10:--single-iso --bits 10 --scene detail --seed 4"
    "single-still-12:--single-iso --bits 12 --scene detail --seed 5"
    "single-still-14:--single-iso --bits 14 --scene detail --seed 6"
    "dual-moving-12:--dual-iso --bits 12 --scene detail --shift 1.5 --seed 7"
    "single-moving-14:--single-iso --bits 14 --scene detail --shift 1.5 --seed 8"
    "dual-flicker-14:--dual-iso --bits 14 --illum-sigma 0.3 --seed 9"
    "dual-still-flicker-12:--dual-iso --bits 12 --scene detail --illum-sigma 0.3 --seed 10"
    "single-still-flicker-14:--single-iso --bits 14 --scene detail --illum-sigma 0.3 --seed 11"
)
for c in "${cases[@]}"; do
    name=${c%%:*}
    # shellcheck disable=SC2086
    "$mlvsynth" -o "$tmp/$name.MLV" --size 320x192 --frames 16 --ob 0x0 ${c#*:} >/dev/null ||
        { fail "mlvsynth $name"; continue; }
    run "$name-on" 0 convert "$tmp/$name.MLV" -o "$tmp/$name-on.md5" --to md5
    run "$name-off" 0 convert "$tmp/$name.MLV" -o "$tmp/$name-off.md5" --to md5 "${off[@]}"
    cmp -s "$tmp/$name-on.md5" "$tmp/$name-off.md5" ||
        fail "$name: the fixes changed $(diff "$tmp/$name-on.md5" "$tmp/$name-off.md5" |
                                          grep -c '^<') of 16 frames"
    run "$name-info" 0 info "$tmp/$name.MLV" --defects --json
    python3 - "$tmp/$name-info.out" "$name" <<'PY' || fail "$name: info --defects"
import json, sys
for s in json.load(open(sys.argv[1]))["raw_defects"]:
    print(sys.argv[2], "left alone:", s["candidates_left_alone"], "lattice", s["lattice_left_alone"])
    assert s["lattice"] is None and s["single_pixels"] == 0 and not s["stripes"], s
    # the still detail scenes hold hundreds of points and strokes that look like defects
    assert "still" not in sys.argv[2] or s["candidates_left_alone"] > 50, s
PY
done

# the same comparison fails where there is something to repair
"$mlvsynth" -o "$tmp/defects.MLV" --dual-iso --size 320x192 --frames 16 --ob 0x0 --defects \
    >/dev/null || fail "mlvsynth defects"
run defects-on 0 convert "$tmp/defects.MLV" -o "$tmp/defects-on.md5" --to md5
run defects-off 0 convert "$tmp/defects.MLV" -o "$tmp/defects-off.md5" --to md5 "${off[@]}"
! cmp -s "$tmp/defects-on.md5" "$tmp/defects-off.md5" || fail "defects: nothing repaired"
finish
