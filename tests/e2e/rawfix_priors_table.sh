#!/bin/bash
# Every body and mode of the focus-pixel table (issue #28; doc/rawfix.md "Focus-pixel layouts
# (priors)", written out here again from the doc, not from src/rawfix/priors.c): mlvsynth
# records a STATIC 16-frame clip of the textured benchmark scene (no --shift), 384x256, cut
# from that body's LiveView buffer of that mode, whose focus pixels follow the published
# layout; dual ISO and single ISO, 10, 12 and 14 bits in turn. `analyze` must take the
# camera's known map, confirmed, and its lattice (the sidecar) must hold at least 99.5 % of
# the truth's focus sites and no other sample; convert's focus repair changes samples of
# those sites only. Then: clips whose pixels lie 8 columns and 2, 4 or 6 rows off where VIDF
# records the window (--pan-error) get the lattice moved with them; a clip whose IDNT says
# EOS M but whose pixels carry no focus pixels gets no lattice, and convert leaves its
# samples as recorded (dcraw reads the DNGs); one whose pixels carry another mode's layout is
# not taken for this mode's. Under the sanitizers (MLVPIPE_SANITIZED) each layout is written
# for one of its bodies only.
# usage: rawfix_priors_table.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
need python3

mv720=8x12:9,1/8,2/3,5/2,6
mv1080=8x10:0,0/9,7/5,3/4,4
crop_a=24x60:53,5/49,11/48,6/46,12/34,0/31,23/23,17/19,11/18,18/16,12/4,0/1,23
crop_a_1059=24x60:53,13/49,19/48,14/46,20/34,8/31,7/23,1/19,19/18,2/16,20/4,8/1,7
crop_b=12x6:4,0/1,11/0,6/5,5
zoom_b_1332=12x6:4,0/1,11/0,6/5,5/4,8/1,7/0,2/5,1
# body buffer layout rows
table=(
    "eosm 1808x727 $mv720 290-465"     "650d 1808x727 $mv720 290-465"
    "700d 1808x727 $mv720 290-465"     "100d 1808x727 $mv720 86-669"
    "eosm2 1808x727 $mv720 86-669"
    "eosm 1808x727 $mv1080 219-515"    "650d 1808x727 $mv1080 219-515"
    "700d 1808x727 $mv1080 219-515"    "100d 1808x727 $mv1080 28-724"
    "eosm2 1808x727 $mv1080 28-724"
    "eosm 1808x1190 $mv1080 459-755"   "650d 1808x1190 $mv1080 459-755"
    "700d 1808x1190 $mv1080 459-755"   "100d 1808x1190 $mv1080 119-1095"
    "eosm2 1808x1190 $mv1080 119-1095"
    "eosm 1872x1060 $crop_a 121-1013"  "650d 1872x1060 $crop_a 121-1013"
    "700d 1872x1060 $crop_a 121-1013"  "100d 1872x1060 $crop_b 29-1057"
    "eosm2 1872x1060 $crop_b 29-1057"  "eosm 1872x1059 $crop_a_1059 121-1013"
    "eosm 2592x1108 $crop_a 31-1107"   "650d 2592x1108 $crop_a 31-1107"
    "700d 2592x1108 $crop_a 31-1107"   "100d 2592x1108 $crop_b 28-1107"
    "eosm2 2592x1108 $crop_b 28-1107"  "100d 2592x1332 $zoom_b_1332 28-1331"
)
isos=(--dual-iso --single-iso)
bits=(10 12 14)
n=0
declare -A seen
for entry in "${table[@]}"; do
    read -r body buffer layout rows <<<"$entry"
    # under the sanitizers (which watch code paths, the same for every body of a layout) each
    # layout once: CI's time is short
    name=c$n
    n=$((n + 1))
    [ -n "${MLVPIPE_SANITIZED:-}" ] && [ -n "${seen[$buffer $layout $rows]:-}" ] && continue
    seen[$buffer $layout $rows]=1
    "$mlvsynth" -o "$tmp/$name.MLV" "${isos[$((n % 2))]}" --bits "${bits[$((n % 3))]}" \
        --camera-geometry --ob 0x0 --size 384x256 --frames 16 --camera "$body" \
        --lv-buffer "$buffer" --focus-layout "$layout" --focus-rows "$rows" \
        --seed "$n" >/dev/null || fail "mlvsynth $entry"
    echo "$name $entry" >>"$tmp/entries"
done
# moved windows: the recorder's rounding (8 columns, 2-6 rows) the table's alignment tries
"$mlvsynth" -o "$tmp/p0.MLV" --dual-iso --bits 14 --camera-geometry --ob 0x0 --size 384x256 \
    --frames 16 --camera eosm --focus-layout "$mv1080" --focus-rows 459-755 \
    --pan-error 8,4 >/dev/null || fail "mlvsynth pan 0"
echo "p0 eosm 1808x1190 pan-error 8,4" >>"$tmp/entries"
"$mlvsynth" -o "$tmp/p1.MLV" --single-iso --bits 12 --camera-geometry --ob 0x0 --size 384x256 \
    --frames 16 --camera 100d --lv-buffer 1872x1060 --focus-layout "$crop_b" \
    --focus-rows 29-1057 --pan-error -8,-6 >/dev/null || fail "mlvsynth pan 1"
