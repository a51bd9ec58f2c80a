#!/bin/bash
# Issue #31's CPU bounds (release builds; under the sanitizers the test is skipped): a folder
# of 1080p dual-ISO DNGs in mlv_dump's layout at most 0.24 CPU-s a still, a 22-megapixel
# dual-ISO 5D Mark III CR2 at most 2 CPU-s, on one thread; CPU = user + system of mlvpipe and
# its children (LibRaw's, doc/stills.md 7), which the machine's load does not change much.
# Measured 0.10 to 0.12 and 0.98 to 1.14 (doc/benchmarks.md 11).
# usage: stills_cpu.sh MLVPIPE CR2SYNTH MLVDUMP_DNG
set -u
mlvpipe=$1
cr2synth=$2
mlvdump_dng=$3
[ -z "${MLVPIPE_SANITIZED:-}" ] || { echo "SKIP: CPU bounds of a sanitized build"; exit 77; }
. "$(dirname "$0")/lib.sh"
need python3 /usr/bin/time

# cpu NAME BOUND ARGS...: converts with --threads 1; fails when user + system > BOUND
cpu() {
    local name=$1 bound=$2 u s
    shift 2
    read -r u s < <(/usr/bin/time -f "%U %S" "$mlvpipe" -q convert "$@" --threads 1 2>&1 \
                    >/dev/null | tail -1)
    echo "$name: $u s user + $s s system (bound $bound)"
    awk -v u="$u" -v s="$s" -v b="$bound" 'BEGIN {exit !(u + s > 0 && u + s <= b)}' ||
        fail "$name: $u + $s CPU-s, above $bound"
}

mkdir -p "$tmp/hd"
"$cr2synth" -o "$tmp/hd.CR2" --dual 4 --size 1920x1080 --seed 5 --samples "$tmp/hd.pgm" ||
    fail "cr2synth 1080p"
python3 "$mlvdump_dng" "$tmp/hd.pgm" "$tmp/hd/IMG_0001.DNG" 72 28 || fail "mlvdump_dng"
for n in 2 3 4 5 6 7 8; do cp "$tmp/hd/IMG_0001.DNG" "$tmp/hd/IMG_000$n.DNG"; done
cpu "8 1080p dual-ISO DNGs as a folder" $(awk 'BEGIN {print 8 * 0.24}') "$tmp/hd" -o "$tmp/hdout"
[ "$(ls "$tmp/hdout" | wc -l)" = 8 ] || fail "the folder: $(ls "$tmp/hdout" | wc -l) outputs"
"$cr2synth" -o "$tmp/big.CR2" --dual 4 --size 5796x3870 --ob 124x80 --seed 3 || fail "cr2synth 22 Mpx"
cpu "a 22-Mpx dual-ISO CR2" 2 "$tmp/big.CR2" -o "$tmp/bigout"
[ -f "$tmp/bigout/big.dng" ] || fail "no output of the 22-Mpx CR2"
finish
