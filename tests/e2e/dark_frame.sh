#!/bin/bash
# convert --dark (issue #11 item 4) on simulated clips of one sensor (mlvsynth --sensor-seed:
# the same fixed dark pattern of 8 DN RMS in every clip, noise from each clip's own --seed):
# the 16-frame lens-cap clip's average subtracted from a flat scene leaves, against the same
# scene shot without the pattern (raw values read by dcraw -D), a residual pattern whose RMS
# is within sqrt(sigma^2/16 + 1/12) + 3 % (sigma: the read noise of one frame, from the
# truth; 1/12: the subtraction rounds to whole DN), the black kept within 0.25 DN; without
# --dark the pattern is there (the check can fail); the same from MLV-App's DARK block stored
# in the clip, and from one DNG (uncompressed or LJ92, read through LibRaw: the same). Same bytes at 1 and 2 threads
# and in two --frames chunks, with the dark frame given to analyze and to convert --levels;
# dual ISO too. A dark clip of another size, bit depth or ISO is refused (exit 3, naming what
# differs); plan puts --dark on analyze and every convert task, and refuses it after --;
# report --dark measures the pattern-free histogram.
# usage: dark_frame.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/pipeline_lib.sh"
need dcraw python3

sensor=(--single-iso --dark-pattern 8 --sensor-seed 7 --size 256x128)
"$mlvsynth" -o "$tmp/cap.MLV" "${sensor[@]}" --lens-cap --seed 11 --frames 16 --guid 2 \
    >/dev/null || fail "mlvsynth cap"
"$mlvsynth" -o "$tmp/scene.MLV" "${sensor[@]}" --scene flat --seed 3 --frames 2 --guid 3 \
    >/dev/null || fail "mlvsynth scene"
"$mlvsynth" -o "$tmp/clean.MLV" --single-iso --sensor-seed 7 --size 256x128 --scene flat \
    --seed 3 --frames 2 --guid 3 >/dev/null || fail "mlvsynth clean"
nofix=(--no-focus-pixels --no-bad-pixels --no-stripes)

run dark 0 convert "$tmp/scene.MLV" -o "$tmp/dark" --dark "$tmp/cap.MLV" "${nofix[@]}" -v
grep -q "16 frames averaged" "$tmp/dark.err" || fail "no averaging logged: $(cat "$tmp/dark.err")"
run plain 0 convert "$tmp/scene.MLV" -o "$tmp/plain" "${nofix[@]}"
run clean 0 convert "$tmp/clean.MLV" -o "$tmp/clean" "${nofix[@]}"

# residual DIR: "RMS OFFSET BOUND" of (DIR's frames - the clean ones), per sample averaged
# over the 4 frames (what stays the same in every frame: a pattern)
residual() {
    python3 - "$1" "$tmp/clean/clean/clean" "$tmp/cap.truth.json" <<'PY'
import json, math, subprocess, sys
def raw(p):
    d = subprocess.run(["dcraw", "-D", "-4", "-c", p], check=True, capture_output=True).stdout
    _, w, h, _ = d.split(maxsplit=4)[:4]
    w, h = int(w), int(h)
    b = d[len(d) - 2 * w * h:]
    return [int.from_bytes(b[2 * i:2 * i + 2], "big") for i in range(w * h)]
acc = None
for f in range(2):
    d = [a - b for a, b in zip(raw("%s_%06d.dng" % (sys.argv[1], f)),
                               raw("%s_%06d.dng" % (sys.argv[2], f)))]
    acc = d if acc is None else [s + t for s, t in zip(acc, d)]
r = [s / 2 for s in acc]
m = sum(r) / len(r)
rms = math.sqrt(sum((v - m) ** 2 for v in r) / len(r))
sigma = json.load(open(sys.argv[3]))["dual_iso"]["segments"][0]["sensor"]["read_noise_dark"]
print("%.4f %.4f %.4f" % (rms, m, math.sqrt(sigma * sigma / 16 + 1 / 12)))
PY
}
# within R O B: the residual pattern R within the bound B (+3 %), the black O within 0.25 DN
within() {
    python3 -c "import sys; r, o, b = map(float, sys.argv[1:])
sys.exit(not (r <= 1.03 * b and abs(o) < 0.25))" "$@"
}
read -r rms off bound < <(residual "$tmp/dark/scene/scene")
echo "with --dark: residual pattern RMS $rms DN, offset $off, bound $bound"
within "$rms" "$off" "$bound" || fail "residual pattern $rms (bound $bound), offset $off"
read -r rms off bound < <(residual "$tmp/plain/scene/scene")
echo "without: residual pattern RMS $rms DN"
python3 -c "import sys; sys.exit(not float(sys.argv[1]) > 7)" "$rms" ||
    fail "the pattern should show without --dark ($rms)"

