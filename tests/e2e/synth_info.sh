#!/usr/bin/env bash
# mlvsynth clips with known truth through `mlvpipe info --json`: dual-ISO clips (every row
# phase, whole and fractional EV gaps, 12 and 14 bit, with and without DISO, LJ92) are
# detected as dual ISO with the true phase and an EV ratio within 0.1 of the simulated gap;
# single-ISO clips are not; the DISO tag is decoded to the recovery ISO.
# usage: synth_info.sh MLVSYNTH MLVPIPE
set -euo pipefail
mlvsynth=$1
mlvpipe=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

check() {   # check NAME MLVSYNTH-OPTIONS...
    local name=$1
    shift
    "$mlvsynth" -o "$dir/$name" "$@"
    "$mlvpipe" info --json "$dir/$name" > "$dir/$name.json"
    python3 - "$dir/$name" <<'PY'
import json, os, sys
clip = sys.argv[1]
info = json.load(open(clip + ".json"))
truth = json.load(open(os.path.splitext(clip)[0] + ".truth.json"))
px = info["dual_iso"]["pixels"]
name = os.path.basename(clip)
if truth["content"] != "dualiso":
    if px["dual_frames"]:
        sys.exit("%s: single-ISO clip detected as dual ISO: %s" % (name, px))
    print("%s: single ISO, as generated" % name)
    sys.exit(0)
d = truth["dual_iso"]
if px["dual_frames"] != px["frames_checked"] or px["phase"] != d["phase"]:
    sys.exit("%s: detected %s, generated phase %d" % (name, px, d["phase"]))
if px["ev"] is None or abs(px["ev"] - d["ev_gap"]) > 0.1:
    sys.exit("%s: EV %s, generated %.3f" % (name, px["ev"], d["ev_gap"]))
tag = info["dual_iso"]["tag"]
if d["diso"] is None:
    if tag is not None:
        sys.exit("%s: DISO reported but none written" % name)
elif tag is None or tag["iso_value"] != d["diso"]["iso_value"] or \
        tag["recovery_iso"] != d["iso_high_nominal"]:
    sys.exit("%s: DISO %s, written %s (ISO %d)" % (name, tag, d["diso"], d["iso_high_nominal"]))
print("%s: phase %d, EV %.3f (generated %.3f)" % (name, px["phase"], px["ev"], d["ev_gap"]))
PY
}

common=(--dual-iso --size 320x180 --ob 16x8 --frames 2)
check p0.MLV "${common[@]}"
check p1.MLV "${common[@]}" --phase 1 --iso-high 800
check p2.MLV "${common[@]}" --phase 2 --iso-high 200 --bits 12
check p3.MLV "${common[@]}" --phase 3 --iso-high 6400 --seed 5
check gap.MLV "${common[@]}" --ev-gap 2.6 --no-diso --scene ramp
check lj92.MLV "${common[@]}" --phase 1 --compress lj92 --black-offset 2
check single.MLV --size 320x180 --frames 2
check single_grad.MLV --size 320x180 --frames 2 --content gradient
