#!/bin/bash
# mlvpipe convert --cache: a re-render with other development settings reads every frame
# from the cache, and every output (FFV1 pictures and bytes, DNG files) equals a run without
# the cache. Entries never cross clips or levels: another clip with the same GUID, an
# edited levels sidecar, legacy .RAW clips (no GUID) all miss. A partly cached DELTA clip
# decodes the frames after a cached run from a rebuilt reference.
# usage: cache_reuse.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
command -v ffmpeg >/dev/null || { echo "no ffmpeg: skip"; exit 77; }
. "$(dirname "$0")/pipeline_lib.sh"

"$mlvsynth" -o "$tmp/d.MLV" --dual-iso --size 320x160 --frames 12 >/dev/null || fail "mlvsynth d"
# Same size, GUID and frame numbers; other scene seed.
"$mlvsynth" -o "$tmp/e.MLV" --dual-iso --size 320x160 --frames 12 --seed 2 >/dev/null ||
    fail "mlvsynth e"

# pictures FILE: one MD5 per decoded picture
pictures() { ffmpeg -v error -i "$1" -map 0:v -f framemd5 - | grep -v '^#' | cut -d, -f6; }
# summary NAME: the -v cache line of run NAME, from "N hits" on
summary() { grep -o '[0-9]* hits, [0-9]* misses ([0-9]* rejected), [0-9]* written' "$tmp/$1.err"; }
# expect NAME "HITS MISSES REJECTED WRITTEN"
expect() {
    local got
    got=$(summary "$1" | tr -cs '0-9' ' ' | sed 's/ *$//')
    [ "$got" = "$2" ] || fail "$1: cache hits/misses/rejected/written '$got', expected '$2'"
}

run cold 0 -v convert "$tmp/d.MLV" --to ffv1 -o "$tmp/cold.mkv" --cache "$tmp/C"
expect cold "0 12 0 12"
[ "$(find "$tmp/C" -name '*.mpc' | wc -l)" -eq 12 ] || fail "cold run: not 12 entries"
run ref 0 convert "$tmp/d.MLV" --to ffv1 -o "$tmp/ref.mkv" --curve logc3
run warm 0 -v convert "$tmp/d.MLV" --to ffv1 -o "$tmp/warm.mkv" --curve logc3 --cache "$tmp/C" \
    --threads 2
expect warm "12 0 0 0"
pictures "$tmp/ref.mkv" >"$tmp/ref.md5"
pictures "$tmp/warm.mkv" >"$tmp/warm.md5"
[ "$(wc -l <"$tmp/ref.md5")" -eq 12 ] || fail "reference: $(wc -l <"$tmp/ref.md5") pictures"
cmp -s "$tmp/ref.md5" "$tmp/warm.md5" || fail "FFV1 pictures from the cache differ"
cmp -s "$tmp/ref.mkv" "$tmp/warm.mkv" || fail "FFV1 bytes from the cache differ"
grep -q 'cache' "$tmp/ref.err" && fail "a run without --cache mentions a cache"

# DNG: cold and warm cache runs both give the bytes of a run without the cache.
run dng-ref 0 convert "$tmp/d.MLV" -o "$tmp/dng-ref"
run dng-cold 0 -v convert "$tmp/d.MLV" -o "$tmp/dng-cold" --cache "$tmp/D" --threads 1
expect dng-cold "0 12 0 12"
run dng-warm 0 -v convert "$tmp/d.MLV" -o "$tmp/dng-warm" --cache "$tmp/C"
expect dng-warm "12 0 0 0"
same_tree "DNG cold cache" "$tmp/dng-ref" "$tmp/dng-cold"
same_tree "DNG warm cache" "$tmp/dng-ref" "$tmp/dng-warm"
# A part of the clip uses the same entries.
run part 0 -v convert "$tmp/d.MLV" --to md5 -o "$tmp/part.md5" --frames 3-5 --cache "$tmp/C"
expect part "3 0 0 0"

# Another clip with the same GUID, size and frame numbers, even reconstructed with the very
# levels of d (its sidecar fits e too): no entry of d is used.
run d-analyze 0 analyze "$tmp/d.MLV" -o "$tmp/d.levels.json"
run other 0 -v convert "$tmp/e.MLV" --to ffv1 -o "$tmp/other.mkv" --cache "$tmp/C" \
    --levels "$tmp/d.levels.json"
expect other "0 12 0 12"
run other-ref 0 convert "$tmp/e.MLV" --to ffv1 -o "$tmp/other-ref.mkv" \
    --levels "$tmp/d.levels.json"
