#!/bin/bash
# Our DNGs next to mlv_dump's reference DNGs of the same clips ($MLVPIPE_SAMPLES/peer,
# README there): AsShotNeutral within 1e-4 of the reference for the Kelvin (mode 9) and the
# custom (mode 6) white balance, ColorMatrix1/2 and their illuminants equal; every other tag
# either equal (MUST_AGREE) or a known difference with its reason (ALLOWED below) — a tag in
# neither list fails, so a new difference cannot slip in. For movies, as-shot white balance
# of the Kelvin clip is exactly --wb 5500.
# usage: peer_dng.sh MLVPIPE
set -u
mlvpipe=$1
peer=${MLVPIPE_SAMPLES:-}/peer
[ -f "$peer/wb_kelvin_mlvdump_000000.dng" ] || { echo "no peer samples: skip"; exit 77; }
command -v exiftool >/dev/null || { echo "exiftool not installed: skip"; exit 77; }
. "$(dirname "$0")/lib.sh"

for wb in kelvin custom; do
    run "dng-$wb" 0 convert "$peer/wb_$wb.MLV" -o "$tmp/$wb"
    ours=$tmp/$wb/wb_$wb/wb_${wb}_000000.dng
    ref=$peer/wb_${wb}_mlvdump_000000.dng
    [ -f "$ours" ] || { fail "$wb: no DNG written"; continue; }
    read -r -a a < <(exiftool -n -s3 -AsShotNeutral "$ours")
    read -r -a b < <(exiftool -n -s3 -AsShotNeutral "$ref")
    [ "${#a[@]}" -eq 3 ] || { fail "$wb: AsShotNeutral missing (${a[*]:-})"; continue; }
    python3 -c '
import sys
a = [float(x) for x in sys.argv[1:4]]; b = [float(x) for x in sys.argv[4:7]]
worst = max(abs(x - y) for x, y in zip(a, b))
print(f"{sys.argv[7]}: AsShotNeutral ours {a}, mlv_dump {b}, max difference {worst:.2e}")
sys.exit(worst > 1e-4)' "${a[@]}" "${b[@]}" "$wb" || fail "$wb: AsShotNeutral differs by more than 1e-4"
    for tag in ColorMatrix1 ColorMatrix2 CalibrationIlluminant1 CalibrationIlluminant2; do
        x=$(exiftool -n -s3 -"$tag" "$ours") y=$(exiftool -n -s3 -"$tag" "$ref")
        [ -n "$y" ] && [ "$x" = "$y" ] || fail "$wb: $tag '$x', mlv_dump '$y'"
    done
done

