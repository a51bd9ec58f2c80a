#!/bin/bash
# mlvpipe convert --wb for movies: asshot (default), daylight, auto and R,G,B each develop
# different pictures (FFV1 framemd5); auto's gains are the grey world of the clip's raw frames
# (recomputed here from dcraw's reading of the DNG sequence); auto gives the same packets for
# a whole run, two --frames chunks and any --threads (its frames are sampled across the whole
# clip, as farms need); bad values are usage errors (exit 2).
# usage: cliopts_wb.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
for tool in ffmpeg dcraw exiftool python3; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done

# packets FILE: the video packets' sizes and MD5s (Matroska chunks are read from time 0)
packets() {
    ffmpeg -nostdin -v error -i "$1" -map 0:v -c copy -f framemd5 - | grep -v '^#' |
        cut -d, -f5,6
}

# A dual-ISO clip whose light changes over time, and a 14-bit single-ISO clip.
"$mlvsynth" -o "$tmp/dual.MLV" --dual-iso --size 160x80 --frames 10 --illum-sigma 0.1 \
    >/dev/null || fail "mlvsynth dual"
"$mlvsynth" -o "$tmp/c14.MLV" --size 96x64 --frames 6 --content gradient >/dev/null ||
    fail "mlvsynth c14"

for clip in dual c14; do
    for wb in asshot daylight auto 2,1,1.5; do
        run "$clip-$wb" 0 -v convert "$tmp/$clip.MLV" -o "$tmp/$clip-$wb.mkv" --to ffv1 \
            --wb "$wb"
        packets "$tmp/$clip-$wb.mkv" >"$tmp/$clip-$wb.md5"
        [ -s "$tmp/$clip-$wb.md5" ] || fail "$clip --wb $wb: no packets"
    done
    run "$clip-default" 0 convert "$tmp/$clip.MLV" -o "$tmp/$clip-default.mkv" --to ffv1
    cmp -s "$tmp/$clip-default.mkv" "$tmp/$clip-asshot.mkv" || fail "$clip: asshot is not the default"
    for a in asshot daylight auto 2,1,1.5; do
        for b in asshot daylight auto 2,1,1.5; do
            [[ "$a" < "$b" ]] || continue
            cmp -s "$tmp/$clip-$a.md5" "$tmp/$clip-$b.md5" &&
                fail "$clip: --wb $a and --wb $b give the same pictures"
        done
    done

    # auto is the grey world of the raw frames (all of them: fewer than 16): per CFA colour,
    # the mean above black of 2x2 cells with no sample in the top 2 % below white.
    run "$clip-dng" 0 convert "$tmp/$clip.MLV" -o "$tmp/$clip-dng"
    for f in "$tmp/$clip-dng/$clip"/*.dng; do
        dcraw -D -4 -c "$f" >"$f.pgm" || fail "dcraw on $f"
    done
    first=$(ls "$tmp/$clip-dng/$clip"/*.dng | head -1)
    levels=$(exiftool -s3 -BlackLevel -WhiteLevel -CFAPattern2 "$first" | tr '\n' ' ')
    want=$(python3 - "$levels" "$tmp/$clip-dng/$clip"/*.pgm <<'EOF'
import sys
fields = sys.argv[1].split()
black, white = float(fields[0]), float(fields[1])
cfa = [int(v) for v in fields[2:6]]
limit = black + 0.98 * (white - black)
sums = [0.0, 0.0, 0.0]
for path in sys.argv[2:]:
    data = open(path, 'rb').read()
    parts = data.split(maxsplit=4)          # P5 W H MAX pixels
    w, h = int(parts[1]), int(parts[2])
    px = data[len(data) - 2 * w * h:]
    v = [int.from_bytes(px[2 * i:2 * i + 2], 'big') for i in range(w * h)]
    for y in range(0, h - 1, 2):
        for x in range(0, w - 1, 2):
            cell = [v[y * w + x], v[y * w + x + 1], v[(y + 1) * w + x], v[(y + 1) * w + x + 1]]
            if max(cell) >= limit:
                continue
            for k in range(4):
                sums[cfa[k]] += cell[k] - black
mean = [sums[0], sums[1] / 2, sums[2]]
print(' '.join('%.4f' % (mean[1] / m) for m in mean))
EOF
)
    got=$(sed -n 's/.*grey-world white balance R \([0-9.]*\) G \([0-9.]*\) B \([0-9.]*\).*/\1 \2 \3/p' \
        "$tmp/$clip-auto.err")
    python3 -c "import sys; a=[float(x) for x in '$got'.split()]; b=[float(x) for x in '$want'.split()]; sys.exit(not (len(a) == 3 and all(abs(x - y) < 2e-4 for x, y in zip(a, b))))" ||
        fail "$clip: --wb auto gains '$got', grey world of the frames '$want'"

    # Farm chunks: frames 0-3 and 4- rendered apart hold the packets of the whole run.
    run "$clip-whole" 0 convert "$tmp/$clip.MLV" -o "$tmp/$clip-whole.mkv" --to ffv1 --wb auto \
        --threads 3
    run "$clip-c1" 0 convert "$tmp/$clip.MLV" -o "$tmp/$clip-c1.mkv" --to ffv1 --wb auto \
        --frames 0-3 --threads 1
    run "$clip-c2" 0 convert "$tmp/$clip.MLV" -o "$tmp/$clip-c2.mkv" --to ffv1 --wb auto \
        --frames 4- --threads 2
    cmp -s "$tmp/$clip-whole.mkv" "$tmp/$clip-auto.mkv" || fail "$clip: auto differs by --threads"
    { packets "$tmp/$clip-c1.mkv"; packets "$tmp/$clip-c2.mkv"; } >"$tmp/$clip-chunks.md5"
    cmp -s "$tmp/$clip-chunks.md5" "$tmp/$clip-auto.md5" ||
        fail "$clip: --wb auto chunks differ from the whole run"
done

# Bad values: exit 2 and one line naming the option.
bad() {
    run "bad$1" 2 convert "$tmp/c14.MLV" -o "$tmp/bad.mkv" --to ffv1 "${@:2}"
    grep -q -- "$2" "$tmp/bad$1.err" || fail "bad $*: message does not name $2"
    [ "$(grep -c 'mlvpipe convert:' "$tmp/bad$1.err")" = 1 ] || fail "bad $*: not one line"
}
bad 1 --wb tungsten
bad 2 --wb 2,1
bad 3 --wb 2,1,1.5,1
bad 4 --wb 0,1,1
bad 5 --wb 2,1,nan
bad 6 --wb 2,,1
[ ! -e "$tmp/bad.mkv" ] || fail "a usage error wrote output"
finish
