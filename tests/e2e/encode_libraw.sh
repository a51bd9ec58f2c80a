#!/usr/bin/env bash
# LibRaw (raw-identify, dcraw_emu) opens every variant and sees the geometry and levels.
# White balance: WBAL mode 0 (auto) at 5500 K on a 5D Mark III means the Kelvin neutral
# (AsShotNeutral 0.480068 1 0.636513, as mlv_dump writes it); LibRaw shows its inverse.
source "$(dirname "$0")/encode_lib.sh"
need raw-identify dcraw_emu
for v in $VARIANTS; do
  storage=${v%:*} bits=${v#*:}
  dir=$WORK/$storage-$bits
  write_seq "$dir" "$storage" "$bits" 512 256 0 1
  dng=$dir/CLIP/CLIP_000000.dng
  id=$(raw-identify -v "$dng" 2>&1) || fail "raw-identify failed on $v: $id"
  for want in "Camera: Canon EOS 5D Mark III" "DNG Version: 1.4.0.0" \
              "Filter pattern: RGGBRGGBRGGBRGGB" "Image size:   512 x 256" \
              "As shot                   2.08304 1 1.57106" "DNG Illuminant 1: Illuminant A" \
              "DNG Illuminant 2: D65"; do
    grep -qF "$want" <<<"$id" || fail "$v: raw-identify lacks '$want': $id"
  done
  black=$((2048 >> (14 - (bits < 14 ? bits : 14))))
  grep -qE "^black: $black$" <<<"$id" || fail "$v: raw-identify black is not $black: $id"
  out=$(dcraw_emu -T -4 -Z "$dir/out.tiff" "$dng" 2>&1) || fail "dcraw_emu failed on $v: $out"
  [ -s "$dir/out.tiff" ] || fail "dcraw_emu wrote nothing for $v"
done
echo "LibRaw: identified and decoded $VARIANTS"
