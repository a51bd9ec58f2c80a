#!/bin/bash
# mlvpipe convert / analyze determinism: the same DNG bytes for any --threads, for a clip
# converted whole or in chunks (--frames), with levels from the pre-pass or from a sidecar,
# on a synthetic dual-ISO clip (with a settings change mid-clip) and on single-ISO clips
# (spanned uncompressed, and LZMA+DELTA).
# usage: pipeline_convert.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/pipeline_lib.sh"

# A dual-ISO clip whose ISO changes at frame 7 (two segments), and a single-ISO clip.
"$mlvsynth" -o "$tmp/dual.MLV" --dual-iso --size 320x160 --frames 12 --illum-sigma 0.1 \
    --change-at 7 --change-iso 200 >/dev/null || fail "mlvsynth dual"
"$mlvsynth" -o "$tmp/plain.MLV" --size 96x64 --frames 12 --chunk-frames 5 --guid 99 >/dev/null ||
    fail "mlvsynth plain"
# DELTA frames depend on the one before: workers must still decode any frame on its own.
"$mlvsynth" -o "$tmp/delta.MLV" --size 96x64 --frames 12 --compress lzma-delta --guid 77 \
    >/dev/null || fail "mlvsynth delta"

for clip in dual plain delta; do
    in="$tmp/$clip.MLV"
    for t in 1 2 4; do
        run "$clip-t$t" 0 convert "$in" -o "$tmp/$clip-t$t" --threads "$t"
    done
    same_tree "$clip: --threads 1 vs 2" "$tmp/$clip-t1" "$tmp/$clip-t2"
    same_tree "$clip: --threads 1 vs 4" "$tmp/$clip-t1" "$tmp/$clip-t4"
    n=$(find "$tmp/$clip-t1" -name '*.dng' | wc -l)
    [ "$n" -eq 12 ] || fail "$clip: $n DNGs, expected 12"

    # Chunks (one crossing the segment boundary at frame 7) tile into the same sequence.
    run "$clip-c1" 0 convert "$in" -o "$tmp/$clip-chunks" --frames 0-4 --threads 2
    run "$clip-c2" 0 convert "$in" -o "$tmp/$clip-chunks" --frames 5-8 --threads 1
    run "$clip-c3" 0 convert "$in" -o "$tmp/$clip-chunks" --frames 9- --threads 3
    same_tree "$clip: whole vs chunks" "$tmp/$clip-t1" "$tmp/$clip-chunks"

    # analyze -> sidecar -> convert --levels gives the same bytes; the sidecar does not
    # depend on the thread count either.
    run "$clip-an1" 0 analyze "$in" -o "$tmp/$clip-levels.json" --threads 1
    run "$clip-an3" 0 analyze "$in" --threads 3
    cmp -s "$tmp/$clip-levels.json" "$tmp/$clip-an3.out" ||
        fail "$clip: sidecar differs between --threads 1 and 3"
    run "$clip-lv" 0 convert "$in" -o "$tmp/$clip-lv" --levels "$tmp/$clip-levels.json" \
        --frames 3-10
    for f in "$tmp/$clip-lv"/*/*.dng; do
        cmp -s "$f" "$tmp/$clip-t1/$(basename "$(dirname "$f")")/$(basename "$f")" ||
            fail "$clip: --levels output $(basename "$f") differs"
    done
done

# The dual clip's sidecar: two segments split at frame 7, both dual, about 4 EV.
python3 - "$tmp/dual-levels.json" <<'PY' || fail "dual sidecar content"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["segments"]
assert d["clip"]["frame_count"] == 12, d["clip"]
assert [(x["first_frame"], x["last_frame"]) for x in s] == [(0, 6), (7, 11)], s
assert all(x["levels"]["is_dual"] for x in s)
assert all(abs(x["levels"]["ratio_ev"] - 4) < 0.2 for x in s), [x["levels"]["ratio_ev"] for x in s]
PY
# Dual-ISO output is 16-bit; a single-ISO clip keeps its native depth (like mlv_dump).
python3 - "$tmp/dual-t1/dual/dual_000000.dng" "$tmp/plain-t1/plain/plain_000000.dng" <<'PY' ||
import struct, sys
def bits(path):
    b = open(path, "rb").read()
    e = "<" if b[:2] == b"II" else ">"
    off = struct.unpack(e + "I", b[4:8])[0]
    n = struct.unpack(e + "H", b[off:off + 2])[0]
    for i in range(n):
        tag, typ, cnt, val = struct.unpack(e + "HHII", b[off + 2 + 12 * i:off + 14 + 12 * i])
        if tag == 258:
            return val & 0xFFFF if e == "<" else val >> 16
assert bits(sys.argv[1]) == 16, bits(sys.argv[1])
assert bits(sys.argv[2]) == 14, bits(sys.argv[2])
PY
    fail "DNG bit depths"

# A sidecar made for another clip is refused (exit 3) and nothing is written: another GUID,
# or the same GUID with other segments.
run wrong-clip 3 convert "$tmp/plain.MLV" -o "$tmp/wrong" --levels "$tmp/dual-levels.json"
grep -q "dual-levels.json: made for the clip with GUID 1122334455667788, not this one" \
    "$tmp/wrong-clip.err" || fail "wrong-clip message: $(cat "$tmp/wrong-clip.err")"
"$mlvsynth" -o "$tmp/dual1.MLV" --dual-iso --size 320x160 --frames 12 >/dev/null
run wrong-segments 3 convert "$tmp/dual1.MLV" -o "$tmp/wrong" --levels "$tmp/dual-levels.json"
grep -q "dual-levels.json: its segments (settings changes) differ" "$tmp/wrong-segments.err" ||
    fail "wrong-segments message: $(cat "$tmp/wrong-segments.err")"
[ -z "$(find "$tmp/wrong" -type f 2>/dev/null)" ] || fail "a refused sidecar still wrote files"

finish
