#!/bin/bash
# Colour (issue #35 items 1-3), judged by outside readers:
#   --lut: an identity cube (3D, and 1D) leaves every byte of TIFF and FFV1 as it was; a cube
#   that swaps red and blue swaps them in the movie, the NUT pipe and the EXR ffmpeg decodes; malformed cubes are
#   refused (exit 3) with one line naming the file and line; a LUT on DNG is a usage error;
#   the LUT leaves the movie's primaries and curve unspecified; threads change nothing.
#   OpenEXR: the default is scene-linear (the same bytes as --curve linear), its header holds
#   the gamut's chromaticities (exrheader) and "gamma 1" only when linear.
#   TIFF: exiftool reads the ICC profile (description, white, matrix columns of AWG4), and
#   Little CMS converts through it as the pixels mean.
#   Movies: ffprobe reads color_primaries/color_trc of each tagged curve and gamut, and
#   ProRes the colorspace (matrix) its encoder used.
#   Pipes: NUT on stdout keeps the PCM track and -v prints the tags as ffmpeg input options
#   (NUT has none); FFV1 on stdout (Matroska) keeps the tags and the PCM through ffmpeg -i -,
#   and so does movraw (raw RGB in fragmented MOV), with the same pictures and sound.
# usage: colour.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$(realpath "$1")
mlvsynth=$(realpath "$2")
. "$(dirname "$0")/lib.sh"
need ffmpeg ffprobe exiftool python3
cd "$tmp" || exit 1
"$mlvsynth" -o C.MLV --size 64x48 --frames 2 --audio >/dev/null || { fail "mlvsynth"; finish; }

python3 - <<'PY'
def cube(name, size, f, head=""):
    with open(name, "w") as o:
        o.write("# written by colour.sh\nTITLE \"%s\"\n%sLUT_3D_SIZE %d\n" % (name, head, size))
        o.write("DOMAIN_MIN 0.0 0.0 0.0\nDOMAIN_MAX 1.0 1.0 1.0\n\n")
        n = size - 1
        for b in range(size):
            for g in range(size):
                for r in range(size):
                    o.write("%.6f %.6f %.6f\n" % f(r / n, g / n, b / n))
cube("identity.cube", 17, lambda r, g, b: (r, g, b))
cube("swap.cube", 2, lambda r, g, b: (b, g, r))
with open("identity1d.cube", "w") as o:
    o.write("LUT_1D_SIZE 4\n")
    for i in range(4):
        o.write("%.9f %.9f %.9f\n" % ((i / 3,) * 3))
bad = {
    "letters.cube": "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 zero\n",
    "short.cube": "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n",
    "size.cube": "TITLE \"x\"\nLUT_3D_SIZE 1000\n",
    "keyword.cube": "LUT_3D_SIZE 2\nLUT_IN_VIDEO_RANGE\n",
    "empty.cube": "# nothing\n",
}
for name, text in bad.items():
    open(name, "w").write(text)
PY

# decoded NAME MOVIE: the first picture as rgb48le into NAME.rgb
decoded() { ffmpeg -nostdin -v error -i "$2" -map 0:v -frames:v 1 -f rawvideo -pix_fmt rgb48le "$1.rgb"; }
# tags MOVIE: "primaries/trc" as ffprobe reads them
tags() {
    local p t
    p=$(ffprobe -v error -select_streams v -show_entries stream=color_primaries -of csv=p=0 "$1")
    t=$(ffprobe -v error -select_streams v -show_entries stream=color_transfer -of csv=p=0 "$1")
    echo "$p/$t"
}

