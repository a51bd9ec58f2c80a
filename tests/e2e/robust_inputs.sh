#!/bin/bash
# Inputs are never destroyed and never hang a run (issue 14, items 1 and 7): an output that
# is the clip, one of its chunks (by name or by hard link), the levels sidecar, a join
# segment or a path inside the cache folder is refused with exit 2 before anything is
# written, and so is one that names a FIFO or a device; every input keeps its bytes. A FIFO
# given as the clip, the levels sidecar or a cache entry is refused (or, for a cache entry,
# recomputed) instead of waited on.
# usage: robust_inputs.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"

"$mlvsynth" -o "$tmp/c.MLV" --frames 3 --size 64x32 >/dev/null || fail "mlvsynth c"
"$mlvsynth" -o "$tmp/s.MLV" --frames 4 --size 64x32 --chunk-frames 2 >/dev/null ||
    fail "mlvsynth s"
"$mlvsynth" -o "$tmp/d.MLV" --dual-iso --size 160x80 --frames 3 >/dev/null || fail "mlvsynth d"
sums() { md5sum "$tmp"/*.MLV "$tmp"/*.M0? "$tmp/lv.json" 2>/dev/null; }
run analyze 0 analyze "$tmp/d.MLV" -o "$tmp/lv.json"
before=$(sums)

# refused: run NAME 2 ..., then the message says why
refused() {
    local name=$1 why=$2
    shift 2
    run "$name" 2 "$@"
    grep -q "$why" "$tmp/$name.err" || fail "$name: no '$why' in: $(head -c 300 "$tmp/$name.err")"
}
refused self-ffv1 "input of this run" convert "$tmp/c.MLV" -o "$tmp/c.MLV" --to ffv1 --overwrite
refused self-md5 "input of this run" convert "$tmp/c.MLV" -o "$tmp/c.MLV" --to md5 --overwrite
refused chunk-nut "input of this run" convert "$tmp/s.MLV" -o "$tmp/s.M00" --to nut --overwrite
ln "$tmp/c.MLV" "$tmp/link.mkv"
refused hardlink "input of this run" convert "$tmp/c.MLV" -o "$tmp/link.mkv" --to ffv1 --overwrite
refused analyze-self "input of this run" analyze "$tmp/c.MLV" -o "$tmp/c.MLV" --overwrite
refused sidecar "input of this run" convert "$tmp/d.MLV" --levels "$tmp/lv.json" \
    -o "$tmp/lv.json" --to md5 --overwrite
mkdir -p "$tmp/C"
refused cache "inside the cache folder" convert "$tmp/d.MLV" --cache "$tmp/C" \
    -o "$tmp/C/out.md5" --to md5 --overwrite
mkfifo "$tmp/out.fifo"
refused fifo-out "not a regular file" convert "$tmp/c.MLV" -o "$tmp/out.fifo" --to nut --overwrite
[ -p "$tmp/out.fifo" ] || fail "the output FIFO was replaced"
refused dev-out "not a regular file" convert "$tmp/c.MLV" -o /dev/null --to nut --overwrite
[ -c /dev/null ] || fail "/dev/null is no longer a device"
run seg 0 convert "$tmp/c.MLV" -o "$tmp/seg.mkv" --to ffv1
ln "$tmp/seg.mkv" "$tmp/seg2.mkv"
segsum=$(md5sum <"$tmp/seg.mkv")
refused join-seg "input of this run" join --overwrite "$tmp/seg2.mkv" "$tmp/seg.mkv"
[ "$(md5sum <"$tmp/seg.mkv")" = "$segsum" ] || fail "join: segment changed"
[ "$(sums)" = "$before" ] || fail "an input changed: $(diff <(echo "$before") <(sums))"
[ -z "$(find "$tmp" -name '.*.part')" ] || fail "temporary files left: $(find "$tmp" -name '.*.part')"

# FIFOs as inputs: refused at once (timeout 20 s would mean a hang: exit 124)
mkfifo "$tmp/f.MLV" "$tmp/flv.json"
timeout 20 "$mlvpipe" info "$tmp/f.MLV" >/dev/null 2>&1
[ $? -eq 3 ] || fail "info of a FIFO clip: not exit 3"
timeout 20 "$mlvpipe" convert "$tmp/f.MLV" -o "$tmp/x" >/dev/null 2>&1
[ $? -eq 3 ] || fail "convert of a FIFO clip: not exit 3"
timeout 20 "$mlvpipe" convert "$tmp/d.MLV" --levels "$tmp/flv.json" -o "$tmp/x" \
    >/dev/null 2>"$tmp/fifo-levels.err"
rc=$?
[ $rc -eq 3 ] || fail "--levels FIFO: exit $rc, expected 3 ($(cat "$tmp/fifo-levels.err"))"
run cold 0 convert "$tmp/d.MLV" --to md5 -o "$tmp/cold.md5" --cache "$tmp/C"
entry=$(find "$tmp/C" -name 00000001.mpc)
[ -f "$entry" ] || fail "no cache entry for frame 1"
rm -f "$entry" && mkfifo "$entry"
timeout 20 "$mlvpipe" convert "$tmp/d.MLV" --to md5 -o "$tmp/warm.md5" --cache "$tmp/C" \
    >/dev/null 2>"$tmp/fifo-entry.err"
rc=$?
[ $rc -eq 0 ] || fail "cache entry FIFO: exit $rc, expected 0 ($(cat "$tmp/fifo-entry.err"))"
grep -q "not a regular file" "$tmp/fifo-entry.err" || fail "cache entry FIFO: no warning"
cmp -s "$tmp/cold.md5" "$tmp/warm.md5" || fail "cache entry FIFO: output differs"
finish
