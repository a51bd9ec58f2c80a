#!/bin/bash
# A dual-ISO clip whose second segment is too dark for the row pattern to be detected (a
# shutter of 10 us from frame 7 on: a lens cap) is still reconstructed as dual ISO there:
# same BlackLevel/WhiteLevel/BitsPerSample in every DNG, the clip's row phase (2, so a
# default phase would show), ratio nominal (from DISO/EXPO) or, without a DISO block, the
# levels of the nearest dual segment; no period-4 row striping left; chunks split inside each
# segment give the same bytes as a whole run. A clip whose DISO says dual but whose frames are
# all dark passes through with a warning; a single-ISO clip with the same settings change
# stays native.
# usage: lenscap_dark_segment.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/pipeline_lib.sh"
for tool in dcraw exiftool python3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done
stripes() { python3 "$(dirname "$0")/lenscap_stripes.py" "$@"; }

"$mlvsynth" -o "$tmp/cap.MLV" --dual-iso --phase 2 --size 320x160 --frames 12 \
    --change-at 7 --change-shutter 10 >/dev/null || fail "mlvsynth cap"
"$mlvsynth" -o "$tmp/nodiso.MLV" --dual-iso --no-diso --phase 2 --size 320x160 --frames 12 \
    --change-at 7 --change-shutter 10 --guid 5 >/dev/null || fail "mlvsynth nodiso"
"$mlvsynth" -o "$tmp/dark.MLV" --dual-iso --exposure-ev -12 --size 320x160 --frames 6 \
    --guid 6 >/dev/null || fail "mlvsynth dark"
"$mlvsynth" -o "$tmp/plain.MLV" --content gradient --size 160x96 --frames 8 --change-at 4 \
    --change-shutter 10 --guid 7 >/dev/null || fail "mlvsynth plain"

# Sidecars: segment 7-11 dual with segment 0's phase and output mapping; ratio nominal with
# DISO, segment 0's levels without (no nominal ratio to fall back on).
run cap-an 0 -v analyze "$tmp/cap.MLV" -o "$tmp/cap.json" --threads 2
run nodiso-an 0 -v analyze "$tmp/nodiso.MLV" -o "$tmp/nodiso.json" --threads 1
python3 - "$tmp/cap.json" "$tmp/nodiso.json" <<'PY' || fail "dark segment levels"
import json, sys
def segs(p):
    return [s["levels"] for s in json.load(open(p))["segments"]]
same = ["bits", "in_black", "in_white", "out_black", "out_white", "out_scale"]
a, b = segs(sys.argv[1])
assert a["is_dual"] and b["is_dual"] and a["phase"] == 2 and b["phase"] == 2, (a, b)
assert a["ratio_source"] == 1 and b["ratio_source"] == 3 and b["ratio_ev"] == 4, b
assert all(a[k] == b[k] for k in same), [(k, a[k], b[k]) for k in same]
a, b = segs(sys.argv[2])
assert b["is_dual"] and b["phase"] == 2 and b["ratio_source"] in (1, 2), b
assert a == b, "without DISO the dark segment takes segment 0's levels"
PY
grep -q "frames 7-11: 0 of 5 sampled frames show the dual-ISO pattern.*phase 2, 4.00 EV, ratio nominal" \
    "$tmp/cap-an.err" || fail "cap: no INFO line for the dark segment ($(cat "$tmp/cap-an.err"))"
grep -q "frames 7-11: no dual-ISO levels of their own (.*); using those of frames 0-6" \
    "$tmp/nodiso-an.err" || fail "nodiso: no INFO line for the borrowed levels"

# Whole run against chunks split inside both segments (0-6, 7-11), other thread counts.
run cap-whole 0 convert "$tmp/cap.MLV" -o "$tmp/whole" --threads 2
run cap-c1 0 convert "$tmp/cap.MLV" -o "$tmp/chunks" --frames 0-3 --threads 1
run cap-c2 0 convert "$tmp/cap.MLV" -o "$tmp/chunks" --frames 4-9 --threads 3
run cap-c3 0 convert "$tmp/cap.MLV" -o "$tmp/chunks" --frames 10- --threads 1
same_tree "cap: whole vs chunks" "$tmp/whole" "$tmp/chunks"
run cap-sidecar 0 convert "$tmp/cap.MLV" -o "$tmp/sidecar" --levels "$tmp/cap.json"
same_tree "cap: pre-pass vs sidecar" "$tmp/whole" "$tmp/sidecar"