echo "p1 100d 1872x1060 pan-error -8,-6" >>"$tmp/entries"
"$mlvsynth" -o "$tmp/p2.MLV" --single-iso --bits 14 --camera-geometry --ob 0x0 --size 384x256 \
    --frames 16 --camera 650d --lv-buffer 2592x1108 --focus-layout "$crop_a" \
    --focus-rows 31-1107 --pan-error 8,2 >/dev/null || fail "mlvsynth pan 2"
echo "p2 650d 2592x1108 pan-error 8,2" >>"$tmp/entries"
# an EOS M clip without focus pixels, and a 700D mv1080 clip carrying the mv720 layout
"$mlvsynth" -o "$tmp/none.MLV" --dual-iso --bits 14 --camera-geometry --ob 0x0 --size 384x256 \
    --frames 16 --camera eosm >/dev/null || fail "mlvsynth none"
"$mlvsynth" -o "$tmp/other.MLV" --single-iso --bits 14 --camera-geometry --ob 0x0 \
    --size 384x256 --frames 16 --camera 700d --focus-layout "$mv720" \
    --focus-rows 290-1100 >/dev/null || fail "mlvsynth other"

# the sidecar holds the lattice; info says where it came from (for a few: each runs the
# pre-pass again)
while read -r name _; do
    run "analyze-$name" 0 analyze "$tmp/$name.MLV" -o "$tmp/$name.levels"
done <"$tmp/entries"
for name in none other; do
    run "analyze-$name" 0 analyze "$tmp/$name.MLV" -o "$tmp/$name.levels"
done
for name in c0 c20 c26 p0 p1 none other; do
    run "info-$name" 0 info "$tmp/$name.MLV" --defects --json
done

python3 - "$tmp" "$(dirname "$0")" <<'PY' || fail "the table's lattices"
import json, sys
t = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import focus_sites
def truth_sites(c):
    return focus_sites.truth_sites("%s/%s.truth.json" % (t, c))
def map_sites(c):
    return focus_sites.map_sites("%s/%s.levels" % (t, c))
def known(c):
    try:
        return json.load(open("%s/info-%s.out" % (t, c)))["raw_defects"][0]["known_lattice"]
    except FileNotFoundError:
        return None     # not asked
bad = 0
for line in open("%s/entries" % t):
    c, entry = line.split(" ", 1)
    truth, found = truth_sites(c), map_sites(c)
    recall = len(truth & found) / len(truth)
    print("%-4s %-45s %5d sites, recall %.2f %%, %d others, known map %s"
          % (c, entry.strip(), len(truth), 100 * recall, len(found - truth), known(c)))
    if recall < 0.995 or found - truth or known(c) not in ("confirmed", None):
        bad += 1
# no focus pixels: no lattice; the mv720 layout in a mv1080 buffer: not the table's mv1080
# lattice (the clip's own search may find its own, none of it off the simulated sites)
none, other = map_sites("none"), map_sites("other")
print("none: %d lattice sites, known map %s; other: %d lattice sites (%d off the simulated "
      "ones), known map %s" % (len(none), known("none"), len(other),
                               len(other - truth_sites("other")), known("other")))
if none or other - truth_sites("other") or known("none") != "not confirmed" or \
        known("other") != "not confirmed":
    bad += 1
sys.exit(bad)
PY

# What the focus repair changes (dcraw reads the DNGs of frame 0 converted with only the focus
# fix and with no fix): in three single-ISO clips of other layouts (8x12 at 12 bits; the EOS
# M's 1059-row 24x60 and the 100D's 8-class 12x6 at 10 bits) only samples of the truth's
# sites, and most of them (measured 96 %, 86 %, 86 %: a repair may land on the recorded value,
# more often at 10 bits where the offset is a DN or two, and in clipped highlights); in the
# clip without focus pixels none.
if command -v dcraw >/dev/null; then
    for c in c0 c20 c26 none; do
        run "$c-fix" 0 convert "$tmp/$c.MLV" -o "$tmp/$c-fix" --frames 0 --no-bad-pixels \
            --no-stripes
        run "$c-raw" 0 convert "$tmp/$c.MLV" -o "$tmp/$c-raw" --frames 0 --no-bad-pixels \
            --no-stripes --no-focus-pixels
    done
    python3 - "$tmp" "$(dirname "$0")" <<'PY' || fail "what the focus repair changes"
import subprocess, sys
t = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from focus_sites import truth_sites
def raw(c, kind):
    b = subprocess.run(["dcraw", "-D", "-4", "-c", "%s/%s-%s/%s/%s_000000.dng" % (t, c, kind, c, c)],
                       check=True, capture_output=True).stdout
    _, w, h, _ = b.split(maxsplit=4)[:4]
    w, h = int(w), int(h)
    return w, b[len(b) - 2 * w * h:]
bad = 0
for c in ("c0", "c20", "c26", "none"):
    w, fixed = raw(c, "fix")
    _, rec = raw(c, "raw")
    changed = {(i // 2 % w, i // 2 // w) for i in range(0, len(fixed), 2)
               if fixed[i:i + 2] != rec[i:i + 2]}
    sites = truth_sites("%s/%s.truth.json" % (t, c)) if c != "none" else set()
    print("%s: %d samples changed, %d of them off the %d sites" % (c, len(changed),
                                                                  len(changed - sites), len(sites)))
    bad += bool(changed - sites) or len(changed) < 0.75 * len(sites)
sys.exit(bad)
PY
fi
finish
