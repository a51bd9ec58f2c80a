#!/bin/bash
# Issue #31: the DNGs of converted stills open in the raw developers photographers use.
# darktable (rawspeed) and RawTherapee export a dual-ISO CR2's output, a single-ISO 12-bit
# one's and that of a dual-ISO DNG in mlv_dump's layout (tools/bench/stills/mlvdump_dng.py),
# and LibRaw's dcraw_emu develops each to the picture's size (orientation applied); darktable
# also exports mlv_dump's own DNGs ($MLVPIPE_SAMPLES/peer), which RawTherapee refuses as
# inputs already (128x64: below the size it opens).
# usage: stills_readers.sh MLVPIPE CR2SYNTH MLVDUMP_DNG
set -u
mlvpipe=$1
cr2synth=$2
mlvdump_dng=$3
. "$(dirname "$0")/lib.sh"
need darktable-cli rawtherapee-cli dcraw_emu exiftool python3
export HOME=$tmp/home
mkdir -p "$HOME" "$tmp/in"

"$cr2synth" -o "$tmp/in/IMG_0001.CR2" --dual 4 --size 512x320 --orientation 6 \
    --samples "$tmp/IMG_0001.pgm" || fail "cr2synth dual"
"$cr2synth" -o "$tmp/in/IMG_0002.CR2" --size 512x320 --bits 12 --camera eosm --slices 3 ||
    fail "cr2synth single"
python3 "$mlvdump_dng" "$tmp/IMG_0001.pgm" "$tmp/in/IMG_0003.DNG" 72 28 || fail "mlvdump_dng"
peer=${MLVPIPE_SAMPLES:-}/peer
for wb in kelvin custom; do
    [ -f "$peer/wb_${wb}_mlvdump_000000.dng" ] && cp "$peer/wb_${wb}_mlvdump_000000.dng" "$tmp/in/"
done
run folder 0 convert "$tmp/in" -o "$tmp/out"

for n in 1 2 3; do
    f=$tmp/out/IMG_000$n.dng
    [ -f "$f" ] || { fail "no IMG_000$n.dng"; continue; }
    out=$(rawtherapee-cli -o "$tmp/rt$n.tif" -t -Y -c "$f" 2>&1) && [ -s "$tmp/rt$n.tif" ] ||
        fail "rawtherapee-cli on IMG_000$n.dng: $out"
    cp "$f" "$tmp/emu$n.dng"
    dcraw_emu -4 -T "$tmp/emu$n.dng" 2>/dev/null || fail "dcraw_emu on IMG_000$n.dng"
    want="512 320"
    [ "$n" != 1 ] || want="320 512"   # turned: orientation 6 (mlv_dump's layout has none)
    size=$(exiftool -s3 -ImageWidth -ImageHeight "$tmp/emu$n.dng.tiff" | tr '\n' ' ')
    [ "$size" = "$want " ] || fail "dcraw_emu: IMG_000$n.dng developed to $size, not $want"
done
for f in "$tmp"/out/*.dng; do
    out=$(darktable-cli "$f" "$tmp/dt.tif" --core --library :memory: --configdir "$tmp/dtconf" 2>&1) &&
        [ -s "$tmp/dt.tif" ] || fail "darktable-cli on ${f##*/}: $out"
    ! grep -qi "rawspeed" <<<"$out" || fail "darktable warned on ${f##*/}: $out"
    rm -f "$tmp/dt.tif"
done
finish
