#!/bin/bash
# A clip cut at every block boundary, and LJ92 frames with zeroed ranges (issue 14, item 12).
# Cuts: a clip with every header block kind (STYL ELVL INFO, a NULL and a MARK between
# frames) cut where each block starts: exit 3 while no frame is left (without RAWI, or
# header only), else 4 with the lost frames named (MLVI videoFrameCount) and exactly the
# frames before the cut written, each equal to the whole clip's; a cut inside a frame names
# that frame in info's damage, and info's frame count says one more was lost (#35); the
# whole file exits 0.
# Zeroed LJ92 ranges: 8 zero bytes at 10 places in frame 2: every other frame is written
# and equal to the undamaged clip's, the exit is 0 or 4, and 4 exactly when frame 2 is left
# out (no checksum guards an LJ92 stream: a zeroed range that still decodes to samples within
# the depth cannot be told from a picture; the count of those is printed).
# usage: robust_cuts.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
mutate="python3 $(dirname "$0")/mlv_mutate.py"
. "$(dirname "$0")/lib.sh"
asrec=(--no-focus-pixels --no-bad-pixels --no-stripes)

"$mlvsynth" -o "$tmp/c.MLV" --frames 5 --size 64x32 --header all >/dev/null || fail "synth c"
run c-ref 0 convert "$tmp/c.MLV" --to md5 "${asrec[@]}" -o "$tmp/c-ref.md5"
size=$(stat -c %s "$tmp/c.MLV")
frames=0
cuts=0
while read -r off tag; do
    cuts=$((cuts + 1))
    head -c "$off" "$tmp/c.MLV" >"$tmp/x.MLV"
    rm -f "$tmp/x.md5"
    "$mlvpipe" convert "$tmp/x.MLV" --to md5 "${asrec[@]}" -o "$tmp/x.md5" 2>"$tmp/x.err" \
        >/dev/null
    rc=$?
    if [ "$frames" -eq 0 ]; then
        [ "$rc" -eq 3 ] || fail "cut at $off ($tag): exit $rc with no frame left"
    else
        [ "$rc" -eq 4 ] || fail "cut at $off ($tag): exit $rc, expected 4"
        grep -q "x.MLV: offset $off: MLVI videoFrameCount is 5 but $frames VIDF blocks were found" \
            "$tmp/x.err" || fail "cut at $off ($tag): lost frames not named: $(head -c 300 "$tmp/x.err")"
        [ "$(cat "$tmp/x.md5")" = "$(head -n "$frames" "$tmp/c-ref.md5")" ] ||
            fail "cut at $off ($tag): not the first $frames frames of the whole clip"
    fi
    [ "$tag" = VIDF ] && frames=$((frames + 1))
done < <($mutate "$tmp/c.MLV" block-offsets)
[ "$frames" -eq 5 ] && [ "$cuts" -ge 17 ] || fail "only $cuts cuts, $frames frames"
# cut inside frame 3's block: info names the lost frame, not only the 3 frames left (#35)
off3=$($mutate "$tmp/c.MLV" block-offsets | awk '$2 == "VIDF" { if (n++ == 3) print $1 }')
head -c $((off3 + 100)) "$tmp/c.MLV" >"$tmp/m.MLV"
run cut-info 4 info "$tmp/m.MLV"
grep -q "^frames: *3 (numbers 0..2); 1 more recorded but lost to damage" "$tmp/cut-info.out" ||
    fail "cut info frames: $(grep frames: "$tmp/cut-info.out")"
"$mlvpipe" info --json "$tmp/m.MLV" | grep -q '"lost_frames": 1,' || fail "info --json: no lost_frames 1"
grep -q "m.MLV: offset $off3: VIDF block of .* block dropped; frame 3 lost" "$tmp/cut-info.out" ||
    fail "cut info: the lost frame not named: $(grep -A1 damage: "$tmp/cut-info.out")"
run whole 0 convert "$tmp/c.MLV" --to md5 "${asrec[@]}" -o "$tmp/whole.md5"
cmp -s "$tmp/whole.md5" "$tmp/c-ref.md5" || fail "whole clip differs"

"$mlvsynth" -o "$tmp/l.MLV" --frames 6 --size 64x32 --compress lj92 >/dev/null || fail "synth l"
run l-ref 0 convert "$tmp/l.MLV" --to md5 "${asrec[@]}" -o "$tmp/l-ref.md5"
grep -v '^2 ' "$tmp/l-ref.md5" >"$tmp/l-others.md5"
detected=0 undetected=0
payload=$($mutate "$tmp/l.MLV" payload-offset 2)
for at in $(seq 40 240 2400); do
    cp "$tmp/l.MLV" "$tmp/z.MLV"
    dd if=/dev/zero of="$tmp/z.MLV" bs=1 count=8 seek=$((payload + at)) conv=notrunc \
        2>/dev/null || fail "zero at $at"
    rm -f "$tmp/z.md5"
    "$mlvpipe" convert "$tmp/z.MLV" --to md5 "${asrec[@]}" -o "$tmp/z.md5" 2>"$tmp/z.err" \
        >/dev/null
    rc=$?
    [ "$(grep -v '^2 ' "$tmp/z.md5")" = "$(cat "$tmp/l-others.md5")" ] ||
        fail "zero at $at: another frame changed or is missing"
    if [ "$rc" -eq 4 ]; then
        grep -q '^2 ' "$tmp/z.md5" && fail "zero at $at: exit 4 but frame 2 written"
        grep -q "z.MLV: offset [0-9]*: frame 2: " "$tmp/z.err" ||
            fail "zero at $at: damage not named: $(head -c 300 "$tmp/z.err")"
        detected=$((detected + 1))
    elif [ "$rc" -eq 0 ]; then
        grep -qxFf "$tmp/l-ref.md5" <(grep '^2 ' "$tmp/z.md5") ||
            undetected=$((undetected + 1))
    else
        fail "zero at $at: exit $rc ($(head -c 300 "$tmp/z.err"))"
    fi
done
echo "zeroed LJ92 ranges: $detected detected, $undetected decoded to other samples within the depth"
[ "$detected" -ge 3 ] || fail "only $detected of 10 zeroed ranges detected"
finish