# MLV-App's DARK block (mlvsynth --dark-block: the average of 16 lens-cap frames, rounded to
# whole DN like MLV-App's): --dark with the clip itself subtracts its own block
"$mlvsynth" -o "$tmp/blk.MLV" "${sensor[@]}" --scene flat --seed 3 --frames 2 --guid 3 \
    --dark-block 16 >/dev/null || fail "mlvsynth dark block"
run info-block 0 info "$tmp/blk.MLV"
grep -q "dark frame: *MLV-App DARK block, 16 frames averaged, 256x128 14-bit" \
    "$tmp/info-block.out" || fail "info: $(grep -i dark "$tmp/info-block.out")"
run block 0 convert "$tmp/blk.MLV" -o "$tmp/block" --dark "$tmp/blk.MLV" "${nofix[@]}" -v
grep -q "DARK block (16 frames averaged)" "$tmp/block.err" || fail "block: $(cat "$tmp/block.err")"
read -r rms off bound < <(residual "$tmp/block/blk/blk")
echo "DARK block: residual pattern RMS $rms DN, offset $off"
within "$rms" "$off" "$bound" ||
    fail "DARK block: residual pattern $rms (bound $bound), offset $off"

# one DNG as the dark frame (a single lens-cap frame: the pattern goes, one frame's noise
# stays, so the bound is sqrt(sigma^2 + 1/12)); packed 14-bit and 16-bit DNGs give the same
# frames; so does an LJ92 DNG (read through LibRaw as a still)
run dng 0 convert "$tmp/cap.MLV" -o "$tmp/dng" --frames 5 "${nofix[@]}"
run dng16 0 convert "$tmp/cap.MLV" -o "$tmp/dng16" --frames 5 --dng-bits 16 "${nofix[@]}"
run dnglj 0 convert "$tmp/cap.MLV" -o "$tmp/dnglj" --frames 5 --dng-compression lj92 \
    "${nofix[@]}"
run from-dng 0 convert "$tmp/scene.MLV" -o "$tmp/fromdng" --dark "$tmp/dng/cap/cap_000005.dng" \
    "${nofix[@]}"
run from-dng16 0 convert "$tmp/scene.MLV" -o "$tmp/fromdng16" "${nofix[@]}" \
    --dark "$tmp/dng16/cap/cap_000005.dng"
same_tree "14- and 16-bit DNG dark frames" "$tmp/fromdng" "$tmp/fromdng16"
read -r rms off bound < <(residual "$tmp/fromdng/scene/scene")
echo "one DNG: residual pattern RMS $rms DN"
single=$(python3 -c "import sys; b = float(sys.argv[1]); print((16 * b * b - 15 / 12) ** 0.5)" \
    "$bound")
within "$rms" "$off" "$single" || fail "DNG: residual pattern $rms (bound $single)"
run from-lj92 0 convert "$tmp/scene.MLV" -o "$tmp/fromlj" --dark "$tmp/dnglj/cap/cap_000005.dng" \
    "${nofix[@]}"
same_tree "14-bit and LJ92 DNG dark frames" "$tmp/fromdng" "$tmp/fromlj"

