#!/bin/bash
# The error a convert leaves at the focus pixels of a STATIC clip and at their 8 neighbours
# (issue #28's measure; doc/rawfix.md "Focus-site error on a static clip"): mlvsynth records a
# static clip of the textured benchmark scene from a camera's LiveView buffer whose focus
# pixels follow that body's published layout (with --full: also 200 hot and 200 cold pixels
# and 0.5 % column gains), and a twin of the same scene and noise without any defect. Both are
# converted to DNG (the twin with every fix off; dual ISO is reconstructed in both); dcraw -D
# reads them. Per site and frame the error is the difference to the twin over the twin's
# temporal noise at that pixel (its spread over the frames: the scene is still); printed: the
# 99th percentile and the RMS at the sites, and at the 8 pixels around each; and the floor:
# the same repair made at the twin's clean samples (its focus fix given the defect clip's map
# through its levels sidecar, every other fix off), which no better map can go below. With
# --full also the hot and the cold pixels and their 8 neighbours, and the column (stripe)
# residue: per row class and column phase (x mod 8) the repaired clip's mean over the twin's.
# usage: bench_focus_sites.sh MLVPIPE MLVSYNTH [--full] [--single-iso] [--camera eosm|100d]
#        [--size WxH] [--frames N]
set -eu
mlvpipe=$1
mlvsynth=$2
shift 2
full=() iso=--dual-iso camera=100d size=1728x972 frames=16 borrow=0 pan_error=0,0
while [ $# -gt 0 ]; do
    case $1 in
    --full) full=(--hot 200 --cold 200 --stripes 0.005) ;;
    --single-iso) iso=--single-iso ;;
    --borrow) borrow=1 ;;
    --borrow-pan-error) borrow=1; pan_error=$2; shift ;;
    --camera) camera=$2; shift ;;
    --size) size=$2; shift ;;
    --frames) frames=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