levels=$(exiftool -q -T -BlackLevel -WhiteLevel -BitsPerSample "$tmp"/whole/cap/*.dng | sort -u)
[ "$(echo "$levels" | wc -l)" -eq 1 ] || fail "cap: DNG levels differ across the clip: $levels"
[ "$(exiftool -q -T -FileName "$tmp"/whole/cap/*.dng | wc -l)" -eq 12 ] || fail "cap: not 12 DNGs"

# Striping of the dark segment: none now (within 4 standard errors + 0.1 DN); the same
# frames converted with pass-through levels for it (the old behaviour) show it, so the
# measure can tell.
dark=$(printf "$tmp/whole/cap/cap_%06d.dng " 7 8 9 10 11)
# shellcheck disable=SC2086
read -r gap se < <(stripes $dark)
python3 -c "import sys; g, s = map(float, sys.argv[1:]); sys.exit(g > 4 * s + 0.1)" "$gap" "$se" ||
    fail "cap: frames 7-11 keep a period-4 row striping: $gap DN (stderr $se)"
python3 - "$tmp/cap.json" "$tmp/pass.json" <<'PY' || fail "pass-through sidecar"
import json, sys
d = json.load(open(sys.argv[1]))
l = d["segments"][1]["levels"]
l.update(is_dual=False, ratio_source=0, ratio=1, ratio_ev=0, black_bright=l["black_dark"],
         white_bright=l["white_dark"], noise_bright=l["noise_dark"])
json.dump(d, open(sys.argv[2], "w"))
PY
run cap-pass 0 convert "$tmp/cap.MLV" -o "$tmp/pass" --frames 7- --levels "$tmp/pass.json"
# shellcheck disable=SC2086
read -r pgap pse < <(stripes ${dark//whole/pass})
python3 -c "import sys; g, s = map(float, sys.argv[1:]); sys.exit(g <= 4 * s + 0.1)" "$pgap" "$pse" ||
    fail "control: pass-through frames 7-11 show no striping ($pgap DN, stderr $pse)"
echo "striping of frames 7-11: $gap DN (stderr $se); passed through: $pgap DN (stderr $pse)"

# Sensor clip below the recorded white (RAWI white_level patched from 15283 to 16000): the
# lit segment measures the clip (15283) from its pile-up, the dark one sees nothing clip, with
# (-ev 0) or without (-ev 3) detection, and takes the measured whites: same DNG WhiteLevel.
for ev in 0 3; do
    "$mlvsynth" -o "$tmp/hot$ev.MLV" --dual-iso --exposure-ev $ev --size 320x160 --frames 12 \
        --change-at 7 --change-shutter 10 --guid 8 >/dev/null || fail "mlvsynth hot$ev"
    python3 - "$tmp/hot$ev.MLV" <<'PY' || fail "hot$ev: RAWI patch"
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
at = b.index(b"RAWI") + 52   # header 16 + xRes/yRes 4 + raw_info.white_level at 32
assert struct.unpack_from("<i", b, at)[0] == 15283
struct.pack_into("<i", b, at, 16000)
open(sys.argv[1], "wb").write(b)
PY
    run "hot$ev-an" 0 -v analyze "$tmp/hot$ev.MLV" -o "$tmp/hot$ev.json"
    python3 - "$tmp/hot$ev.json" <<'PY' || fail "hot$ev: whites not shared ($(cat "$tmp/hot$ev-an.err"))"
import json, sys
a, b = [s["levels"] for s in json.load(open(sys.argv[1]))["segments"]]
assert a["in_white"] == b["in_white"] == 16000 and a["white_dark"] == 15283, a
assert b["is_dual"] and b["ratio_source"] == 3, b
assert all(a[k] == b[k] for k in ["white_dark", "white_bright", "out_black", "out_white",
                                  "out_scale"]), (a, b)
PY
    grep -q "frames 7-11: nothing clipped in the samples; whites 15283/15283 as measured in frames 0-6" \
        "$tmp/hot$ev-an.err" || fail "hot$ev: no INFO line for the shared whites"
    run "hot$ev-conv" 0 convert "$tmp/hot$ev.MLV" -o "$tmp/hot$ev"
    levels=$(exiftool -q -T -BlackLevel -WhiteLevel -BitsPerSample "$tmp/hot$ev"/hot$ev/*.dng | sort -u)
    [ "$levels" = "$(printf '8192\t61132\t16')" ] ||
        fail "hot$ev: DNG levels differ across the clip or from 8192/61132/16: $levels"
done

# DISO says dual, nothing detected anywhere: the phase is unknown, pass-through and a warning.
run dark-an 0 analyze "$tmp/dark.MLV" -o "$tmp/dark.json"
grep -q "frames 0-5: the DISO block says dual ISO but no sampled frame of the clip shows the row pattern" \
    "$tmp/dark-an.err" || fail "dark: no warning ($(cat "$tmp/dark-an.err"))"
python3 -c "import json,sys; l=json.load(open(sys.argv[1]))['segments'][0]['levels']; sys.exit(l['is_dual'])" \
    "$tmp/dark.json" || fail "dark: treated as dual without a phase"

# Single ISO with a settings change: native, both segments single, no warning.
run plain-an 0 -v analyze "$tmp/plain.MLV" -o "$tmp/plain.json"
python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['segments']; sys.exit(len(s) != 2 or any(x['levels']['is_dual'] for x in s))" \
    "$tmp/plain.json" || fail "plain: not two single-ISO segments"
grep -q "warning" "$tmp/plain-an.err" && fail "plain: warned ($(cat "$tmp/plain-an.err"))"
grep -q "frames 4-7: single ISO, ratio none" "$tmp/plain-an.err" || fail "plain: no INFO line"
finish
