#!/bin/bash
# Impossible values inside the clip are input damage, never an output failure or a usage
# error (issue 14, item 6), and the same in every sink: LJ92 samples above the RAWI's depth,
# a CFA layout that is not Bayer, levels no picture can have (white 1, white next to black),
# in a MLV and in a legacy .RAW footer, and a WAVI that is not PCM. For each: exit 4 with
# every other frame written equal to the undamaged clip's (3 when no frame is usable), and a
# line naming the file, the offset and the problem. Item 8: an MLV given to join as a segment
# is a one-line input error (3), a clip with audio to rawvideo a usage error (2), never 5.
# usage: robust_fields.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
mutate="python3 $(dirname "$0")/mlv_mutate.py"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/robust_lib.sh"
ulimit -f 200000
asrec=(--no-focus-pixels --no-bad-pixels --no-stripes)
sinks=(md5 dng ffv1)

# damaged NAME SOURCE.EXT KIND ARGS...
damaged() {
    local name=$1 src=$2
    shift 2
    cp "$tmp/$src" "$tmp/$name.${src##*.}" && $mutate "$tmp/$name.${src##*.}" "$@" ||
        fail "mutate $name"
}
# every_sink NAME FILE EXPECTED PATTERN: md5, DNG and FFV1 runs all exit EXPECTED, say PATTERN
every_sink() {
    local name=$1 file=$2 want=$3 pattern=$4 to out
    for to in "${sinks[@]}"; do
        out=$tmp/$name-$to.$to
        [ "$to" = dng ] && out=$tmp/$name-dng
        capped "$name-$to" "$want" convert "$tmp/$file" --to "$to" "${asrec[@]}" -o "$out"
        says "$name-$to" "$pattern"
    done
}

"$mlvsynth" -o "$tmp/l.MLV" --frames 6 --size 64x32 --compress lj92 >/dev/null || fail "synth l"
"$mlvsynth" -o "$tmp/a.MLV" --frames 6 --size 64x32 --audio >/dev/null || fail "synth a"
"$mlvsynth" -o "$tmp/s.MLV" --frames 6 --size 64x32 --change-at 3 --change-size 64x32 \
    --change-iso 200 >/dev/null || fail "synth s"
"$mlvsynth" -o "$tmp/r.RAW" --frames 4 --size 64x32 --legacy-raw >/dev/null || fail "synth r"
for c in l a s; do run "$c-ref" 0 convert "$tmp/$c.MLV" --to md5 "${asrec[@]}" -o "$tmp/$c-ref.md5"; done

# LJ92: 8 zero bytes early in frame 2's stream make its samples run past 14 bits
damaged deep l.MLV zero-payload 2 200 8
every_sink deep deep.MLV 4 "deep.MLV: offset [0-9]*: frame 2: LJ92 sample [0-9]* at x [0-9]* y [0-9]* exceeds the RAWI's 14 bits"
same_frames deep-md5 l-ref 5
[ "$(find "$tmp/deep-dng" -name '*.dng' | wc -l)" -eq 5 ] || fail "deep: not 5 DNGs"

# a CFA layout that is not Bayer, white 1: no frame is usable (exit 3), info says where
damaged cfa a.MLV rawi cfa 0x01010101
every_sink cfa cfa.MLV 3 "cfa.MLV: offset 52: RAWI cfa_pattern 0x01010101 is not a Bayer layout"
capped cfa-info 3 info "$tmp/cfa.MLV"
says cfa-info "cfa.MLV: offset 52: RAWI cfa_pattern"
damaged w1 a.MLV rawi white 1
every_sink w1 w1.MLV 3 "w1.MLV: offset 52: RAWI levels black 2048 white 1 impossible at 14 bits"
capped w1-json 3 info "$tmp/w1.MLV" --json
says w1-json '"kind": "bad_field"'
damaged rw r.RAW footer white 1
every_sink rw rw.RAW 3 "rw.RAW: offset [0-9]*: RAWM levels black 2048 white 1 impossible"

# white just above black in the second segment only: its frames are damage, 0-2 written
damaged seg s.MLV rawi white 2050 1
every_sink seg seg.MLV 4 "seg.MLV: offset [0-9]*: RAWI levels black 2048 white 2050 impossible"
same_frames seg-md5 s-ref 3
capped seg-info 4 info "$tmp/seg.MLV"

# a WAVI that is not PCM: the audio is left out, every frame written, no WAV
damaged wavi a.MLV wavi format 85
every_sink wavi wavi.MLV 4 "wavi.MLV: offset [0-9]*: WAVI audio format 85, 2 channels, 48000 Hz, 16 bits, blockAlign 4 is not PCM; 6 audio blocks left out"
same_frames wavi-md5 a-ref 6
[ -z "$(find "$tmp/wavi-dng" -name '*.wav')" ] || fail "wavi: a WAV was written"
[ "$(find "$tmp/wavi-dng" -name '*.dng' | wc -l)" -eq 6 ] || fail "wavi: not 6 DNGs"
ffprobe -v error -show_entries stream=codec_type -of csv=p=0 "$tmp/wavi-ffv1.ffv1" 2>/dev/null |
    grep -q audio && fail "wavi: the movie has an audio stream"

# item 8: join refuses a clip as a segment in one line, before any libav message
run a-mkv 0 convert "$tmp/a.MLV" --to ffv1 -o "$tmp/a.mkv"
capped join-mlv 3 join "$tmp/j.mkv" "$tmp/a.mkv" "$tmp/a.MLV"
says join-mlv "a.MLV: offset 0: a Magic Lantern clip, not a movie"
[ "$(wc -l <"$tmp/join-mlv.err")" -eq 1 ] || fail "join-mlv: $(wc -l <"$tmp/join-mlv.err") lines"
[ -e "$tmp/j.mkv" ] && fail "join-mlv: left an output"
# item 8: rawvideo carries no audio: a usage error naming --no-audio; with it, the frames
capped raw-audio 2 convert "$tmp/a.MLV" --to rawvideo -o "$tmp/a.raw"
says raw-audio "rawvideo output carries no audio and the clip has some; add --no-audio"
[ -e "$tmp/a.raw" ] && fail "raw-audio: left an output"
capped raw-noaudio 0 convert "$tmp/a.MLV" --to rawvideo --no-audio -o - >/dev/null
[ "$(stat -c %s "$tmp/raw-noaudio.out")" -eq $((6 * 64 * 32 * 6)) ] || fail "raw-noaudio: size"
finish
