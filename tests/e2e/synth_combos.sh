#!/usr/bin/env bash
# Random combinations of mlvsynth options (fixed seed, so the same every run): every clip the
# generator accepts must round-trip through the mlvpipe reader (synth_roundtrip), and every
# combination it refuses must be refused as a usage error (exit 2), never crash.
# usage: synth_combos.sh MLVSYNTH SYNTH_ROUNDTRIP [COUNT]
set -euo pipefail
mlvsynth=$(realpath "$1")
roundtrip=$(realpath "$2")
count=${3:-150}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 - "$count" > "$dir/list" <<'PY'
import random, sys
opts = [["--bits", "10"], ["--bits", "12"], ["--bits", "16"], ["--size", "32x6"],
        ["--size", "8x2"], ["--size", "2x2"], ["--frames", "1"], ["--frames", "6"],
        ["--compress", "lj92"], ["--compress", "lzma"], ["--compress", "delta"],
        ["--compress", "lzma-delta"], ["--lj92-layout", "mlvdump"], ["--lj92-predictor", "5"],
        ["--chunk-frames", "1"], ["--chunk-frames", "2"], ["--shuffle", "9"], ["--drop", "1"],
        ["--drop", "0"], ["--duplicate", "0"], ["--duplicate", "1-2"], ["--audio"],
        ["--audio-offset", "-500"], ["--interrupted"], ["--zero-tail", "17"],
        ["--truncate", "33"], ["--truncate", "700"], ["--garbage-block", "0"],
        ["--garbage-block", "2"], ["--bad-frame-space", "1"], ["--no-rawi"],
        ["--video-class", "7"], ["--guid-mismatch", "1"],
        ["--change-at", "1", "--change-iso", "400"],
        ["--change-at", "2", "--change-shutter", "5000"], ["--change-in-filler"],
        ["--change-at", "1", "--change-size", "16x4"],
        ["--frame-space", "0"], ["--frame-space", "80"], ["--rtci-every", "1"],
        ["--dual-iso", "--ob", "0x0"], ["--dual-iso"], ["--header", "all"],
        ["--header", "minimal"], ["--legacy-raw"], ["--raw-chunk-bytes", "200"],
        ["--fps", "1/1"], ["--content", "gradient"]]
rng = random.Random(20261203)
for i in range(int(sys.argv[1])):
    args = []
    for o in rng.sample(opts, rng.randint(1, 7)):
        args += o
    ext = ".RAW" if "--legacy-raw" in args else ".MLV"
    print(" ".join(["-o", "c%d%s" % (i, ext)] + args))
PY

cd "$dir"
made=0 refused=0
while read -r line; do
    rc=0
    # shellcheck disable=SC2086
    "$mlvsynth" $line > /dev/null 2> err.txt || rc=$?
    case $rc in
        0) made=$((made + 1))
           # shellcheck disable=SC2086
           "$roundtrip" $line > rt.txt 2>&1 || { echo "round trip failed: $line"; cat rt.txt; exit 1; } ;;
        2) refused=$((refused + 1)) ;;
        *) echo "mlvsynth exit $rc: $line"; cat err.txt; exit 1 ;;
    esac
done < list
echo "combinations: $made clips round-tripped, $refused refused as usage errors"
[ "$made" -gt $((count / 3)) ]
