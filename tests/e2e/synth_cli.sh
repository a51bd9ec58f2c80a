#!/usr/bin/env bash
# mlvsynth command line: --help lists every option; usage errors exit 2; existing files are
# never replaced without --overwrite and no temporary file is left behind; stale chunks of an
# earlier, longer clip are refused or (with --overwrite) removed; --truth-raw writes exactly
# frames x active area float32 values.    usage: synth_cli.sh MLVSYNTH
set -euo pipefail
mlvsynth=$(realpath "$1")
src=${MLVPIPE_SRC:-$(dirname "$0")/../..}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"

# every long option of the parser is documented in --help
"$mlvsynth" --help > help.txt
opts=$(sed -n 's/^    {"\([a-z0-9-]*\)",.*/\1/p' "$src/tools/mlvsynth/options.c")
[ -n "$opts" ]
for o in $opts; do
    grep -q -- "--$o" help.txt || { echo "--$o missing from --help"; exit 1; }
done

expect_exit() {   # expect_exit CODE ARGS...
    local want=$1 rc=0
    shift
    "$mlvsynth" "$@" 2> err.txt || rc=$?
    [ "$rc" = "$want" ] || { echo "mlvsynth $*: exit $rc, expected $want"; cat err.txt; exit 1; }
}
expect_exit 2 --bogus
expect_exit 2 -o x.MLV --bits 11
expect_exit 2 -o x.MLV --size 127x64
expect_exit 2 -o x.MLV --frames 0
expect_exit 2 -o x.MLV --drop 3
expect_exit 2 -o x.MLV --compress delta --shuffle 1
expect_exit 2 -o x.MLV --legacy-raw --bits 12
expect_exit 2 -o x.MLV --dual-iso --iso-high 100
expect_exit 2 -o x.MLV --dual-iso --ob 130x8
expect_exit 2 -o x.MLV --guid-mismatch 0 --chunk-frames 1
grep -q "guid-mismatch" err.txt
expect_exit 2 -o x.MLV --change-at 0 --change-iso 200
[ ! -e x.MLV ]
if ls -A | grep -q '\.part$'; then echo "temporary file left by a refused run"; exit 1; fi

# no overwrite without --overwrite; the old file stays as it was
"$mlvsynth" -o c.MLV --frames 2
cp c.MLV c.orig
expect_exit 5 -o c.MLV --frames 3
cmp c.MLV c.orig
"$mlvsynth" -o c.MLV --frames 3 --overwrite
! cmp -s c.MLV c.orig
ls -A | grep -q '\.part$' && { echo "temporary file left behind"; exit 1; }

# a leftover .M01 would silently join a new two-chunk clip
"$mlvsynth" -o s.MLV --frames 6 --chunk-frames 2
[ -e s.M00 ] && [ -e s.M01 ]
cp s.M01 t.M00
expect_exit 5 -o t.MLV --frames 2
"$mlvsynth" -o s.MLV --frames 4 --chunk-frames 2 --overwrite
[ -e s.M00 ] && [ ! -e s.M01 ]

# ground truth beside a dual-ISO clip
"$mlvsynth" -o d.MLV --dual-iso --size 96x48 --ob 8x4 --frames 2 --truth-raw
python3 - <<'PY'
import array, json, math
t = json.load(open("d.truth.json"))
d = t["dual_iso"]
assert d["diso"] == {"dual_mode": 1, "iso_value": 4}, d["diso"]      # ISO 1600 = 100 * 2^4
assert (d["active_width"], d["active_height"]) == (88, 44)
assert t["active_area"] == [4, 8, 48, 96]
s = d["segments"][0]["sensor"]
assert abs(s["ev_gap"] - 4) < 1e-12 and s["ob_left"] == 8 and s["phase"] == 0
v = array.array("f")
v.frombytes(open(d["truth_raw"]["file"], "rb").read())
assert len(v) == 2 * 88 * 44, len(v)
assert all(math.isfinite(x) and x >= 0 for x in v) and max(v) > 1000
PY
echo "cli: ok"