# same bytes: threads, chunks, a sidecar made with the dark frame
run md5-1 0 convert "$tmp/scene.MLV" -o "$tmp/t1.md5" --to md5 --dark "$tmp/cap.MLV" --threads 1
run md5-2 0 convert "$tmp/scene.MLV" -o "$tmp/t2.md5" --to md5 --dark "$tmp/cap.MLV" --threads 2
cmp -s "$tmp/t1.md5" "$tmp/t2.md5" || fail "1 and 2 threads differ"
run analyze 0 analyze "$tmp/scene.MLV" -o "$tmp/levels.json" --dark "$tmp/cap.MLV"
run chunk-a 0 convert "$tmp/scene.MLV" -o "$tmp/ca.md5" --to md5 --dark "$tmp/cap.MLV" \
    --levels "$tmp/levels.json" --frames 0
run chunk-b 0 convert "$tmp/scene.MLV" -o "$tmp/cb.md5" --to md5 --dark "$tmp/cap.MLV" \
    --levels "$tmp/levels.json" --frames 1
cat "$tmp/ca.md5" "$tmp/cb.md5" | cmp -s - "$tmp/t1.md5" || fail "chunks differ from one run"
grep -q "options" "$tmp/chunk-a.err" && fail "sidecar options differ: $(cat "$tmp/chunk-a.err")"
run nodark-levels 0 convert "$tmp/scene.MLV" -o "$tmp/nd.md5" --to md5 --levels "$tmp/levels.json"
grep -q "options" "$tmp/nodark-levels.err" ||
    fail "a sidecar made with --dark used without it should warn"

# dual ISO: the lens-cap clip shot in dual ISO too; threads and chunks agree
dual=(--dual-iso --dark-pattern 8 --sensor-seed 7 --size 256x128)
"$mlvsynth" -o "$tmp/dcap.MLV" "${dual[@]}" --lens-cap --seed 11 --frames 4 --guid 4 \
    >/dev/null || fail "mlvsynth dual cap"
"$mlvsynth" -o "$tmp/dscene.MLV" "${dual[@]}" --seed 3 --frames 2 --guid 5 >/dev/null ||
    fail "mlvsynth dual scene"
run dual-1 0 convert "$tmp/dscene.MLV" -o "$tmp/d1.md5" --to md5 --dark "$tmp/dcap.MLV" --threads 1
run dual-2 0 convert "$tmp/dscene.MLV" -o "$tmp/d2.md5" --to md5 --dark "$tmp/dcap.MLV" --threads 2
cmp -s "$tmp/d1.md5" "$tmp/d2.md5" || fail "dual: 1 and 2 threads differ"
run dual-a 0 convert "$tmp/dscene.MLV" -o "$tmp/da.md5" --to md5 --dark "$tmp/dcap.MLV" --frames 0
run dual-b 0 convert "$tmp/dscene.MLV" -o "$tmp/db.md5" --to md5 --dark "$tmp/dcap.MLV" --frames 1-
cat "$tmp/da.md5" "$tmp/db.md5" | cmp -s - "$tmp/d1.md5" || fail "dual: chunks differ"
run dual-none 0 convert "$tmp/dscene.MLV" -o "$tmp/dn.md5" --to md5
cmp -s "$tmp/dn.md5" "$tmp/d1.md5" && fail "dual: --dark changed nothing"

# refusals: one line naming what differs, exit 3 (input)
"$mlvsynth" -o "$tmp/size.MLV" --single-iso --lens-cap --size 256x96 --frames 2 >/dev/null
"$mlvsynth" -o "$tmp/bits.MLV" --single-iso --lens-cap --size 256x128 --bits 12 --frames 2 \
    >/dev/null
"$mlvsynth" -o "$tmp/iso.MLV" --single-iso --lens-cap --size 256x128 --iso 200 --frames 2 \
    >/dev/null
