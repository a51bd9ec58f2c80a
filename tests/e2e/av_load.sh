#!/bin/bash
# libav is loaded at run time by the commands that need it and by nothing else
# (src/movie/av_load.c): info, DNG and md5 conversions never map libavcodec,
# libavformat or libavutil (the loader's own log says what it maps), a movie does, and
# without the libraries a movie fails with one line naming the library and its package,
# exit 5, nothing written. MLVPIPE_AV_LIBDIR pointing at the real libraries works, so its
# failure with an empty folder is the libraries' absence and nothing else.
# usage: av_load.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1 mlvsynth=$2
. "$(dirname "$0")/lib.sh"
"$mlvsynth" -o "$tmp/c.MLV" --size 64x32 --frames 2 >/dev/null || { fail "mlvsynth"; finish; }

# mapped NAME ARGS...: runs mlvpipe with the loader logging what it loads into $tmp/NAME.ld.*;
# prints the libav libraries that came in
mapped() {
    local name=$1
    shift
    LD_DEBUG=libs LD_DEBUG_OUTPUT=$tmp/$name.ld "$mlvpipe" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" ||
        fail "$name: exit $? ($(head -c 300 "$tmp/$name.err"))"
    cat "$tmp/$name.ld".* | sed -n 's/.*calling init: \(.*libav[a-z]*\.so[.0-9]*\).*/\1/p' | sort -u
}

for c in "help --help" "info info $tmp/c.MLV" "dng convert $tmp/c.MLV -o $tmp/dng" \
         "md5 convert $tmp/c.MLV --to md5 -o $tmp/c.md5"; do
    set -- $c
    libs=$(mapped "$@")
    [ -z "$libs" ] || fail "$1 maps libav: $libs"
done
[ "$(ls "$tmp/dng/c" | grep -c '\.dng$')" -eq 2 ] || fail "DNG convert: $(ls -R "$tmp/dng")"

libs=$(mapped mov convert "$tmp/c.MLV" --to prores422hq -o "$tmp/c.mov")
for l in libavcodec libavformat libavutil; do
    echo "$libs" | grep -q "/$l\.so\.[0-9]*$" || fail "a movie did not load $l: $libs"
done
[ -s "$tmp/c.mov" ] || fail "no movie written"

# The same libraries through MLVPIPE_AV_LIBDIR: they are what it opens.
mkdir "$tmp/libs" "$tmp/empty" "$tmp/out"
for l in $libs; do ln -s "$l" "$tmp/libs/$(basename "$l")"; done
libs=$(MLVPIPE_AV_LIBDIR=$tmp/libs mapped dir convert "$tmp/c.MLV" --to ffv1 -o "$tmp/c.mkv")
echo "$libs" | grep -q "^$tmp/libs/libavcodec" || fail "MLVPIPE_AV_LIBDIR not used: $libs"
[ -s "$tmp/c.mkv" ] || fail "no movie written through MLVPIPE_AV_LIBDIR"

# None there: one line naming what is missing and the package, exit 5, nothing left.
for to in prores422hq exr; do
    MLVPIPE_AV_LIBDIR=$tmp/empty "$mlvpipe" convert "$tmp/c.MLV" --to $to -o "$tmp/out/x.$to" \
        >/dev/null 2>"$tmp/missing.err"
    rc=$?
    [ "$rc" -eq 5 ] || fail "--to $to without libav: exit $rc, expected 5"
    [ "$(wc -l <"$tmp/missing.err")" -eq 1 ] &&
        grep -q "libavutil\.so\.[0-9]*: cannot open shared object file.*install libavutil[0-9]" \
            "$tmp/missing.err" || fail "--to $to without libav: $(cat "$tmp/missing.err")"
    [ -z "$(find "$tmp/out" -type f)" ] || fail "--to $to without libav left: $(find "$tmp/out" -type f)"
done
MLVPIPE_AV_LIBDIR=$tmp/empty "$mlvpipe" convert "$tmp/c.MLV" -o "$tmp/out" >/dev/null 2>&1 ||
    fail "DNG convert needs libav"
finish
