#!/usr/bin/env bash
# dcraw -D -4 must return exactly the raw values written, for every storage variant.
source "$(dirname "$0")/encode_lib.sh"
need dcraw
for v in $VARIANTS; do
  storage=${v%:*} bits=${v#*:}
  dir=$WORK/$storage-$bits
  write_seq "$dir" "$storage" "$bits" 512 256 40 2 pgm
  for n in 40 41; do
    dng=$dir/CLIP/CLIP_0000$n.dng
    dcraw -D -4 -c "$dng" > "$dir/dcraw.pgm" 2> "$dir/dcraw.err" || fail "dcraw failed on $dng"
    [ ! -s "$dir/dcraw.err" ] || fail "dcraw warned on $dng: $(cat "$dir/dcraw.err")"
    # Compare headers loosely (dcraw writes the same P5 512 256 65535) and samples exactly.
    [ "$(head -c 15 "$dir/dcraw.pgm" | tr '\n' ' ')" = "P5 512 256 6553" ] ||
      fail "$v: dcraw image header $(head -c 15 "$dir/dcraw.pgm" | tr '\n' ' ')"
    cmp <(tail -c $((512 * 256 * 2)) "$dir/dcraw.pgm") \
        <(tail -c $((512 * 256 * 2)) "$dir/expected/CLIP_0000$n.pgm") ||
      fail "$v: dcraw raw values differ from the frame written ($dng)"
  done
done
echo "dcraw: raw values bit-exact for $VARIANTS"
