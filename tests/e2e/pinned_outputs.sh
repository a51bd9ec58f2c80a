#!/bin/bash
# Pinned outputs: the MD5 of every file `mlvpipe convert` writes for a fixed set of clips and
# output formats (DNG plain and LJ92, WAV, ProRes 422 HQ, 4444, 422, LT and Proxy, DNxHR HQ,
# HQX and 444 (the plain clip only: the others are below DNxHR's 256x120), FFV1, NUT,
# rawvideo on stdout, 16-bit TIFF and half-float EXR sequences, the md5 sink), compared with
# tests/e2e/pinned_outputs.md5. Any changed byte fails.
# It guards refactorings: a change that should not alter output must pass unchanged.
#
# Clips: two written by mlvsynth (a dual-ISO one and a non-dual one with audio; the MD5 of
# each clip is pinned too, so a change in mlvsynth is told apart from a change in convert) and,
# when ../shared/samples is present, two shared samples (an LJ92 dual-ISO synthetic clip and a
# real mlv_dump LJ92 clip); without them those lines are skipped and the reason printed.
# Movie containers (and EXR, from libavcodec's encoder and zlib) depend on the libav version,
# so those files are compared only
# when the versions match the ones the pins were made with (first line of the pin file);
# otherwise they are skipped with the reason. Two runs give identical files (checked at
# --threads 1 and 2 below), so nothing per run (time, paths) is in the bytes.
#
# A change that alters output ON PURPOSE re-pins, and says so in its commit message:
#     PIN_UPDATE=1 meson test -C build pinned-outputs
# (writes $MLVPIPE_SRC/tests/e2e/pinned_outputs.md5; review `git diff` of it, then commit it).
#
# usage: pinned_outputs.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
pins=${MLVPIPE_SRC:-$(dirname "$0")/../..}/tests/e2e/pinned_outputs.md5
libav="libav $(pkg-config --modversion libavcodec libavformat libavutil 2>/dev/null | tr '\n' ' ')"

mkdir -p "$tmp/clips" "$tmp/out"
"$mlvsynth" -o "$tmp/clips/dual.MLV" --dual-iso --size 256x144 --frames 4 >/dev/null ||
    fail "mlvsynth dual"
"$mlvsynth" -o "$tmp/clips/plain.MLV" --size 256x144 --frames 4 --audio >/dev/null ||
    fail "mlvsynth plain"
clips="dual plain"
samples=${MLVPIPE_SAMPLES:-}
if [ -n "$samples" ] && [ -f "$samples/synthetic/synth_dualiso_lj92.MLV" ] &&
   [ -f "$samples/peer/lj92_mlvdump.MLV" ]; then
    cp "$samples/synthetic/synth_dualiso_lj92.MLV" "$tmp/clips/shared_dual_lj92.MLV"
    cp "$samples/peer/lj92_mlvdump.MLV" "$tmp/clips/peer_lj92.MLV"
    clips="$clips shared_dual_lj92 peer_lj92"
else
    echo "skip: shared samples not found (MLVPIPE_SAMPLES=$samples), their pins not checked"
fi

# convert_all CLIP THREADS DIR: every pinned output of one clip into DIR
convert_all() {
    local c=$1 t=$2 d=$3 f k e
    local in="$tmp/clips/$c.MLV"
    mkdir -p "$d"
    run "$c-dng" 0 convert "$in" -o "$d/dng" --threads "$t"
    run "$c-dng-lj92" 0 convert "$in" -o "$d/dng-lj92" --dng-compression lj92 --threads "$t"
    local movies="prores422hq:mov prores4444:mov ffv1:mkv nut:nut prores422:mov prores422lt:mov"
    movies="$movies prores422proxy:mov"
    [ "$c" = plain ] && movies="$movies dnxhrhq:mov dnxhrhqx:mov dnxhr444:mov h264:mp4 h265:mp4"
    for f in $movies; do
        k=${f%%:*} e=${f##*:}
        run "$c-$k" 0 convert "$in" --to "$k" -o "$d/$c.$k.$e" --threads "$t"
    done
    run "$c-tiff" 0 convert "$in" --to tiff -o "$d/tiff" --threads "$t"
    run "$c-exr" 0 convert "$in" --to exr -o "$d/exr" --threads "$t"
    "$mlvpipe" convert "$in" --to rawvideo -o - --no-audio --threads "$t" >"$d/$c.rawvideo" 2>"$tmp/raw.err" ||
        fail "$c rawvideo: $(head -c 400 "$tmp/raw.err")"
    run "$c-md5" 0 convert "$in" --to md5 -o "$d/$c.md5" --threads "$t"
}

for c in $clips; do
    convert_all "$c" 1 "$tmp/out/$c"
    convert_all "$c" 2 "$tmp/again/$c"
done
diff -r "$tmp/out" "$tmp/again" >/dev/null || fail "two runs (--threads 1 and 2) differ"

# The actual list: clip MD5s, then every output file by path relative to $tmp/out.
{
    echo "# $libav"
    (cd "$tmp/clips" && md5sum *.MLV | sed 's|  |  clips/|')
    (cd "$tmp/out" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | xargs md5sum)
} >"$tmp/actual.md5"

if [ -n "${PIN_UPDATE:-}" ]; then
    [ "$clips" != "dual plain" ] || { echo "PIN_UPDATE needs the shared samples"; exit 1; }
    [ "$fails" -eq 0 ] || { echo "$fails failure(s): not pinned"; exit 1; }
    cp "$tmp/actual.md5" "$pins"
    echo "pins written to $pins ($(grep -vc '^#' "$pins") files)"
    exit 0
fi
[ -f "$pins" ] || { echo "FAIL: no pin file $pins"; exit 1; }

pinned_libav=$(head -n 1 "$pins")
checked=0
while read -r sum path; do
    case "$sum" in '#'*) continue ;; esac
    clip=${path%%/*}
    [ "$clip" = clips ] && clip=$(basename "$path" .MLV)
    case " $clips " in *" $clip "*) ;; *) continue ;; esac
    case "$path" in
    *.mov | *.mkv | *.nut | *.exr | *.mp4)
        [ "$pinned_libav" = "# $libav" ] || { echo "skip $path: pinned with ${pinned_libav#\# }, have $libav"; continue; } ;;
    esac
    if [ "$path" = "${path#clips/}" ]; then file="$tmp/out/$path"; else file="$tmp/$path"; fi
    if [ ! -f "$file" ]; then
        fail "$path: not written"
    else
        got=$(md5sum <"$file" | cut -d' ' -f1)
        [ "$got" = "$sum" ] || fail "$path: MD5 $got, pinned $sum"
    fi
    checked=$((checked+1))
done <"$pins"
# Files written now but not pinned are changes too.
grep -v '^#' "$tmp/actual.md5" | while read -r _ path; do
    grep -q "  $path\$" "$pins" || echo "$path"
done >"$tmp/unpinned"
[ -s "$tmp/unpinned" ] && fail "not pinned: $(tr '\n' ' ' <"$tmp/unpinned")"
echo "$checked pinned files compared"
finish
