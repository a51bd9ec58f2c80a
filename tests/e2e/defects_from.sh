#!/bin/bash
# --defects-from through the real CLI (issue #11; doc/rawfix.md "Borrowing a map"). mlvsynth
# clips of one sensor (the same --sensor-seed: the same hot, cold and focus pixels) with other
# scenes: a moving dual-ISO clip, whose map is clean, a lens-cap clip, and a still one, whose
# still detail the search takes for defects. Borrowing the moving clip's map gives the still
# clip exactly those sites, hence no false one against the truth, and the lens-cap clip's
# gives every simulated hot and cold pixel; convert and analyze + --levels give the same
# bytes at 1 and 2 threads, and two chunks those of one run. A 4-frame single-ISO clip, too
# short for a map of its own, gets its dead pixels repaired as dcraw reads them. Two clips of
# one 5D Mark III buffer whose windows start in different places (VIDF cropPos): the
# borrowed focus-pixel lattice lands on the classes the clip shows itself. Refused: another
# camera model, another LiveView buffer, a source too short for a map (exit 3, naming the
# file), --levels with it (exit 2); plan hands it to analyze only. A still EOS M clip whose
# pixels confirm the camera's known focus-pixel map keeps that lattice when the borrowed one
# disagrees (a moving clip of the same body whose window was recorded 2 rows off): its focus
# sites are repaired exactly as without --defects-from. Never worse: a clean clip of another
# sensor leaves the lens cap's sites it shows in line with their neighbours as recorded, one
# of the same sensor gets all of them repaired.
# usage: defects_from.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
need dcraw python3

geo=(--size 480x272 --defects --sensor-seed 7)
"$mlvsynth" -o "$tmp/mov.MLV" --dual-iso "${geo[@]}" --frames 16 --shift 1.5 --seed 3 \
    >/dev/null || fail "mlvsynth moving"
"$mlvsynth" -o "$tmp/still.MLV" --dual-iso "${geo[@]}" --frames 16 --illum-sigma 0.3 --seed 4 \
    >/dev/null || fail "mlvsynth still"
"$mlvsynth" -o "$tmp/cap.MLV" --dual-iso "${geo[@]}" --frames 16 --lens-cap --seed 9 >/dev/null ||
    fail "mlvsynth lens cap"
"$mlvsynth" -o "$tmp/short.MLV" --single-iso "${geo[@]}" --frames 4 --seed 5 >/dev/null ||
    fail "mlvsynth short"

# the still clip: its own map against the borrowed one, both against the truth
run mov-levels 0 analyze "$tmp/mov.MLV" -o "$tmp/mov.json"
run own-levels 0 analyze "$tmp/still.MLV" -o "$tmp/own.json"
run borrowed-levels 0 analyze "$tmp/still.MLV" -o "$tmp/borrowed.json" --defects-from "$tmp/mov.MLV"
run cap-levels 0 analyze "$tmp/still.MLV" -o "$tmp/cap.json" --defects-from "$tmp/cap.MLV"
python3 - "$tmp/still.truth.json" "$tmp/mov.json" "$tmp/own.json" "$tmp/borrowed.json" \
    "$tmp/cap.json" <<'PY' ||
import json, sys
truth = {(x, y) for x, y, k in json.load(open(sys.argv[1]))["dual_iso"]["defects"]["pixels"]}
def fix(path):
    return json.load(open(path))["segments"][0]["rawfix"]
def lattice(m):
    l = dict(m["lattice"])
    c = l.pop("classes")
    return l, sorted(zip(c[0::2], c[1::2]))
def sites(m):
    p = m["pixels"]
    return {(p[i], p[i + 1]) for i in range(0, len(p), 2)}
mov, own, got, cap = (fix(p) for p in sys.argv[2:6])
for name, m in ("moving", mov), ("still, own", own), ("still, borrowed", got), \
        ("still, from the lens cap", cap):
    s = sites(m)
    print(f"{name}: {len(s & truth)} true sites of {len(truth)}, {len(s - truth)} false")
assert sites(got) == sites(mov), "the borrowed sites are not the moving clip's"
assert lattice(got) == lattice(mov), (got["lattice"], mov["lattice"])
assert got["stripe_gain"] == own["stripe_gain"], "the stripe gains are not the clip's own"
# the moving clip's map holds one false site since session 11 (the cluster rule kept it out
# while weaker sites stood around it): a sample steady for all 16 frames near the right edge
assert len(sites(got) - truth) <= 1 and len(sites(got) & truth) >= 0.9 * len(truth)
# in the dark every hot, cold and focus pixel stands off the black level: all of them
assert sites(cap) == truth, (len(sites(cap) & truth), len(sites(cap) - truth))
assert lattice(cap) == lattice(mov), (cap["lattice"], mov["lattice"])
PY
    fail "still clip: borrowed map"