case $camera in
eosm) rows=459-755 ;;
100d) rows=119-1095 ;;
*) echo "--camera eosm or 100d" >&2; exit 2 ;;
esac
tmp=$(mktemp -d /tmp/bench-focus.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
sensor=("$iso" --camera-geometry --ob 0x0 --camera "$camera" --size "$size" --frames "$frames"
        --sensor-seed 7)
common=("${sensor[@]}" --seed 3)
"$mlvsynth" -o "$tmp/d.MLV" "${common[@]}" --focus-layout 8x10:0,0/9,7/5,3/4,4 \
    --focus-rows "$rows" "${full[@]}" >/dev/null
"$mlvsynth" -o "$tmp/c.MLV" "${common[@]}" >/dev/null
"$mlvpipe" info "$tmp/d.MLV" --defects | grep "raw defects"
from=()
if [ "$borrow" = 1 ]; then
    "$mlvsynth" -o "$tmp/m.MLV" "${sensor[@]}" --seed 4 --shift 1.5 \
        --focus-layout 8x10:0,0/9,7/5,3/4,4 --focus-rows "$rows" "${full[@]}" \
        --pan-error "$pan_error" >/dev/null
    from=(--defects-from "$tmp/m.MLV")
fi
/usr/bin/time -f "convert: %U s user CPU" "$mlvpipe" convert "$tmp/d.MLV" -o "$tmp/d" -q \
    "${from[@]}"
"$mlvpipe" convert "$tmp/c.MLV" -o "$tmp/c" -q --no-focus-pixels --no-bad-pixels --no-stripes
# the floor takes the defect clip's sidecar as it is: --defects-from would leave the lattice
# alone, since the twin's own frames show its sites clean (doc/rawfix.md, "never worse")
"$mlvpipe" analyze "$tmp/d.MLV" -o "$tmp/d.levels" -q
"$mlvpipe" convert "$tmp/c.MLV" -o "$tmp/f" -q --no-bad-pixels --no-stripes \
    --levels "$tmp/d.levels" 2>/dev/null
python3 - "$tmp" "$frames" <<'PY'
import array, json, math, subprocess, sys
t, frames = sys.argv[1], int(sys.argv[2])
def raw(out, clip, k):
    b = subprocess.run(["dcraw", "-D", "-4", "-c", "%s/%s/%s/%s_%06d.dng" % (t, out, clip, clip, k)],
                       check=True, capture_output=True).stdout
    _, w, h, _ = b.split(maxsplit=4)[:4]
    w, h = int(w), int(h)
    a = array.array("H", b[len(b) - 2 * w * h:])
    a.byteswap()
    return w, h, a
defects = json.load(open("%s/d.truth.json" % t))["dual_iso"]["defects"]
f = defects["focus"]
x0, y0, x1, y1 = f["box"]
cls = {tuple(k) for k in f["classes"]}
w, h, _ = raw("c", "c", 0)
sites = [(x, y) for y in range(max(y0, 2), min(y1, h - 2)) for x in range(max(x0, 2), min(x1, w - 2))
         if (x % f["period_x"], y % f["period_y"]) in cls]
site_set = set(sites)
ring = sorted({(x + dx, y + dy) for x, y in sites for dx in (-1, 0, 1) for dy in (-1, 0, 1)
               if (dx or dy) and (x + dx, y + dy) not in site_set})
clean = [raw("c", "c", k)[2] for k in range(frames)]
def errors(points, fixed):
    e = []
    for x, y in points:
        i = y * w + x
        v = [clean[k][i] for k in range(frames)]
        m = sum(v) / frames
        sd = math.sqrt(sum((a - m) ** 2 for a in v) / (frames - 1))
        if sd > 0:
            e += [abs(fixed[k][i] - v[k]) / sd for k in range(frames)]
    e.sort()
    return e[int(0.99 * (len(e) - 1))], math.sqrt(sum(a * a for a in e) / len(e))
# with --full: the hot and the cold pixels and their 8 neighbours (not focus sites)
def around(points):
    own = set(points)
    return sorted({(x + dx, y + dy) for x, y in points for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                   if (dx or dy) and (x + dx, y + dy) not in own | site_set
                   and 0 <= x + dx < w and 0 <= y + dy < h})
pixels = defects.get("pixels") or []
hot = [(x, y) for x, y, kind in pixels if kind.startswith("hot")]
cold = [(x, y) for x, y, kind in pixels if not kind.startswith("hot")]
groups = [("focus sites", sites), ("their 8 neighbours", ring)]
if pixels:
    groups += [("hot pixels", hot), ("their 8 neighbours", around(hot)),
               ("cold pixels", cold), ("their 8 neighbours", around(cold))]
defect_set = site_set | set(hot) | set(cold)
for out, clip, what in ("d", "d", "the defect clip"), ("f", "c", "floor: the twin repaired there"):
    fixed = [raw(out, clip, k)[2] for k in range(frames)]
    for name, points in groups[:2] if what.startswith("floor") else groups:
        p99, rms = errors(points, fixed)
        print("%s, %s (%d): error p99 %.2f, RMS %.2f temporal-noise sigmas"
              % (what, name, len(points), p99, rms))
    if what.startswith("floor") or not pixels:
        continue
    # column (stripe) residue: per row class (y mod 4) and column phase (x mod 8), the mean of
    # the repaired clip over the twin's (the same scene and noise), the defects left out; the
    # largest departure from its row class's mean, in %
    num = [[0.0] * 8 for _ in range(4)]
    den = [[0.0] * 8 for _ in range(4)]
    for k in range(frames):
        for y in range(h):
            for c in range(8):
                num[y % 4][c] += sum(fixed[k][y * w + c:(y + 1) * w:8])
                den[y % 4][c] += sum(clean[k][y * w + c:(y + 1) * w:8])
        for x, y in defect_set:
            if 0 <= x < w and 0 <= y < h:
                num[y % 4][x % 8] -= fixed[k][y * w + x]
                den[y % 4][x % 8] -= clean[k][y * w + x]
    worst = 0
    for r in range(4):
        for p in range(2):   # the two colours of the row
            ratios = [num[r][c] / den[r][c] for c in range(p, 8, 2) if den[r][c] > 0]
            mean = sum(ratios) / len(ratios)
            worst = max([worst] + [abs(q / mean - 1) for q in ratios])
    print("the defect clip, column residue: %.3f %% (largest of 4 row classes x 8 columns)"
          % (100 * worst))
PY
