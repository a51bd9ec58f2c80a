#!/bin/bash
# mlvpipe convert DNG options checked with outside readers: --dng-compression lj92 / lj92-2c
# and --dng-bits 16 decode (dcraw -D -4) to the same raw values as the default packed DNGs
# and open in LibRaw; BitsPerSample and Compression say what was asked; dual-ISO output is
# 16-bit with or without LJ92; --naming resolve (--clip-index, --one-based) gives the
# documented names and a sequence ffmpeg plays; bad values are usage errors (exit 2).
# usage: cliopts_dng.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
for tool in dcraw raw-identify exiftool ffmpeg; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool not installed"; exit 77; }
done

# tag FILE TAG: one tag's value, as exiftool prints it (-s3)
tag() { exiftool -s3 "-$2" "$1"; }
# same_raw WHAT A B: dcraw's undeveloped PGMs of two DNGs are identical
same_raw() {
    dcraw -D -4 -c "$2" >"$tmp/a.pgm" 2>"$tmp/dcraw.err" || fail "$1: dcraw failed on $2"
    dcraw -D -4 -c "$3" >"$tmp/b.pgm" 2>>"$tmp/dcraw.err" || fail "$1: dcraw failed on $3"
    [ -s "$tmp/a.pgm" ] || fail "$1: dcraw wrote nothing"
    cmp -s "$tmp/a.pgm" "$tmp/b.pgm" || fail "$1: raw values differ"
}

# A 12-bit clip with a smooth picture (LJ92 has something to compress) and a dual-ISO clip.
"$mlvsynth" -o "$tmp/c12.MLV" --bits 12 --size 128x64 --frames 4 --content gradient \
    >/dev/null || fail "mlvsynth c12"
"$mlvsynth" -o "$tmp/dual.MLV" --dual-iso --size 160x80 --frames 3 >/dev/null ||
    fail "mlvsynth dual"

for clip in c12 dual; do
    run "$clip-plain" 0 convert "$tmp/$clip.MLV" -o "$tmp/$clip-plain"
    run "$clip-lj92" 0 convert "$tmp/$clip.MLV" -o "$tmp/$clip-lj92" --dng-compression lj92
    run "$clip-lj92-2c" 0 convert "$tmp/$clip.MLV" -o "$tmp/$clip-lj92-2c" \
        --dng-compression lj92-2c
    run "$clip-b16" 0 convert "$tmp/$clip.MLV" -o "$tmp/$clip-b16" --dng-bits 16 \
        --dng-compression none
    plain=$tmp/$clip-plain/$clip/${clip}_000001.dng
    for v in lj92 lj92-2c b16; do
        f=$tmp/$clip-$v/$clip/${clip}_000001.dng
        same_raw "$clip $v vs default" "$plain" "$f"
        raw-identify "$f" >"$tmp/ri.out" 2>&1 || fail "$clip $v: raw-identify failed"
        grep -q "is a" "$tmp/ri.out" || fail "$clip $v: raw-identify: $(head -1 "$tmp/ri.out")"
    done
    for v in lj92 lj92-2c; do
        f=$tmp/$clip-$v/$clip/${clip}_000001.dng
        [ "$(tag "$f" Compression)" = "JPEG" ] || fail "$clip $v: Compression not JPEG"
        [ "$(stat -c %s "$f")" -lt "$(stat -c %s "$plain")" ] ||
            fail "$clip $v: not smaller than the uncompressed DNG"
    done
    [ "$(tag "$tmp/$clip-b16/$clip/${clip}_000001.dng" BitsPerSample)" = 16 ] ||
        fail "$clip: --dng-bits 16 did not give 16-bit samples"
done
[ "$(tag "$tmp/c12-plain/c12/c12_000001.dng" BitsPerSample)" = 12 ] ||
    fail "c12: default DNG not packed at 12 bits"
# Dual ISO is 16-bit whatever was asked.
[ "$(tag "$tmp/dual-plain/dual/dual_000001.dng" BitsPerSample)" = 16 ] ||
    fail "dual: default DNG not 16-bit"
[ "$(tag "$tmp/dual-lj92/dual/dual_000001.dng" BitsPerSample)" = 16 ] ||
    fail "dual: LJ92 DNG not 16-bit"
# Explicit defaults change nothing.
plain=$tmp/c12-plain/c12/c12_000001.dng
run c12-native 0 convert "$tmp/c12.MLV" -o "$tmp/c12-native" --dng-bits native \
    --dng-compression none --naming plain
cmp -s "$plain" "$tmp/c12-native/c12/c12_000001.dng" 2>/dev/null ||
    fail "explicit defaults changed the bytes"

# Resolve names: date and time of the recording start from RTCI (mlvsynth writes
# 2024-03-23 12:34), the clip index, numbers from 1 with --one-based.
run resolve 0 convert "$tmp/c12.MLV" -o "$tmp/res" --naming resolve --clip-index 12
run resolve1 0 convert "$tmp/c12.MLV" -o "$tmp/res1" --naming resolve --one-based
name=c12_1_2024-03-23_1234_C0012
got=$(cd "$tmp/res" 2>/dev/null && find . -type f | sort | tr '\n' ' ')
want="./$name/${name}_000000.dng ./$name/${name}_000001.dng ./$name/${name}_000002.dng ./$name/${name}_000003.dng "
[ "$got" = "$want" ] || fail "resolve names: got '$got', expected '$want'"
cmp -s "$plain" "$tmp/res/$name/${name}_000001.dng" ||
    fail "resolve naming changed the DNG bytes"
name1=c12_1_2024-03-23_1234_C0000
[ -f "$tmp/res1/$name1/${name1}_000001.dng" ] && [ -f "$tmp/res1/$name1/${name1}_000004.dng" ] &&
    [ ! -e "$tmp/res1/$name1/${name1}_000000.dng" ] || fail "--one-based: wrong file numbers"
for d in "res/$name/${name}" "res1/$name1/${name1}"; do
    n=$(ffmpeg -nostdin -v error -framerate 25 -i "$tmp/${d}_%06d.dng" -f framemd5 - |
        grep -vc '^#') || fail "ffmpeg could not play $d"
    [ "$n" = 4 ] || fail "ffmpeg played $n of 4 frames of $d"
done
# --skip-existing knows the Resolve names: nothing to redo.
run resolve-skip 0 convert "$tmp/c12.MLV" -o "$tmp/res" --naming resolve --clip-index 12 \
    --skip-existing --progress json
grep -q '"skipped":4' "$tmp/resolve-skip.err" || fail "--skip-existing with Resolve names"

# Bad values: exit 2 and one line naming the option.
bad() {
    run "bad$1" 2 convert "$tmp/c12.MLV" -o "$tmp/bad" "${@:2}"
    grep -q -- "$2" "$tmp/bad$1.err" || fail "bad $*: message does not name $2"
    [ "$(grep -c 'mlvpipe convert:' "$tmp/bad$1.err")" = 1 ] || fail "bad $*: not one line"
}
bad 1 --dng-bits 12
bad 2 --dng-compression lzw
bad 3 --naming davinci
bad 4 --clip-index 10000
bad 5 --clip-index -1
bad 6 --dng-bits 16 --dng-compression lj92
[ ! -e "$tmp/bad" ] || fail "a usage error wrote output"
finish
