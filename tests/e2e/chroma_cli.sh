#!/bin/bash
# mlvpipe convert --chroma-smooth: 2, 3 and 5 change the shadows of a dual-ISO clip's DNGs
# (dcraw raw values differ from the default) while keeping the DNG levels; the output is the
# same for 1 and 2 threads; 0 is the default; other values are usage errors (exit 2).
# usage: chroma_cli.sh MLVPIPE MLVSYNTH
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
finish