cmp -s "$tmp/other.mkv" "$tmp/other-ref.mkv" || fail "other clip: output differs from no cache"

# Other levels miss: a sidecar with another ratio. The same levels hit however they were
# made: from the sidecar of `analyze`, or with --phase forced to the detected phase (0).
# (Forcing a wrong phase makes the fields' ratio negative: refused before any frame.)
run sidecar 0 -v convert "$tmp/d.MLV" --to md5 -o "$tmp/sidecar.md5" --cache "$tmp/C" \
    --levels "$tmp/d.levels.json"
expect sidecar "12 0 0 0"
run phase 0 -v convert "$tmp/d.MLV" --to md5 -o "$tmp/phase.md5" --phase 0 --cache "$tmp/C"
expect phase "12 0 0 0"
sed -E 's/("ratio" *: *)[0-9.eE+-]+/\115.5/' "$tmp/d.levels.json" >"$tmp/edited.json"
grep -q '"ratio": 15.5,' "$tmp/edited.json" || fail "sidecar: no ratio to edit"
run edited 0 -v convert "$tmp/d.MLV" --to md5 -o "$tmp/edited.md5" --cache "$tmp/C" \
    --levels "$tmp/edited.json"
expect edited "0 12 0 12"
run edited-ref 0 convert "$tmp/d.MLV" --to md5 -o "$tmp/edited-ref.md5" \
    --levels "$tmp/edited.json"
cmp -s "$tmp/edited.md5" "$tmp/edited-ref.md5" || fail "edited levels: output differs"
cmp -s "$tmp/edited.md5" "$tmp/sidecar.md5" && fail "edited levels: same output as the original"

# Legacy .RAW has no GUID: two clips that differ only in content never share entries, even
# with the same levels.
"$mlvsynth" -o "$tmp/r1.RAW" --legacy-raw --dual-iso --size 320x160 --frames 6 >/dev/null ||
    fail "mlvsynth r1"
"$mlvsynth" -o "$tmp/r2.RAW" --legacy-raw --dual-iso --size 320x160 --frames 6 --seed 2 \
    >/dev/null || fail "mlvsynth r2"
run raw1 0 -v convert "$tmp/r1.RAW" --to md5 -o "$tmp/raw1.md5" --cache "$tmp/R"
expect raw1 "0 6 0 6"
run raw1-warm 0 -v convert "$tmp/r1.RAW" --to md5 -o "$tmp/raw1-warm.md5" --cache "$tmp/R"
expect raw1-warm "6 0 0 0"
cmp -s "$tmp/raw1.md5" "$tmp/raw1-warm.md5" || fail "RAW: warm output differs"
run r1-analyze 0 analyze "$tmp/r1.RAW" -o "$tmp/r1.levels.json"
run raw2 0 -v convert "$tmp/r2.RAW" --to md5 -o "$tmp/raw2.md5" --cache "$tmp/R" \
    --levels "$tmp/r1.levels.json"
expect raw2 "0 6 0 6"

# DELTA clips store a frame against the one before: with frames 3-5 cached, frame 6 is
# decoded from a reference the worker must rebuild (frames skipped by the cache).
"$mlvsynth" -o "$tmp/dl.MLV" --dual-iso --compress lzma-delta --size 320x160 --frames 12 \
    >/dev/null || fail "mlvsynth dl"
run delta-part 0 -v convert "$tmp/dl.MLV" --to md5 -o "$tmp/dl-part.md5" --frames 3-5 \
    --cache "$tmp/DL"
run delta 0 -v convert "$tmp/dl.MLV" --to md5 -o "$tmp/dl.md5" --cache "$tmp/DL" --threads 2
expect delta "3 9 0 9"
run delta-ref 0 convert "$tmp/dl.MLV" --to md5 -o "$tmp/dl-ref.md5"
cmp -s "$tmp/dl.md5" "$tmp/dl-ref.md5" || fail "DELTA clip, partly cached: output differs"

# Single-ISO clips are not cached (nothing is reconstructed).
"$mlvsynth" -o "$tmp/n.MLV" --size 96x64 --frames 4 >/dev/null || fail "mlvsynth n"
run native 0 -v convert "$tmp/n.MLV" --to md5 -o "$tmp/n.md5" --cache "$tmp/N"
[ -z "$(find "$tmp/N" -type f 2>/dev/null)" ] || fail "a single-ISO clip left cache entries"
finish
