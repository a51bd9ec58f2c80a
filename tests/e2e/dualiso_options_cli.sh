#!/bin/bash
# The dual-ISO reconstruction options of mlvpipe convert.
# --chroma-smooth: 2, 3 and 5 change the shadows of a dual-ISO clip's DNGs (dcraw raw values
# differ from the default) while keeping the DNG levels; the output is the same for 1 and 2
# threads; 0 is the default; other values are usage errors (exit 2).
# --denoise (issue 34): off by default (--denoise 0 gives the default's bytes); a strength
# changes the raw values but not the levels, and gives the same bytes for 1 and 2 threads and
# for a frame range; out-of-range strengths are usage errors (exit 2, one line naming it).
# usage: dualiso_options_cli.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
for tool in dcraw exiftool; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done

"$mlvsynth" -o "$tmp/d.MLV" --dual-iso --size 320x180 --frames 3 --ob 0x0 >/dev/null ||
    fail "mlvsynth"

raw() { dcraw -D -4 -c "$1" | md5sum | cut -d' ' -f1; }

run default 0 convert "$tmp/d.MLV" -o "$tmp/default" --threads 2
run zero 0 convert "$tmp/d.MLV" -o "$tmp/zero" --chroma-smooth 0 --threads 2
cmp -s "$tmp/default/d/d_000001.dng" "$tmp/zero/d/d_000001.dng" ||
    fail "--chroma-smooth 0 differs from the default"
base=$(raw "$tmp/default/d/d_000001.dng")
levels() { exiftool -s3 -BlackLevel -WhiteLevel -BitsPerSample "$1" | tr '\n' ' '; }
for n in 2 3 5; do
    for t in 1 2; do
        run "cs$n-t$t" 0 convert "$tmp/d.MLV" -o "$tmp/cs$n-t$t" --chroma-smooth "$n" --threads "$t"
    done
    f="$tmp/cs$n-t1/d/d_000001.dng"
    cmp -s "$f" "$tmp/cs$n-t2/d/d_000001.dng" || fail "--chroma-smooth $n: 1 and 2 threads differ"
    [ "$(raw "$f")" != "$base" ] || fail "--chroma-smooth $n changed no raw value"
    [ "$(levels "$f")" = "$(levels "$tmp/default/d/d_000001.dng")" ] ||
        fail "--chroma-smooth $n changed the DNG levels: $(levels "$f")"
done
for bad in 1 4 x ""; do
    run "bad-$bad" 2 convert "$tmp/d.MLV" -o "$tmp/bad" --chroma-smooth "$bad"
    [ "$(wc -l < "$tmp/bad-$bad.err")" -le 2 ] || fail "bad value '$bad': more than a usage line"
done
run dn-zero 0 convert "$tmp/d.MLV" -o "$tmp/dn-zero" --denoise 0 --threads 2
cmp -s "$tmp/default/d/d_000001.dng" "$tmp/dn-zero/d/d_000001.dng" ||
    fail "--denoise 0 differs from the default"
prev=$base
for s in 1 2.5; do
    for t in 1 2; do
        run "dn$s-t$t" 0 convert "$tmp/d.MLV" -o "$tmp/dn$s-t$t" --denoise "$s" --threads "$t"
    done
    run "dn$s-range" 0 convert "$tmp/d.MLV" -o "$tmp/dn$s-range" --denoise "$s" --frames 1-1
    f="$tmp/dn$s-t1/d/d_000001.dng"
    cmp -s "$f" "$tmp/dn$s-t2/d/d_000001.dng" || fail "--denoise $s: 1 and 2 threads differ"
    cmp -s "$f" "$tmp/dn$s-range/d/d_000001.dng" || fail "--denoise $s: the range differs"
    now=$(raw "$f")
    [ "$now" != "$prev" ] || fail "--denoise $s changed no raw value"
    prev=$now
    [ "$(levels "$f")" = "$(levels "$tmp/default/d/d_000001.dng")" ] ||
        fail "--denoise $s changed the DNG levels: $(levels "$f")"
done
for bad in -1 8.5 x ""; do
    run "dn-bad-$bad" 2 convert "$tmp/d.MLV" -o "$tmp/bad" --denoise "$bad"
    [ "$(wc -l < "$tmp/dn-bad-$bad.err")" -le 2 ] || fail "bad value '$bad': more than a usage line"
    grep -q -- "--denoise" "$tmp/dn-bad-$bad.err" || fail "bad value '$bad': the error names no option"
done
finish