run still-own 0 convert "$tmp/still.MLV" -o "$tmp/own.md5" --to md5
run still-t1 0 convert "$tmp/still.MLV" -o "$tmp/t1.md5" --to md5 --threads 1 -v \
    --defects-from "$tmp/mov.MLV"
run still-t2 0 convert "$tmp/still.MLV" -o "$tmp/t2.md5" --to md5 --threads 2 \
    --defects-from "$tmp/mov.MLV"
run still-side 0 convert "$tmp/still.MLV" -o "$tmp/side.md5" --to md5 --levels "$tmp/borrowed.json"
run still-a 0 convert "$tmp/still.MLV" -o "$tmp/a.md5" --to md5 --frames 0-7 \
    --defects-from "$tmp/mov.MLV"
run still-b 0 convert "$tmp/still.MLV" -o "$tmp/b.md5" --to md5 --frames 8-15 \
    --defects-from "$tmp/mov.MLV"
cmp -s "$tmp/t1.md5" "$tmp/t2.md5" || fail "1 and 2 threads differ"
cat "$tmp/a.md5" "$tmp/b.md5" | cmp -s - "$tmp/t1.md5" || fail "two chunks differ from one run"
cmp -s "$tmp/t1.md5" "$tmp/side.md5" || fail "analyze --defects-from + --levels differs"
! cmp -s "$tmp/t1.md5" "$tmp/own.md5" || fail "--defects-from changed nothing"
grep -q "raw defects from $tmp/mov.MLV: .* hot/cold pixels, lattice 12x10 (the clip's own: " \
    "$tmp/still-t1.err" || fail "no log line: $(head -c 300 "$tmp/still-t1.err")"

# a clip too short for a map of its own: info says so; dead pixels repaired with the borrowed one
run short-info 0 info "$tmp/short.MLV" --defects
grep -q "(4 sampled): too few for the search (8 needed; convert --defects-from CLIP" \
    "$tmp/short-info.out" || fail "info: $(grep 'raw defects' "$tmp/short-info.out")"
run short-own 0 convert "$tmp/short.MLV" -o "$tmp/short-own" --frames 2
run short 0 convert "$tmp/short.MLV" -o "$tmp/short" --frames 2 --defects-from "$tmp/mov.MLV"
dcraw -D -4 -c "$tmp/short/short/short_000002.dng" > "$tmp/fixed.pgm" || fail "dcraw fixed"
dcraw -D -4 -c "$tmp/short-own/short/short_000002.dng" > "$tmp/raw.pgm" || fail "dcraw raw"
python3 "$(dirname "$0")/dead_pixels.py" "$tmp/short.truth.json" "$tmp/fixed.pgm" "$tmp/raw.pgm" 90 ||
    fail "short clip: dead pixels"

# never worse (issue #28): a borrowed site this clip shows in line with its neighbours stays as
# recorded. The lens cap of sensor 7 lends its 400 hot and cold pixels and its 12x10 lattice to
# a clean flat clip of another sensor (they are clean there: nearly all left as recorded,
# nothing changed off them, the lattice not taken) and to a flat clip of sensor 7 (every one
# shows there: all repaired, the lattice's sites too). Single ISO, so that a DNG sample is the
# repaired sample itself.
one=(--single-iso --size 480x272 --frames 16 --scene flat --seed 4)
"$mlvsynth" -o "$tmp/scap.MLV" --single-iso --size 480x272 --sensor-seed 7 --defects \
    --frames 16 --lens-cap --seed 9 >/dev/null || fail "mlvsynth single lens cap"
"$mlvsynth" -o "$tmp/fother.MLV" "${one[@]}" >/dev/null || fail "mlvsynth clean flat"
"$mlvsynth" -o "$tmp/fsame.MLV" "${one[@]}" --sensor-seed 7 --defects >/dev/null ||
    fail "mlvsynth flat with defects"
for c in fother fsame; do
    run "$c-lent" 0 convert "$tmp/$c.MLV" -o "$tmp/$c-lent" --no-stripes --frames 0-0 -v \
        --defects-from "$tmp/scap.MLV"
    run "$c-off" 0 convert "$tmp/$c.MLV" -o "$tmp/$c-off" --no-stripes --frames 0-0 \
        --no-bad-pixels --no-focus-pixels
    dcraw -D -4 -c "$tmp/$c-lent/$c/${c}_000000.dng" >"$tmp/$c-lent.pgm" || fail "dcraw $c"
    dcraw -D -4 -c "$tmp/$c-off/$c/${c}_000000.dng" >"$tmp/$c-off.pgm" || fail "dcraw $c off"