# Tag by tag (exiftool -n, groups IFD0 and ExifIFD).
cat >"$tmp/compare.py" <<'PY'
import json, sys
MUST_AGREE = """SubfileType ImageWidth ImageHeight BitsPerSample Compression
PhotometricInterpretation Make Model Orientation SamplesPerPixel RowsPerStrip StripByteCounts
PlanarConfiguration ModifyDate CFARepeatPatternDim CFAPattern2 DNGVersion UniqueCameraModel
BlackLevel WhiteLevel DefaultScale DefaultCropOrigin DefaultCropSize ColorMatrix1 ColorMatrix2
BaselineExposure CameraSerialNumber CalibrationIlluminant1 CalibrationIlluminant2 ActiveArea
TimeCodes FrameRate BaselineExposureOffset ExposureTime FNumber ISO SensitivityType
ExifVersion FocalLength LensModel""".split()
ALLOWED = {   # tag: why ours differs from mlv_dump's (README "Files from other tools")
    "AsShotNeutral": "same method; mlv_dump rounds through floats (checked within 1e-4 above)",
    "StripOffsets": "the headers differ in size (different tag sets)",
    "Software": "the writer's name",
    "FillOrder": "mlv_dump writes the TIFF default 1; we omit it, which means 1",
    "DNGBackwardVersion": "we state 1.1.0.0 (optional); mlv_dump omits it",
    "BlackLevelRepeatDim": "we state the default 1 1 explicitly",
    "ForwardMatrix1": "not written: optional, readers derive it from ColorMatrix1",
    "ForwardMatrix2": "not written: optional, readers derive it from ColorMatrix2",
    "ReelName": "clip name without extension (cinemadng.md); mlv_dump keeps .MLV",
    "DNGPrivateData": "mlv_dump's private byte",
    "SubjectDistance": "LENS focalDist is in mm; mlv_dump writes the mm as metres (300 for 0.3 m)",
    "FocalPlaneXResolution": "not written: needs each body's sensor size (left undone)",
    "FocalPlaneYResolution": "not written: needs each body's sensor size (left undone)",
    "FocalPlaneResolutionUnit": "not written with the two above",
    "DateTimeOriginal": "written by us (RTCI + frame time), not by mlv_dump",
    "SubSecTimeOriginal": "written by us (frame time, ms), not by mlv_dump",
    "SerialNumber": "BodySerialNumber, written by us from IDNT, not by mlv_dump",
}
def tags(path):
    d = json.load(open(path))[0]
    return {k.split(":", 1)[1]: v for k, v in d.items()
            if k.split(":", 1)[0] in ("IFD0", "ExifIFD")}
ours, ref = tags(sys.argv[1]), tags(sys.argv[2])
bad = 0
for t in sorted(set(ours) | set(ref)):
    a, b = ours.get(t), ref.get(t)
    if t in MUST_AGREE:
        if a != b:
            print(f"FAIL {sys.argv[3]}: {t}: ours {a!r}, mlv_dump {b!r}"); bad += 1
    elif t in ALLOWED:
        if a != b:
            print(f"differs {sys.argv[3]}: {t}: ours {a!r}, mlv_dump {b!r} ({ALLOWED[t]})")
    else:
        print(f"FAIL {sys.argv[3]}: {t} in neither list: ours {a!r}, mlv_dump {b!r}"); bad += 1
missing = [t for t in MUST_AGREE if t not in ref]
if missing:
    print(f"FAIL {sys.argv[3]}: reference lacks {missing}"); bad += 1
sys.exit(bad > 0)
PY
for wb in kelvin custom; do
    ours=$tmp/$wb/wb_$wb/wb_${wb}_000000.dng
    ref=$peer/wb_${wb}_mlvdump_000000.dng
    exiftool -j -G1 -n -a "$ours" >"$tmp/ours.json" && exiftool -j -G1 -n -a "$ref" >"$tmp/ref.json" ||
        { fail "$wb: exiftool"; continue; }
    python3 "$tmp/compare.py" "$tmp/ours.json" "$tmp/ref.json" "$wb" || fail "$wb: tags differ"
done

# movies: as-shot on the Kelvin clip (mode 9, 5500 K) develops exactly like --wb 5500
run movie-asshot 0 convert "$peer/wb_kelvin.MLV" --to ffv1 -o "$tmp/asshot.mkv"
run movie-5500 0 convert "$peer/wb_kelvin.MLV" --to ffv1 -o "$tmp/5500.mkv" --wb 5500
run movie-5600 0 convert "$peer/wb_kelvin.MLV" --to ffv1 -o "$tmp/5600.mkv" --wb 5600
cmp -s "$tmp/asshot.mkv" "$tmp/5500.mkv" || fail "movie: as-shot differs from --wb 5500"
cmp -s "$tmp/asshot.mkv" "$tmp/5600.mkv" && fail "movie: --wb 5600 changes nothing"
run wb-range 2 convert "$peer/wb_kelvin.MLV" --to ffv1 -o "$tmp/x.mkv" --wb 1999
grep -q "2000 to 25000" "$tmp/wb-range.err" || fail "--wb 1999: $(cat "$tmp/wb-range.err")"
finish
