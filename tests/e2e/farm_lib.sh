# Shared by the farm_*.sh end-to-end tests: lib.sh (scratch folder, failure counting), the
# 48-frame dual-ISO test clip with audio, single-process reference outputs, and comparisons.
# Expects $mlvpipe and $mlvsynth set by the caller.
. "$(dirname "$0")/lib.sh"

# The movie kinds the farm tests cover, as FORMAT:EXTENSION.
movie_kinds="ffv1:mkv prores422hq:mov nut:nut"

# make_clip: $tmp/A001.MLV, 48 frames of a dual-ISO scene with audio (4 chunks of 12).
make_clip() {
    "$mlvsynth" -o "$tmp/A001.MLV" --dual-iso --frames 48 --size 320x180 --audio --shift 2 \
        >/dev/null || { fail "mlvsynth"; finish; }
}

# make_reference: one process, 2 threads, whole clip: $tmp/ref/A001/ (DNGs + WAV) and
# $tmp/refm/A001.EXT for each movie kind.
make_reference() {
    "$mlvpipe" convert "$tmp/A001.MLV" -o "$tmp/ref" --threads 2 2>"$tmp/ref.err" ||
        fail "reference DNG run: $(head -c 300 "$tmp/ref.err")"
    local kind
    mkdir -p "$tmp/refm"
    for kind in $movie_kinds; do
        "$mlvpipe" convert "$tmp/A001.MLV" -o "$tmp/refm/A001.${kind##*:}" --to "${kind%%:*}" \
            --threads 2 2>"$tmp/ref.err" || fail "reference ${kind%%:*} run: $(head -c 300 "$tmp/ref.err")"
    done
}

# same_frames WHAT A B: output folders A and B hold the same visible files in A001/ (DNGs,
# WAV) with the same bytes; temporary files (hidden .part) are ignored. At least 48 DNGs.
same_frames() {
    local what=$1 a=$2/A001 b=$3/A001 la lb f
    la=$(cd "$a" 2>/dev/null && find . -type f ! -name '.*' | sort)
    lb=$(cd "$b" 2>/dev/null && find . -type f ! -name '.*' | sort)
    [ "$(grep -c '\.dng$' <<<"$la")" -ge 48 ] || { fail "$what: $a has fewer than 48 DNGs"; return; }
    [ "$la" = "$lb" ] || { fail "$what: different file lists ($(diff <(echo "$la") <(echo "$lb") | head -3 | tr '\n' ' '))"; return; }
    for f in $la; do
        cmp -s "$a/$f" "$b/$f" || { fail "$what: $f differs"; return; }
    done
}

# packets FILE: every video packet's timestamps, size and MD5 (ffmpeg -c copy framemd5)
packets() { ffmpeg -v error -i "$1" -map 0:v -c copy -f framemd5 - | grep -v '^#'; }
# audio FILE: MD5 of the decoded audio
audio() { ffmpeg -v error -i "$1" -map 0:a -f md5 - 2>/dev/null; }

# same_movie WHAT A B: identical video packets (data and timestamps) and identical audio.
same_movie() {
    local what=$1 a=$2 b=$3 pa pb
    [ -s "$b" ] || { fail "$what: $b missing"; return; }
    pa=$(packets "$a"); pb=$(packets "$b")
    [ "$(wc -l <<<"$pa")" -eq 48 ] || fail "$what: $a has $(wc -l <<<"$pa") video packets, not 48"
    [ -n "$pa" ] && [ "$pa" = "$pb" ] ||
        fail "$what: video packets differ ($(diff <(echo "$pa") <(echo "$pb") | head -2 | tr '\n' ' '))"
    [ -n "$(audio "$a")" ] && [ "$(audio "$a")" = "$(audio "$b")" ] || fail "$what: audio differs"
}