done
python3 - "$tmp" <<'PY' || fail "a borrowed site the clip shows clean was repaired"
import json, re, sys
t = sys.argv[1]
def pgm(path):
    b = open(path, "rb").read()
    head = b.split(b"\n", 3)
    w, h = map(int, head[1].split())
    return w, [int.from_bytes(head[3][2 * i:2 * i + 2], "big") for i in range(w * h)]
truth = json.load(open(t + "/scap.truth.json"))["dual_iso"]
for c, want_left, lattice in ("fother", (0.95, 1.0), "none"), ("fsame", (0, 0), "12x10"):
    w, lent = pgm("%s/%s-lent.pgm" % (t, c))
    _, off = pgm("%s/%s-off.pgm" % (t, c))
    left, top = (truth["ob_left"], truth["ob_top"]) if w == truth["active_width"] else (0, 0)
    sites = {(x - left, y - top) for x, y, k in truth["defects"]["pixels"]}
    # the lattice's sites: the pairs at (x, y), (x, y + 1) of each 12x10 cell of the active
    # area (mlvsynth --defects), and its first class on the last row, where no pair fits
    f, ol, ot, ah = truth["defects"]["focus"], truth["ob_left"], truth["ob_top"], \
        truth["active_height"]
    focus = {(x + ol - left, y + m + ot - top) for y in range(f["y"], ah, f["period_y"])
             for x in range(f["x"], truth["active_width"], f["period_x"]) for m in (0, 1)
             if y + m < ah}
    changed = {(i % w, i // w) for i, (a, b) in enumerate(zip(lent, off)) if a != b}
    log = open("%s/%s-lent.err" % (t, c)).read()
    kept = int(re.search(r"(\d+) of its sites left as recorded", log).group(1))
    got = re.search(r"hot/cold pixels, lattice (\S+) ", log).group(1)
    print("%s: %d of %d borrowed sites left as recorded, lattice %s; %d samples changed, %d on "
          "the %d focus sites, %d off both" % (c, kept, len(sites), got, len(changed),
          len(changed & focus), len(focus), len(changed - sites - focus)))
    assert got == lattice, got
    assert not changed - sites - focus, sorted(changed - sites - focus)[:5]
    assert want_left[0] * len(sites) <= kept <= want_left[1] * len(sites), kept
    # repaired: every site not left as recorded (a repair may give a site its own value back)
    assert len(sites) - kept - 5 <= len(changed & sites) <= len(sites) - kept, len(changed)
    assert len(changed & focus) >= (0.9 * len(focus) if lattice != "none" else 0)
    assert lattice != "none" or not changed & focus
PY
# windows at different places in one 5D Mark III buffer: the lattice moves with them (the big
# clip is a still flat field: as a reference its steady lattice is taken)
lay=(--single-iso --camera-geometry --ob 0x0 --frames 8 --scene flat --focus-layout 10x12:2,4/7,1)
"$mlvsynth" -o "$tmp/big.MLV" "${lay[@]}" --size 640x400 >/dev/null || fail "mlvsynth big"
# the small clip's scene moves, so that it shows its own lattice (a still one leaves it alone)
"$mlvsynth" -o "$tmp/small.MLV" "${lay[@]}" --size 416x260 --seed 2 --scene benchmark \
    --shift 1.5 >/dev/null || fail "mlvsynth small"
run small-own 0 analyze "$tmp/small.MLV" -o "$tmp/small-own.json"
run small-moved 0 analyze "$tmp/small.MLV" -o "$tmp/small-moved.json" \
    --defects-from "$tmp/big.MLV"
python3 - "$tmp/small-own.json" "$tmp/small-moved.json" <<'PY' || fail "moved lattice"
import json, sys
own, got = (json.load(open(p))["segments"][0]["rawfix"]["lattice"] for p in sys.argv[1:])
assert own and got, (own, got)
def classes(l):
    c = l["classes"]
    return (l["period_x"], l["period_y"], sorted(zip(c[0::2], c[1::2])))
print("own", classes(own), "borrowed", classes(got))
assert classes(own) == classes(got)
PY

# refusals
"$mlvsynth" -o "$tmp/other-size.MLV" --dual-iso --size 640x388 --defects --frames 8 >/dev/null ||
    fail "mlvsynth other size"
"$mlvsynth" -o "$tmp/eosm.MLV" --dual-iso "${geo[@]}" --frames 8 --camera eosm >/dev/null ||
    fail "mlvsynth eosm"
run size 3 convert "$tmp/still.MLV" -o "$tmp/x.md5" --to md5 --defects-from "$tmp/other-size.MLV"
grep -q "other-size.MLV: no segment with a defect map was recorded in the clip's LiveView buffer" \
    "$tmp/size.err" || fail "size: $(cat "$tmp/size.err")"
run camera 3 convert "$tmp/still.MLV" -o "$tmp/x.md5" --to md5 --defects-from "$tmp/eosm.MLV"
grep -q "eosm.MLV: shot on a .*, the clip .*still.MLV on a " "$tmp/camera.err" ||
    fail "camera: $(cat "$tmp/camera.err")"
run too-short 3 convert "$tmp/still.MLV" -o "$tmp/x.md5" --to md5 --defects-from "$tmp/short.MLV"
grep -q -- "--defects-from .*short.MLV: no defect map to borrow (4 frames" "$tmp/too-short.err" ||
    fail "too short: $(cat "$tmp/too-short.err")"
rm -f "$tmp/x.md5"
run with-levels 2 convert "$tmp/still.MLV" -o "$tmp/x.md5" --to md5 --levels "$tmp/own.json" \
    --defects-from "$tmp/mov.MLV"
[ ! -e "$tmp/x.md5" ] || fail "a refused run wrote its output"

# the table's confirmed lattice wins over a borrowed one that disagrees (issue #28)
eosm=(--single-iso --camera-geometry --ob 0x0 --size 384x256 --frames 16 --camera eosm
      --focus-layout 8x10:0,0/9,7/5,3/4,4 --focus-rows 459-755 --sensor-seed 7)
"$mlvsynth" -o "$tmp/tstill.MLV" "${eosm[@]}" --seed 11 >/dev/null || fail "mlvsynth tstill"
"$mlvsynth" -o "$tmp/tmov.MLV" "${eosm[@]}" --seed 12 --shift 1.5 --pan-error 0,2 >/dev/null ||
    fail "mlvsynth tmov"
run tmov-levels 0 analyze "$tmp/tmov.MLV" -o "$tmp/tmov.json"
run tstill-levels 0 analyze "$tmp/tstill.MLV" -o "$tmp/tstill.json"
run tborrow-levels 0 analyze "$tmp/tstill.MLV" -o "$tmp/tborrow.json" --defects-from "$tmp/tmov.MLV"
python3 - "$tmp" <<'PY' || fail "the confirmed lattice against a borrowed one"
import json, sys
def lattice(name):
    return json.load(open("%s/%s.json" % (sys.argv[1], name)))["segments"][0]["rawfix"]["lattice"]
own, mov, got = lattice("tstill"), lattice("tmov"), lattice("tborrow")
print("still, own:", own, "\nmoving (window recorded 2 rows off):", mov, "\nborrowed:", got)
assert own["classes"] != mov["classes"], "the borrowed lattice does not disagree"
assert got == own, got
PY
only=(--no-bad-pixels --no-stripes --frames 0-1)
run tborrow-dng 0 convert "$tmp/tstill.MLV" -o "$tmp/tb" "${only[@]}" --defects-from "$tmp/tmov.MLV"
run town-dng 0 convert "$tmp/tstill.MLV" -o "$tmp/to" "${only[@]}"
for k in 000000 000001; do
    cmp -s <(dcraw -D -4 -c "$tmp/tb/tstill/tstill_$k.dng") \
        <(dcraw -D -4 -c "$tmp/to/tstill/tstill_$k.dng") ||
        fail "--defects-from changed the focus repair of frame $k"
done

# plan: analyze takes it (made absolute), the convert tasks the sidecar
mlvpipe_abs=$(realpath "$mlvpipe")
(cd "$tmp" && "$mlvpipe_abs" plan still.MLV -o out --engine parallel --defects-from mov.MLV \
    >plan.sh 2>plan.err) || fail "plan: $(cat "$tmp/plan.err")"
grep "analyze" "$tmp/plan.sh" | grep -q -- "--defects-from $tmp/mov.MLV" ||
    fail "plan: analyze lacks --defects-from"
! grep "mlvpipe convert " "$tmp/plan.sh" | grep -q -- "--defects-from" ||
    fail "plan: a convert task got --defects-from"
finish
