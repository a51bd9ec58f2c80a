#!/usr/bin/env bash
# darktable (rawspeed: strict about DNGVersion, CFA tags, PhotometricInterpretation) and
# RawTherapee (rejects tiny images: 512 x 256 frames) open and export every variant.
# MP_DNG_LJ92 (predictor 6) is expected to fail in darktable 4.2: rawspeed decodes
# predictor 1 only, which is why MP_DNG_LJ92_2C exists.
source "$(dirname "$0")/encode_lib.sh"
need darktable-cli rawtherapee-cli
export HOME=$WORK/home
mkdir -p "$HOME"
for v in $VARIANTS; do
  storage=${v%:*} bits=${v#*:}
  write_seq "$WORK/$v" "$storage" "$bits" 512 256 0 1
  dng=$WORK/$v/CLIP/CLIP_000000.dng
  out=$(rawtherapee-cli -o "$WORK/$v-rt.tif" -t -Y -c "$dng" 2>&1) ||
    fail "rawtherapee-cli failed on $v: $out"
  [ -s "$WORK/$v-rt.tif" ] || fail "rawtherapee-cli wrote nothing for $v"
  out=$(darktable-cli "$dng" "$WORK/$v-dt.tif" --core --library :memory: \
          --configdir "$WORK/dtconf" 2>&1) && [ -s "$WORK/$v-dt.tif" ] && dt=ok || dt=failed
  if [ "$storage" = lj92 ]; then
    [ $dt = failed ] && grep -q "Unsupported predictor mode: 6" <<<"$out" ||
      fail "darktable and LJ92 predictor 6: expected the known rawspeed refusal, got $dt: $out"
  else
    [ $dt = ok ] || fail "darktable-cli failed on $v: $out"
    ! grep -qi "rawspeed" <<<"$out" || fail "darktable warned on $v: $out"
  fi
done
echo "darktable and RawTherapee: all variants export (darktable: LJ92 predictor 6 refused as known)"
