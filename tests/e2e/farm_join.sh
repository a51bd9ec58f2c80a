#!/bin/bash
# mlvpipe join on segments cut by ffmpeg from a whole FFV1/MKV and ProRes/MOV file with PCM
# audio: segments keeping their absolute timestamps join into the whole file's exact video
# packets; segments restarting at 0 are shifted to follow each other (MOV: exact packets;
# MKV's 1 ms ticks: same packet data, timestamps within 1 ms); audio decodes identically.
# Segments given out of order are put in order. Refusals: streams that differ, a gap, an
# existing output (a usage error, exit 2 with the --help hint, untouched), a non-movie, no
# segments; a failed join leaves no output and no temporary file.
# usage: farm_join.sh MLVPIPE
set -u
mlvpipe=$(realpath "$1")
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || { echo "no ffmpeg: skip"; exit 77; }
mlvsynth=unused
. "$(dirname "$0")/farm_lib.sh"
cd "$tmp" || exit 1

src() { ffmpeg -v error -f lavfi -i "testsrc=size=${1}:rate=24000/1001" \
        -f lavfi -i sine=frequency=1000:sample_rate=48000 -t 2.002 -map 0:v -map 1:a "${@:2}"; }
src 160x90 -c:v ffv1 -level 3 -g 1 -pix_fmt gbrp16le -c:a pcm_s16le whole.mkv || fail "ffv1 source"
src 160x90 -c:v prores_ks -profile:v 3 -pix_fmt yuv422p10le -c:a pcm_s16le whole.mov ||
    fail "prores source"
src 176x90 -c:v ffv1 -level 3 -g 1 -pix_fmt gbrp16le -c:a pcm_s16le other.mkv || fail "other"

data() { cut -d, -f5,6 <<<"$1"; }       # packet size and MD5, no timestamps
for ext in mkv mov; do
    for ts in abs:0 rel:1; do
        t=${ts%%:*}
        ffmpeg -v error -i "whole.$ext" -map 0 -c copy -f segment -segment_frames 12,24,36 \
            -reset_timestamps "${ts##*:}" "${t}_%d.$ext" || fail "segmenting $ext"
        "$mlvpipe" join "j_$t.$ext" "${t}_0.$ext" "${t}_1.$ext" "${t}_2.$ext" "${t}_3.$ext" \
            2>"j_$t.err" || fail "join $t $ext: $(cat "j_$t.err")"
        w=$(packets "whole.$ext"); j=$(packets "j_$t.$ext")
        [ "$(wc -l <<<"$w")" -eq 48 ] || fail "whole.$ext: not 48 packets"
        if [ "$t" = rel ] && [ "$ext" = mkv ]; then
            [ "$(data "$w")" = "$(data "$j")" ] || fail "$t $ext: packet data differs"
            # Timestamps within one 1-ms tick of the whole file's, strictly increasing.
            paste -d, <(cut -d, -f2 <<<"$w") <(cut -d, -f2 <<<"$j") | awk -F, '
                { d = $1 - $2; if (d < -1 || d > 1) bad = 1; if (NR > 1 && $2 <= last) bad = 1;
                  last = $2 } END { exit bad }' || fail "$t $ext: timestamps off by more than 1 ms"
        else
            [ "$w" = "$j" ] || fail "$t $ext: video packets differ from the whole file"
        fi
        [ "$(audio "whole.$ext")" = "$(audio "j_$t.$ext")" ] || fail "$t $ext: audio differs"
    done
done
grep -q "shifted" j_rel.err 2>/dev/null || true
# ProRes keeps its FourCC.
[ "$(ffprobe -v error -select_streams v -show_entries stream=codec_tag_string -of csv=p=0 j_abs.mov)" = apch ] ||
    fail "joined ProRes lost its apch tag"

# Refusals.
"$mlvpipe" join bad.mkv abs_0.mkv other.mkv 2>bad.err; rc=$?
[ "$rc" -eq 3 ] && grep -q "frame size differs" bad.err || fail "different sizes: exit $rc, $(cat bad.err)"
[ -z "$(ls -A | grep -e '^bad.mkv$' -e '\.part$')" ] || fail "a failed join left files behind"
cp j_abs.mkv keep.mkv
"$mlvpipe" join j_abs.mkv abs_0.mkv 2>exists.err; rc=$?
[ "$rc" -eq 2 ] && cmp -s j_abs.mkv keep.mkv || fail "existing output: exit $rc or changed"
[ "$(tail -n 1 exists.err)" = "(see 'mlvpipe join --help')" ] || fail "existing output: $(cat exists.err)"
"$mlvpipe" join --overwrite j_abs.mkv abs_0.mkv abs_1.mkv 2>/dev/null || fail "--overwrite refused"
[ "$(packets j_abs.mkv | wc -l)" -eq 24 ] || fail "--overwrite did not replace the output"
# Segments with absolute times given in the wrong order play in the order of their times.
"$mlvpipe" join order.mkv abs_0.mkv abs_2.mkv abs_1.mkv abs_3.mkv 2>order.err ||
    fail "segments out of order: $(cat order.err)"
[ "$(packets whole.mkv)" = "$(packets order.mkv)" ] || fail "segments out of order: not the whole file"
# ... and a missing one is refused with the missing frames (24000/1001: 12 frames each).
"$mlvpipe" join gap.mkv abs_0.mkv abs_2.mkv 2>gap.err; rc=$?
[ "$rc" -eq 3 ] && grep -q "frames 12-23 are missing" gap.err || fail "gap: exit $rc, $(cat gap.err)"
echo "not a movie" > text.mkv
"$mlvpipe" join t.mkv text.mkv 2>/dev/null; rc=$?
[ "$rc" -eq 3 ] || fail "a text file as segment: exit $rc, expected 3"
"$mlvpipe" join t.mkv 2>/dev/null; rc=$?
[ "$rc" -eq 2 ] || fail "no segments: exit $rc, expected 2"
"$mlvpipe" join t.xyz abs_0.mkv 2>/dev/null; rc=$?
[ "$rc" -eq 2 ] || fail "unknown container: exit $rc, expected 2"

finish
