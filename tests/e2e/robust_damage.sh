#!/bin/bash
# Damage never loses an intact frame, never fakes one, and never makes an output grow beyond
# what the clip holds (issue 14, items 2-5): a flipped frame-number or timestamp bit, a frame
# rate of 0, a clip cut at a block boundary or back to its header, a VIDF blockSize grown
# past the next frame, and a DELTA clip with a lost frame. For each: the exit status (4, or 3
# when no frame is usable), the damage line, every frame written equal to the undamaged
# clip's, and (for frame numbers and timestamps) outputs no larger than the clip warrants.
# Every run is capped (60 s, 200 MB per file) so that the old behaviour fails, not fills disks.
# usage: robust_damage.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
mutate="python3 $(dirname "$0")/mlv_mutate.py"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/robust_lib.sh"
ulimit -f 200000

"$mlvsynth" -o "$tmp/a.MLV" --frames 8 --size 64x32 --audio >/dev/null || fail "mlvsynth a"
"$mlvsynth" -o "$tmp/p.MLV" --frames 8 --size 64x32 >/dev/null || fail "mlvsynth p"
"$mlvsynth" -o "$tmp/d.MLV" --frames 8 --size 64x32 --compress delta >/dev/null ||
    fail "mlvsynth d"
for c in a p d; do run "$c-ref" 0 convert "$tmp/$c.MLV" --to md5 -o "$tmp/$c-ref.md5"; done
run a-dng 0 convert "$tmp/a.MLV" -o "$tmp/a-dng"
wav_ref=$(stat -c %s "$tmp/a-dng/a/a.wav")
run a-ffv1 0 convert "$tmp/a.MLV" -o "$tmp/a.mkv" --to ffv1 --no-audio
movie_ref=$(stat -c %s "$tmp/a.mkv")

# item 2: bit 31 of frame 3's number: that frame is left out, nothing grows
damaged n31 a flip-number 3 31
capped n31-info 4 info "$tmp/n31.MLV"
says n31-info "frame number 2147483651 implausible"
says n31-info "frames:        7 (numbers 0..7)"
capped n31 4 convert "$tmp/n31.MLV" --to md5 -o "$tmp/n31.md5"
same_frames n31 a-ref 7
capped n31-dng 4 convert "$tmp/n31.MLV" -o "$tmp/n31-dng"
[ "$(stat -c %s "$tmp/n31-dng/n31/n31.wav" 2>/dev/null || echo 0)" -le "$wav_ref" ] ||
    fail "n31: WAV larger than the undamaged clip's"
capped n31-ffv1 4 convert "$tmp/n31.MLV" -o "$tmp/n31.mkv" --to ffv1 --no-audio
[ "$(stat -c %s "$tmp/n31.mkv" 2>/dev/null || echo 0)" -le $((2 * movie_ref)) ] ||
    fail "n31: movie more than twice the undamaged clip's"

# item 2: bit 45 of frame 0's timestamp (+35 million seconds): kept, timestamp estimated
damaged t45 a flip-time 0 45
capped t45-info 4 info "$tmp/t45.MLV"
says t45-info "timestamp .* implausible"
capped t45 4 convert "$tmp/t45.MLV" --to md5 -o "$tmp/t45.md5"
same_frames t45 a-ref 8
capped t45-dng 4 convert "$tmp/t45.MLV" -o "$tmp/t45-dng"
[ "$(stat -c %s "$tmp/t45-dng/t45/t45.wav" 2>/dev/null || echo 0)" -le "$wav_ref" ] ||
    fail "t45: WAV larger than the undamaged clip's"

# item 2 / 6: a frame rate of 0/1000 is input damage (exit 4), not an output failure (5)
damaged fps0 a fps 0 1000
capped fps0-info 4 info "$tmp/fps0.MLV"
says fps0-info "frame rate 0/1000 is not a rate"
capped fps0 4 convert "$tmp/fps0.MLV" --to md5 -o "$tmp/fps0.md5"
same_frames fps0 a-ref 8
capped fps0-ffv1 4 convert "$tmp/fps0.MLV" -o "$tmp/fps0.mkv" --to ffv1
capped fps0-dng 4 convert "$tmp/fps0.MLV" -o "$tmp/fps0-dng"

# item 3: cut at a block boundary after 5 of 8 frames; cut back to the header
damaged cut p cut-after 4
capped cut-info 4 info "$tmp/cut.MLV"
says cut-info "videoFrameCount is 8 but 5 VIDF blocks were found; 3 frames lost after frame 4"
says cut-info "frames: *5 (numbers 0..4); 3 more recorded but lost to damage"
capped cut 4 convert "$tmp/cut.MLV" --to md5 -o "$tmp/cut.md5"
same_frames cut p-ref 5
damaged hdr p header-only
capped hdr-info 3 info "$tmp/hdr.MLV"
says hdr-info "no frame in the clip"
capped hdr 3 convert "$tmp/hdr.MLV" --to md5 -o "$tmp/hdr.md5"
says hdr "no frame in the clip"
grep -q -- "--frames" "$tmp/hdr.err" && fail "hdr: mentions --frames, which was not given"

# item 4: frame 3's blockSize grown 100 bytes into frame 4: frame 4 is still found
damaged grow p grow-size 3 100
capped grow-info 4 info "$tmp/grow.MLV"
says grow-info "block cut there"
capped grow 4 convert "$tmp/grow.MLV" --to md5 -o "$tmp/grow.md5"
same_frames grow p-ref 8

# item 5: DELTA clip with frame 2's header zeroed: 3..7 depend on it and are not guessed
damaged dlost d zero-header 2
capped dlost 4 convert "$tmp/dlost.MLV" --to md5 -o "$tmp/dlost.md5"
says dlost "DELTA reference lost"
same_frames dlost d-ref 2
finish
