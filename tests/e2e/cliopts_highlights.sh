#!/bin/bash
# mlvpipe convert --highlights for movies (issue 15): on a dual-ISO clip whose bright end
# clips, pushed +5 EV so more of it reaches the top of the curve, `blend` (the default)
# leaves no pixel at the top code in one channel but tinted in another (mint, cyan, yellow,
# magenta), nor does `reconstruct`, while `clip` does (so the check can fail); blend and clip
# differ, blend is the default, and a bad value is a usage error (exit 2). Pixels read from
# the rgb48le output.
# usage: cliopts_highlights.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 not installed"; exit 77; }

"$mlvsynth" -o "$tmp/dual.MLV" --dual-iso --content dualiso --size 192x108 --frames 2 \
    >/dev/null || fail "mlvsynth dual"

# tinted FILE: pixels with a channel at the top code and another below 90 % of it
tinted() {
    python3 - "$1" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
n = 0
for i in range(0, len(data) - 5, 6):
    c = struct.unpack_from('<3H', data, i)
    n += max(c) >= 65535 and min(c) < 0.9 * 65535
print(n)
PY
}

for h in default blend clip reconstruct; do
    opt=()
    [ "$h" = default ] || opt=(--highlights "$h")
    run "$h" 0 convert "$tmp/dual.MLV" -o "$tmp/$h.rgb" --to rawvideo --exposure 5 "${opt[@]}"
    [ -s "$tmp/$h.rgb" ] || fail "--highlights $h: no output"
done
cmp -s "$tmp/default.rgb" "$tmp/blend.rgb" || fail "blend is not the default"
cmp -s "$tmp/blend.rgb" "$tmp/clip.rgb" && fail "blend and clip give the same picture"
n_blend=$(tinted "$tmp/blend.rgb")
n_clip=$(tinted "$tmp/clip.rgb")
n_rec=$(tinted "$tmp/reconstruct.rgb")
[ "$n_blend" -eq 0 ] || fail "blend: $n_blend pixels clipped in one channel, tinted in another"
[ "$n_rec" -eq 0 ] || fail "reconstruct: $n_rec pixels clipped in one channel, tinted in another"
[ "$n_clip" -gt 0 ] || fail "clip: no tinted clipped pixel, the check cannot fail"
echo "tinted clipped pixels: blend $n_blend, reconstruct $n_rec, clip $n_clip"
run bad 2 convert "$tmp/dual.MLV" -o "$tmp/bad.rgb" --to rawvideo --highlights soft
grep -q -- "--highlights takes blend, clip or reconstruct" "$tmp/bad.err" || fail "bad value: no message"
finish
