#!/bin/bash
# Focus-pixel priors through the real CLI (issue #11; doc/rawfix.md). mlvsynth records an
# 8-frame flat-field EOS M clip in 1080p (IDNT 0x80000331, LiveView buffer 1808x1190, the window centred in it)
# whose focus pixels follow the published mv1080 layout, written here from doc/rawfix.md's
# table (8x10, sites (0,0) (9,7) (5,3) (4,4), buffer rows 459-755, from column 72), and a twin
# clip of the same sensor and noise without them. `info --defects` reports the 8x10 lattice as
# the camera's known map, confirmed; convert repairs every site of it: against the twin
# (dcraw -D reads both DNGs), the residue at the sites is under 2 noise sigmas (measured
# 1.12) while the recorded offset was 2.5 (16.7 DN RMS, noise 6.6), and nothing else changes. A
# 100D clip in mv720 (buffer 1808x727: the priors are the 8x12 mv720 layout and the 8x10 of
# crop_rec) carrying the 12x6 pixels of its crop mode confirms neither: info says so; the 12x6
# pattern its pixels show is left alone (a still flat field shows no motion, so it could be
# the scene's own), and no sample changes.
# usage: rawfix_priors.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
need dcraw python3

geo=(--single-iso --camera-geometry --ob 0x0 --size 480x320 --frames 8 --scene flat)
mv1080=(--focus-layout 8x10:0,0/9,7/5,3/4,4 --focus-rows 459-755)
"$mlvsynth" -o "$tmp/p.MLV" "${geo[@]}" --camera eosm "${mv1080[@]}" >/dev/null ||
    fail "mlvsynth prior"
"$mlvsynth" -o "$tmp/c.MLV" "${geo[@]}" --camera eosm >/dev/null || fail "mlvsynth twin"
"$mlvsynth" -o "$tmp/m.MLV" "${geo[@]}" --camera 100d --lv-buffer 1808x727 \
    --focus-layout 12x6:4,0/1,11/0,6/5,5 >/dev/null || fail "mlvsynth mv720"

for c in p c m; do
    run "info-$c" 0 info "$tmp/$c.MLV" --defects --json
done
python3 - "$tmp" <<'PY' || fail "info --defects"
import json, sys
def seg(c):
    return json.load(open("%s/info-%s.out" % (sys.argv[1], c)))["raw_defects"][0]
p, c, m = seg("p"), seg("c"), seg("m")
print("EOS M mv1080:", p["lattice"], p["known_lattice"])
print("100D mv720:", m["lattice"], m["known_lattice"])
assert (p["lattice"]["period_x"], p["lattice"]["period_y"], p["lattice"]["classes"]) == \
    (8, 10, 4) and p["known_lattice"] == "confirmed", p
assert c["lattice"] is None and c["known_lattice"] == "not confirmed", c
# a still flat field shows no motion: its own 12x6 pattern may be the scene's, left alone
assert m["lattice"] is None and m["lattice_left_alone"] and \
    m["known_lattice"] == "not confirmed", m
PY
run info-text 0 info "$tmp/p.MLV" --defects
grep -q "focus pixels 8x10 lattice (the camera's known map, confirmed)" "$tmp/info-text.out" ||
    fail "info text: $(grep 'raw defects' "$tmp/info-text.out")"

only=(--no-bad-pixels --no-stripes)
run p-fix 0 convert "$tmp/p.MLV" -o "$tmp/pf" --frames 4 "${only[@]}"
run p-raw 0 convert "$tmp/p.MLV" -o "$tmp/pr" --frames 4 "${only[@]}" --no-focus-pixels
run c-raw 0 convert "$tmp/c.MLV" -o "$tmp/cr" --frames 4 "${only[@]}" --no-focus-pixels
run m-fix 0 convert "$tmp/m.MLV" -o "$tmp/mf" --frames 4 "${only[@]}"
run m-raw 0 convert "$tmp/m.MLV" -o "$tmp/mr" --frames 4 "${only[@]}" --no-focus-pixels
python3 - "$tmp" "$(dirname "$0")" <<'PY' || fail "repairs"
import json, math, subprocess, sys
t = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from focus_sites import truth_sites
def raw(d, c):
    b = subprocess.run(["dcraw", "-D", "-4", "-c", "%s/%s/%s/%s_000004.dng" % (t, d, c, c)],
                       check=True, capture_output=True).stdout
    _, w, h, _ = b.split(maxsplit=4)[:4]
    w, h = int(w), int(h)
    b = b[len(b) - 2 * w * h:]
    return w, h, [int.from_bytes(b[2 * i:2 * i + 2], "big") for i in range(w * h)]
def sites(c):
    return truth_sites("%s/%s.truth.json" % (t, c))

# EOS M: every site repaired against the twin without focus pixels; nothing else touched
w, h, fixed = raw("pf", "p")
_, _, rec = raw("pr", "p")
_, _, clean = raw("cr", "c")
s = sites("p")
inner = [(x, y) for x, y in s if 2 <= x < w - 2 and 2 <= y < h - 2]
# one sample's noise: of the clean frame's second differences along rows, /sqrt(1 + 1/2)
d = [clean[y * w + x] - (clean[y * w + x - 2] + clean[y * w + x + 2]) / 2
     for y in range(2, h - 2, 3) for x in range(2, w - 2, 3) if (x, y) not in s]
sigma = math.sqrt(sum(v * v for v in d) / len(d) / 1.5)
def rms(a):
    return math.sqrt(sum((a[y * w + x] - clean[y * w + x]) ** 2 for x, y in inner) / len(inner))
fix_rms, raw_rms = rms(fixed), rms(rec)
changed = {(i % w, i // w) for i in range(w * h) if fixed[i] != rec[i]}
print("EOS M: %d sites, noise %.2f DN, recorded offset RMS %.2f DN, residue RMS %.2f DN "
      "(%.2f sigma); %d samples changed, %d of them off the sites"
      % (len(s), sigma, raw_rms, fix_rms, fix_rms / sigma, len(changed), len(changed - s)))
assert len(s) > 6000, len(s)
assert raw_rms > 2.5 * sigma, (raw_rms, sigma)
assert fix_rms < 2 * sigma, (fix_rms, sigma)
assert not changed - s, sorted(changed - s)[:10]
assert len(changed) > 0.9 * len(s), len(changed)

# 100D mv720: the prior (8x12, sites (9,1) (8,2) (3,5) (2,6), buffer rows 86-669, columns
# from 72) is not used, nor the clip's own pattern (a still scene): nothing changes
w, h, fixed = raw("mf", "m")
_, _, rec = raw("mr", "m")
cam = json.load(open("%s/m.truth.json" % t))["camera"]
cx, cy = (cam["pan"][0] + 7) & ~7, cam["pan"][1] & ~1
prior = {(x, y) for y in range(max(0, 86 - cy), min(h, 670 - cy))
         for x in range(max(0, 72 - cx), w)
         if ((y + cy) % 12, (x + cx) % 8) in {(9, 1), (8, 2), (3, 5), (2, 6)}}
s = sites("m")
changed = {(i % w, i // w) for i in range(w * h) if fixed[i] != rec[i]}
print("100D: %d prior sites, %d of them simulated; %d samples changed, %d on the prior's "
      "other sites" % (len(prior), len(prior & s), len(changed), len(changed & (prior - s))))
assert len(prior - s) > 3000, len(prior - s)
assert not changed, sorted(changed)[:10]
PY
finish