# --lut: identity and channel swap
run plain-tiff 0 convert C.MLV --to tiff -o plain --no-audio
run id-tiff 0 convert C.MLV --to tiff -o id --no-audio --lut identity.cube
# the graded TIFF has no ICC profile: its strip (the last bytes) must be the same bytes
python3 - plain/C/C_000000.tiff id/C/C_000000.tiff <<'PY' || fail "identity cube: TIFF pixels differ"
import sys
a, b = (open(p, "rb").read() for p in sys.argv[1:])
n = 64 * 48 * 6
sys.exit(a[-n:] != b[-n:])
PY
run plain-ffv1 0 convert C.MLV --to ffv1 -o plain.mkv --no-audio
run id-ffv1 0 convert C.MLV --to ffv1 -o id.mkv --no-audio --lut identity.cube --threads 1
run id1d-ffv1 0 convert C.MLV --to ffv1 -o id1d.mkv --no-audio --lut identity1d.cube
run swap-ffv1 0 convert C.MLV --to ffv1 -o swap.mkv --no-audio --lut swap.cube --threads 2
run swap-ffv1-1 0 convert C.MLV --to ffv1 -o swap1.mkv --no-audio --lut swap.cube --threads 1
for m in plain id id1d swap; do decoded "$m" "$m.mkv" || fail "ffmpeg cannot decode $m.mkv"; done
cmp -s plain.rgb id.rgb || fail "identity 3D cube changed the movie's pixels"
cmp -s plain.rgb id1d.rgb || fail "identity 1D cube changed the movie's pixels"
# swapped PLAIN.rgb SWAP.rgb TOLERANCE: red and blue of every pixel traded (within TOLERANCE
# codes), and some pixels where that shows
swapped() {
    python3 - "$@" <<'PY'
import struct, sys
a, b = (open(p, "rb").read() for p in sys.argv[1:3])
tol = int(sys.argv[3])
A = struct.unpack("<%dH" % (len(a) // 2), a)
B = struct.unpack("<%dH" % (len(b) // 2), b)
lit = sum(1 for i in range(0, len(A), 3) if abs(A[i] - A[i + 2]) > 8 * tol)
bad = sum(1 for i in range(0, len(A), 3)
          if max(abs(B[i] - A[i + 2]), abs(B[i + 1] - A[i + 1]), abs(B[i + 2] - A[i])) > tol)
print("swap %s: %d of %d pixels with red != blue, %d not swapped" % (sys.argv[2], lit, len(A) // 3, bad))
sys.exit(len(A) != len(B) or bad != 0 or lit == 0)
PY
}
swapped plain.rgb swap.rgb 0 || fail "swap cube: red and blue not swapped"
[ "$(tags swap.mkv)" = "unknown/unknown" ] || fail "a LUT's movie is tagged $(tags swap.mkv)"
[ "$(tags plain.mkv)" = "bt709/bt709" ] || fail "plain movie tagged $(tags plain.mkv)"
cmp -s swap.mkv swap1.mkv || fail "swap cube: --threads 1 and 2 differ"

# ... in a pipe (NUT) and in OpenEXR too (half floats: within 0.1 %)
for lut in "" "--lut swap.cube"; do
    # shellcheck disable=SC2086
    "$mlvpipe" convert C.MLV --to nut -o - --no-audio $lut 2>/dev/null |
        ffmpeg -nostdin -v error -f nut -i - -frames:v 1 -f rawvideo -pix_fmt rgb48le \
            "nut${lut:+-swap}.rgb" || fail "nut pipe $lut"
    # shellcheck disable=SC2086
    "$mlvpipe" convert C.MLV --to exr -o "exr-lut${lut:+-swap}" --no-audio $lut 2>/dev/null ||
        fail "exr $lut"
    ffmpeg -nostdin -v error -i "exr-lut${lut:+-swap}/C/C_000000.exr" -f rawvideo \
        -pix_fmt rgb48le "exr${lut:+-swap}.rgb" || fail "ffmpeg cannot decode the EXR $lut"
done
swapped nut.rgb nut-swap.rgb 0 || fail "swap cube: not swapped in the NUT pipe"
swapped exr.rgb exr-swap.rgb 64 || fail "swap cube: not swapped in the EXR"

# malformed cubes: exit 3, one line naming the file and the line
check_bad() {
    local name=$1 want=$2
    run "bad-$name" 3 convert C.MLV --to ffv1 -o "bad-$name.mkv" --no-audio --lut "$name.cube"
    [ "$(wc -l <"$tmp/bad-$name.err")" -eq 1 ] || fail "$name: not one line: $(cat "$tmp/bad-$name.err")"
    grep -qF -- "$want" "$tmp/bad-$name.err" || fail "$name: '$want' not in: $(cat "$tmp/bad-$name.err")"
    [ ! -e "bad-$name.mkv" ] || fail "$name: a movie was left"
}
check_bad letters "letters.cube:4: a table row needs three numbers: 0 1 zero"
check_bad short "short.cube:3: 2 table rows, the sizes say 8"
check_bad size "size.cube:2: LUT_3D_SIZE needs one size from 2 to 256"
check_bad keyword "keyword.cube:2: unknown keyword: LUT_IN_VIDEO_RANGE"
check_bad empty "empty.cube: no LUT_1D_SIZE or LUT_3D_SIZE"
run missing 3 convert C.MLV --to ffv1 -o missing.mkv --no-audio --lut nothere.cube
grep -q "nothere.cube: No such file" "$tmp/missing.err" || fail "missing cube: $(cat "$tmp/missing.err")"
run lut-dng 2 convert C.MLV -o dng --lut identity.cube
grep -q -- "--lut applies a LUT to the developed picture" "$tmp/lut-dng.err" ||
    fail "lut on dng: $(cat "$tmp/lut-dng.err")"

# OpenEXR: scene-linear by default, chromaticities of the gamut
run exr 0 convert C.MLV --to exr -o exr --no-audio
run exr-linear 0 convert C.MLV --to exr -o exr-linear --no-audio --curve linear
diff -r exr exr-linear >/dev/null || fail "--to exr is not --curve linear by default"
run exr-709 0 convert C.MLV --to exr -o exr-709 --no-audio --curve bt709
diff -r exr exr-709 >/dev/null && fail "--curve bt709 made the same EXR as the default"
run exr-dwg 0 convert C.MLV --to exr -o exr-dwg --no-audio --gamut dwg --curve davinci
chroma=$(exiftool -s3 -Chromaticities exr-dwg/C/C_000000.exr)
python3 - "$chroma" <<'PY' || fail "EXR chromaticities of DWG: '$chroma'"
import sys
v = [float(x) for x in sys.argv[1].split()]
want = [0.8, 0.313, 0.1682, 0.9877, 0.079, -0.1155, 0.3127, 0.329]
sys.exit(len(v) != 8 or max(abs(a - b) for a, b in zip(v, want)) > 1e-6)
PY
[ -z "$(exiftool -s3 -Gamma exr-dwg/C/C_000000.exr)" ] || fail "a DaVinci Intermediate EXR says gamma 1"
[ "$(exiftool -s3 -Gamma exr/C/C_000000.exr)" = 1 ] || fail "a linear EXR lost its gamma 1"
if command -v exrheader >/dev/null; then
    exrheader exr/C/C_000000.exr | grep -q "white (0.3127 0.329)" ||
        fail "exrheader: no Rec.709 chromaticities: $(exrheader exr/C/C_000000.exr)"
fi

# TIFF: the ICC profile says the gamut and curve
run tiff-awg4 0 convert C.MLV --to tiff -o awg4 --no-audio --gamut awg4 --curve logc4
icc=$(exiftool -s -ProfileDescription -MediaWhitePoint -RedMatrixColumn -ProfileVersion \
      awg4/C/C_000000.tiff)
grep -q "ProfileDescription *: mlvpipe: ARRI Wide Gamut 4, ARRI LogC4" <<<"$icc" ||
    fail "TIFF ICC description: $icc"
grep -q "MediaWhitePoint *: 0.95045 1 1.08905" <<<"$icc" || fail "TIFF ICC white (D65): $icc"
# AWG4's red column (ARRI: X 0.704858, Y 0.254524, Z 0) adapted to D50 with Bradford
grep -q "RedMatrixColumn *: 0.74442 0.27293 -0.00269" <<<"$icc" || fail "TIFF ICC red: $icc"
[ -z "$(exiftool -s3 -ProfileDescription id/C/C_000000.tiff)" ] ||
    fail "a TIFF graded by a LUT carries a profile"
# Little CMS (a colour engine, present wherever LibRaw is) takes the profiles: Rec.709 with
# the sRGB curve is sRGB, so colours come out as they went in; linear Rec.2020 grey 0.5 is
# sRGB 0.7354
run tiff-srgb 0 convert C.MLV --to tiff -o srgb --no-audio --gamut rec709 --curve srgb
run tiff-2020 0 convert C.MLV --to tiff -o r2020 --no-audio --gamut rec2020 --curve linear
exiftool -b -ICC_Profile srgb/C/C_000000.tiff >srgb.icc
exiftool -b -ICC_Profile r2020/C/C_000000.tiff >r2020.icc
python3 - <<'PY'
import ctypes, ctypes.util, sys
name = ctypes.util.find_library("lcms2")
if not name:
    print("skip: liblcms2 not found, the profiles not checked by Little CMS")
    sys.exit(0)
L = ctypes.CDLL(name)
L.cmsOpenProfileFromMem.restype = L.cmsCreate_sRGBProfile.restype = ctypes.c_void_p
L.cmsCreateTransform.restype = ctypes.c_void_p
L.cmsOpenProfileFromMem.argtypes = [ctypes.c_char_p, ctypes.c_uint32]
L.cmsCreateTransform.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p,
                                 ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32]
L.cmsDoTransform.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32]
RGB_DBL = (1 << 22) | (4 << 16) | (3 << 3)   # TYPE_RGB_DBL
srgb = L.cmsCreate_sRGBProfile()
def to_srgb(path, rgb):
    data = open(path, "rb").read()
    p = L.cmsOpenProfileFromMem(data, len(data))
    if not p:
        sys.exit("Little CMS refused " + path)
    t = L.cmsCreateTransform(p, RGB_DBL, srgb, RGB_DBL, 1, 0)   # relative colorimetric
    i, o = (ctypes.c_double * 3)(*rgb), (ctypes.c_double * 3)()
    L.cmsDoTransform(t, i, o, 1)
    return list(o)
bad = 0
for rgb in ((0.5, 0.5, 0.5), (0.9, 0.1, 0.1), (0.2, 0.4, 0.6)):
    got = to_srgb("srgb.icc", rgb)
    bad += max(abs(a - b) for a, b in zip(got, rgb)) > 2e-3
got = to_srgb("r2020.icc", (0.5, 0.5, 0.5))
bad += max(abs(a - 0.7354) for a in got) > 2e-3
sys.exit(bad)
PY
[ $? -eq 0 ] || fail "Little CMS: the profiles do not say what the pixels are"

# movies: the tags of every curve and gamut libavutil can name
while read -r gamut curve want; do
    run "mov-$gamut-$curve" 0 convert C.MLV --to ffv1 -o "$gamut-$curve.mkv" --no-audio \
        --gamut "$gamut" --curve "$curve"
    [ "$(tags "$gamut-$curve.mkv")" = "$want" ] ||
        fail "$gamut $curve: tagged $(tags "$gamut-$curve.mkv"), expected $want"
done <<'LIST'
rec709 srgb bt709/iec61966-2-1
rec709 linear bt709/linear
rec2020 bt709 bt2020/bt2020-10
rec2020 logc3 bt2020/unknown
awg4 logc4 unknown/unknown
aces linear unknown/linear
LIST

# Y'CbCr movies also state the matrix their encoder used (BT.2020 non-constant for rec2020)
run prores 0 convert C.MLV --to prores422proxy -o r2020.mov --no-audio --gamut rec2020 \
    --curve srgb
csp=$(ffprobe -v error -select_streams v -show_entries stream=color_space -of csv=p=0 r2020.mov)
[ "$(tags r2020.mov)/$csp" = "bt2020/iec61966-2-1/bt2020nc" ] ||
    fail "ProRes rec2020 srgb tagged $(tags r2020.mov)/$csp"

# pipes: NUT keeps the PCM, FFV1 (Matroska) the colour tags
"$mlvpipe" convert C.MLV --to nut -o - 2>nut.err | ffprobe -v error -show_entries \
    stream=codec_type -of csv=p=0 - >nut.streams 2>&1 || fail "nut pipe: $(cat nut.err)"
[ "$(sort nut.streams | tr '\n' ' ')" = "audio video " ] || fail "nut pipe streams: $(cat nut.streams)"
"$mlvpipe" convert C.MLV --to ffv1 -o - --gamut rec2020 --curve linear 2>pipe.err |
    ffmpeg -nostdin -v error -i - -c copy -f matroska piped.mkv || fail "ffv1 pipe: $(cat pipe.err)"
[ "$(tags piped.mkv)" = "bt2020/linear" ] || fail "ffv1 pipe tagged $(tags piped.mkv)"
[ "$(ffprobe -v error -select_streams a -show_entries stream=codec_name -of csv=p=0 piped.mkv)" = \
    pcm_s16le ] || fail "ffv1 pipe: ffmpeg -i - lost the PCM"
# movraw (raw RGB in fragmented MOV) keeps tags and PCM through ffmpeg -i -, losslessly
"$mlvpipe" convert C.MLV --to movraw -o - --gamut rec2020 --curve linear --threads 1 \
    2>raw.err >raw1.mov || fail "movraw pipe: $(cat raw.err)"
"$mlvpipe" convert C.MLV --to movraw -o - --gamut rec2020 --curve linear --threads 2 \
    2>raw.err >raw2.mov || fail "movraw pipe: $(cat raw.err)"
cmp -s raw1.mov raw2.mov || fail "movraw: --threads 1 and 2 differ"
ffmpeg -nostdin -v error -i - -map 0:v -map 0:a -c:v ffv1 -c:a copy viaraw.mkv <raw1.mov ||
    fail "ffmpeg cannot read the movraw pipe"
[ "$(tags viaraw.mkv)" = "bt2020/linear" ] || fail "movraw pipe tagged $(tags viaraw.mkv)"
for m in piped viaraw; do
    ffmpeg -nostdin -v error -i "$m.mkv" -map 0:v -f rawvideo -pix_fmt rgb48le "$m.all.rgb"
    ffmpeg -nostdin -v error -i "$m.mkv" -map 0:a -f s16le "$m.pcm"
done
cmp -s piped.all.rgb viaraw.all.rgb || fail "movraw pipe: the pictures differ from FFV1's"
cmp -s piped.pcm viaraw.pcm && [ -s piped.pcm ] || fail "movraw pipe: the PCM differs from FFV1's"
run movraw-plan 2 plan C.MLV -o plan --to movraw   # its time stamps start at 0: no chunks
grep -q "not 'movraw'" "$tmp/movraw-plan.err" || fail "plan --to movraw: $(head -1 "$tmp/movraw-plan.err")"
# NUT cannot hold the tags (libavformat writes and reads none): -v names the input options
"$mlvpipe" convert C.MLV --to nut -o - -v --gamut rec2020 --curve linear 2>nut-v.err >/dev/null
grep -q "read it with: ffmpeg -color_primaries bt2020 -color_trc linear -colorspace rgb" nut-v.err ||
    fail "nut -v: no input options: $(grep -i nut nut-v.err)"
finish