# refused CLIP DARK PATTERN
refused() {
    run "$2" 3 convert "$tmp/$1.MLV" -o "$tmp/r-$2" --dark "$tmp/$2.MLV"
    grep -q "$3" "$tmp/$2.err" || fail "$2: $(cat "$tmp/$2.err")"
    [ "$(wc -l < "$tmp/$2.err")" -eq 1 ] || fail "$2: not one line: $(cat "$tmp/$2.err")"
    [ -e "$tmp/r-$2" ] && fail "$2: output written"
}
refused scene size "size 256x96 is not the clip's 256x128"
refused scene bits "12-bit, the clip .* is 14-bit"
refused scene iso "shot at ISO 200, the clip .* at ISO 100"
refused scene dcap "dual ISO on (recovery index .*), the clip .*: dual ISO off"
refused dscene cap "dual ISO off (recovery index 0), the clip .*: dual ISO on"
run missing 3 convert "$tmp/scene.MLV" -o "$tmp/r-missing" --dark "$tmp/none.MLV"
cp "$tmp/cap.MLV" "$tmp/keep.MLV"
run replace-dark 2 convert "$tmp/scene.MLV" -o "$tmp/keep.MLV" --to md5 --overwrite \
    --dark "$tmp/keep.MLV"
cmp -s "$tmp/cap.MLV" "$tmp/keep.MLV" || fail "the dark clip was replaced"

# plan: analyze and every convert task subtract the same dark frame
run plan 0 plan "$tmp/scene.MLV" -o "$tmp/farm" --engine json --chunk 1 --dark "$tmp/cap.MLV"
python3 - "$tmp/plan.out" "$tmp/cap.MLV" <<'PY' || fail "plan: --dark not on every task"
import json, sys
p = json.load(open(sys.argv[1]))
tasks = [t for t in p["tasks"] if t["argv"][1] in ("analyze", "convert")]
assert len(tasks) >= 3, tasks
for t in tasks:
    a = t["argv"]
    assert a[a.index("--dark") + 1] == sys.argv[2], a
PY
run plan-extra 2 plan "$tmp/scene.MLV" -o "$tmp/farm" --engine json -- --dark "$tmp/cap.MLV"

# report --dark: the raw histogram it measures is the pattern-free clip's (L1 distance of the
# counts under 1/4 of the one without --dark: measured 2054 against 14044 of 65536 samples),
# and the JSON names the dark frame; a dark frame that does not fit is refused (exit 3)
run report-dark 0 report "$tmp/scene.MLV" "$tmp/clean.MLV" --json "$tmp/rd.json" --thumbs 0 \
    --samples 2 --dark "$tmp/cap.MLV"
run report-plain 0 report "$tmp/scene.MLV" "$tmp/clean.MLV" --json "$tmp/rp.json" --thumbs 0 \
    --samples 2
python3 - "$tmp/rd.json" "$tmp/rp.json" <<'PY' || fail "report --dark"
import json, sys
def clips(p):
    return json.load(open(p))["clips"]
def hist(c):
    f = c["histogram"]["fields"][0]["channels"]
    return [x for k in "RGB" for x in [f[k]["crushed"], f[k]["clipped"]] + f[k]["counts"]]
dark, plain = clips(sys.argv[1]), clips(sys.argv[2])
assert dark[0]["dark_frame"]["frames"] == 16, dark[0]["dark_frame"]
assert 7 < dark[0]["dark_frame"]["pattern_rms"] < 9.5, dark[0]["dark_frame"]
assert plain[0]["dark_frame"] is None, plain[0]["dark_frame"]
clean = hist(plain[1])
d = [sum(abs(a - b) for a, b in zip(hist(c[0]), clean)) for c in (dark, plain)]
print("report histogram L1 to the pattern-free clip: --dark %d, without %d" % tuple(d))
assert 4 * d[0] < d[1], d
PY
run report-size 3 report "$tmp/scene.MLV" --json "$tmp/rs.json" --dark "$tmp/size.MLV"
grep -q "size 256x96 is not the clip's 256x128" "$tmp/report-size.err" ||
    fail "report: $(cat "$tmp/report-size.err")"
finish
