#!/bin/bash
# flicker_check reads only what it can measure correctly: DNGs whose compression, size,
# ActiveArea or strips are not those of the clip, a missing frame, a non-static clip are
# refused (exit 2, one line naming the file), damaged tags never crash; a single frame whose
# BlackLevel is off by one 14-bit DN (as cr2hdr's integer black) makes the check fail
# (exit 1) on the DNG path itself.
# usage: flicker_reject.sh MLVSYNTH MLVPIPE FLICKER_CHECK
set -u
mlvsynth=$1
mlvpipe=$2
check=$3
. "$(dirname "$0")/lib.sh"

# expect NAME EXIT PATTERN DIR: flicker_check on DIR exits EXIT with PATTERN in its output
expect() {
    local name=$1 want=$2 pattern=$3 dir=$4
    "$check" "$tmp/c.truth.json" "$dir" >"$tmp/$name.txt" 2>&1
    local rc=$?
    [ "$rc" -eq "$want" ] || fail "$name: exit $rc, expected $want: $(tail -2 "$tmp/$name.txt")"
    grep -q -- "$pattern" "$tmp/$name.txt" ||
        fail "$name: no '$pattern' in: $(cat "$tmp/$name.txt")"
}

# patch FILE TAG INDEX VALUE: sets value INDEX of a SHORT/LONG tag of IFD0 (little-endian)
patch() {
    python3 - "$@" <<'EOF'
import struct, sys
path, tag, index, value = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
b = bytearray(open(path, 'rb').read())
assert b[:4] == b'II*\0'
ifd = struct.unpack_from('<I', b, 4)[0]
for i in range(struct.unpack_from('<H', b, ifd)[0]):
    e = ifd + 2 + 12 * i
    t, typ, count = struct.unpack_from('<HHI', b, e)
    if t != tag:
        continue
    size = {3: 2, 4: 4}[typ]
    at = e + 8 if size * count <= 4 else struct.unpack_from('<I', b, e + 8)[0]
    struct.pack_into('<H' if size == 2 else '<I', b, at + size * index, value)
    open(path, 'wb').write(b)
    sys.exit(0)
sys.exit('tag %d not found' % tag)
EOF
}

"$mlvsynth" -o "$tmp/c.MLV" --dual-iso --size 320x200 --frames 6 >/dev/null || fail "mlvsynth"
"$mlvpipe" convert "$tmp/c.MLV" -o "$tmp/out" --threads 2 >/dev/null 2>&1 || fail "convert"
good="$tmp/out/c"
first=$(ls "$good" | head -1)
copy() { rm -rf "$tmp/$1"; cp -r "$good" "$tmp/$1"; echo "$tmp/$1/$first"; }

expect intact 0 "PASS" "$good"

f=$(copy compressed); patch "$f" 259 0 7
expect compressed 2 "Compression is 7" "$tmp/compressed"
f=$(copy active); patch "$f" 50829 1 70
expect active 2 "ActiveArea 28 70" "$tmp/active"
f=$(copy truncated); truncate -s -1000 "$f"
expect truncated 2 "strip 0" "$tmp/truncated"
f=$(copy header); printf 'XX' | dd of="$f" conv=notrunc status=none
expect header 2 "not a TIFF header" "$tmp/header"
f=$(copy missing); rm "$f"
expect missing 2 "5 DNG files, the clip has 6" "$tmp/missing"
# one frame's black 4 DN16 (1 DN14) low: its shadows come out 1 DN14 brighter
f=$(copy black); patch "$f" 50714 0 8188
expect black 1 "^\[2,5).*FAIL" "$tmp/black"

# damaged tag area (seeded random bytes in the first 900): refused or measured, never a crash
# or a sanitizer report
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=99"
for seed in $(seq 1 30); do
    f=$(copy fuzz)
    python3 -c "
import random, sys
r = random.Random($seed)
b = bytearray(open(sys.argv[1], 'rb').read())
for _ in range(r.randint(1, 8)):
    b[r.randrange(900)] = r.randrange(256)
open(sys.argv[1], 'wb').write(b)" "$f"
    "$check" "$tmp/c.truth.json" "$tmp/fuzz" >"$tmp/fuzz.txt" 2>&1
    rc=$?
    [ "$rc" -le 2 ] && ! grep -q "runtime error\|Sanitizer" "$tmp/fuzz.txt" ||
        fail "damaged tags (seed $seed): exit $rc: $(tail -3 "$tmp/fuzz.txt")"
done

"$mlvsynth" -o "$tmp/j.MLV" --dual-iso --size 320x200 --frames 6 --illum-sigma 0.1 \
    >/dev/null || fail "mlvsynth jitter"
"$check" "$tmp/j.truth.json" "$good" >"$tmp/jitter.txt" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q "static clip" "$tmp/jitter.txt" ||
    fail "jittered clip: exit $rc: $(cat "$tmp/jitter.txt")"

finish
