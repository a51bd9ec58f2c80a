#!/bin/bash
# mlvpipe info on the shared samples and on damaged copies: text output, JSON values (parsed
# with python3's json module), exit codes 0 / 3 / 4, and --help.
# usage: reader_info.sh MLVPIPE
set -u
mlvpipe=$1
S=${MLVPIPE_SAMPLES:-}/synthetic
[ -d "$S" ] || { echo "no samples: skip"; exit 77; }
. "$(dirname "$0")/lib.sh"

# jcheck NAME PYTHON_EXPR...: each expression, evaluated with d = the parsed JSON, must be true
jcheck() {
    local name=$1
    shift
    python3 - "$tmp/$name.out" "$@" <<'PY' || fail "$name: JSON check"
import json, sys
d = json.load(open(sys.argv[1]))
bad = [e for e in sys.argv[2:] if not eval(e, {"d": d})]
for e in bad:
    print("  not true:", e)
sys.exit(1 if bad else 0)
PY
}

contains() {   # contains NAME TEXT
    grep -qF -- "$2" "$tmp/$1.out" || fail "$1: output lacks '$2'"
}

run help 0 info --help
contains help "--json"
contains help "exit status"
run usage 2 info
run badopt 2 info --frobnicate "$S/synth_14bit_128x64_3f.MLV"

# every sample describes itself without damage, in text and JSON
for clip in "$S"/*.MLV "$S"/synth_legacy.RAW; do
    name=$(basename "$clip")
    run "$name" 0 info "$clip"
    contains "$name" "damage:        none"
    run "$name.json" 0 info --json "$clip"
    jcheck "$name.json" 'd["damage"] == []' 'd["width"] == 128 and d["height"] == 64' \
        'd["video_supported"] is True' 'd["frame_count"] >= 2' 'd["gap_count"] == 0' \
        'd["segment_count"] == 1' 'd["cfa"] == "RGGB"'
done

run 14.json 0 info --json "$S/synth_14bit_128x64_3f.MLV"
jcheck 14.json 'd["bits"] == 14' 'd["black"] == 2048' 'd["white"] == 15000' \
    'd["fps"] == 25' 'd["fps_num"] == 25000 and d["fps_den"] == 1000' \
    'd["frame_count"] == 3' 'd["first_frame"] == 0 and d["last_frame"] == 2' \
    'abs(d["duration_s"] - 0.12) < 1e-9' 'd["compression"] == "none"' 'd["audio"] is None' \
    'd["dual_iso"]["tag"] is None' 'd["dual_iso"]["pixels"]["frames_checked"] == 3' \
    'd["dual_iso"]["pixels"]["dual_frames"] == 0' 'd["exposure"]["iso"] == 100' \
    'd["container"] == "mlv"' 'len(d["chunks"]) == 1'
run 10 0 info "$S/synth_10bit_128x64_3f.MLV"
contains 10 "bit depth:     10"
contains 10 "levels:        black 128, white 937"
contains 10 "frames:        3 (numbers 0..2)"

run dual.json 0 info --json "$S/synth_dualiso_lj92.MLV"
jcheck dual.json 'd["compression"] == "lj92"' 'd["dual_iso"]["tag"]["mode"] == 1' \
    'd["dual_iso"]["tag"]["iso_value"] == 3' 'd["dual_iso"]["tag"]["recovery_iso"] == 800' \
    'd["dual_iso"]["tag"]["primary_iso"] == 100' \
    'd["dual_iso"]["pixels"]["dual_frames"] == d["dual_iso"]["pixels"]["frames_checked"] == 3' \
    'abs(d["dual_iso"]["pixels"]["ev"] - 3) < 0.5'
run dual 0 info "$S/synth_dualiso_14bit.MLV"
contains dual "DISO mode 1, recovery setting 3 -> ISO 800 (primary ISO 100)"
contains dual "dual ISO pixels: yes in 3 of 3 frames"

run audio.json 0 info --json "$S/synth_14bit_audio.MLV"
jcheck audio.json 'd["audio"]["channels"] == 2' 'd["audio"]["sample_rate"] == 48000' \
    'd["audio"]["bits"] == 16' 'd["audio"]["bytes"] == 23040' \
    'abs(d["audio"]["duration_s"] - 0.12) < 1e-9' 'd["audio"]["offset_to_video_ms"] == 0'
run audio 0 info "$S/synth_14bit_audio.MLV"
contains audio "audio:         PCM format 1, 2 ch, 48000 Hz, 16-bit, 0.120 s"

run span.json 0 info --json "$S/synth_span.M00"
jcheck span.json 'len(d["chunks"]) == 2' 'd["frame_count"] == 4' 'd["last_frame"] == 3' \
    'd["chunks"][0].endswith("synth_span.MLV")'
run raw.json 0 info --json "$S/synth_legacy.RAW"
jcheck raw.json 'd["container"] == "raw"' 'd["frame_count"] == 3' 'd["bits"] == 14' \
    'len(d["chunks"]) == 2'

# damage: a truncated copy exits 4 and still describes the intact frames
cp "$S/synth_14bit_128x64_3f.MLV" "$tmp/cut.MLV"
chmod u+w "$tmp/cut.MLV"
truncate -s 35208 "$tmp/cut.MLV"
run cut 4 info "$tmp/cut.MLV"
contains cut "frames:        2 (numbers 0..1)"
contains cut "cut.MLV: offset 30208: VIDF block of 14848 bytes runs past the end of the file"
run cut.json 4 info --json "$tmp/cut.MLV"
jcheck cut.json 'd["frame_count"] == 2' 'len(d["damage"]) == 1' \
    'd["damage"][0]["kind"] == "truncated"' 'd["damage"][0]["offset"] == 30208' \
    'd["damage"][0]["message"].startswith("cut.MLV: offset 30208: ")'

# dropped frames: frame 2 renumbered 5, at frame 5's time (201000 us at 25 fps), leaves a
# gap of 3 (not damage: exit 0; a number its timestamp contradicts would be damage)
cp "$S/synth_14bit_128x64_3f.MLV" "$tmp/gap.MLV"; chmod u+w "$tmp/gap.MLV"
printf '\x05' | dd of="$tmp/gap.MLV" bs=1 seek=$((30208 + 16)) conv=notrunc status=none
printf '\x28\x11\x03' | dd of="$tmp/gap.MLV" bs=1 seek=$((30208 + 8)) conv=notrunc status=none
run gap 0 info "$tmp/gap.MLV"
contains gap "frames:        3 (numbers 0..5)"
contains gap "gaps:          1 (3 missing frames)"
contains gap "duration:      0.240 s"
run gap.json 0 info --json "$tmp/gap.MLV"
jcheck gap.json 'd["gap_count"] == 1' 'd["missing_frames"] == 3' 'd["last_frame"] == 5' \
    'd["segments"][0]["last_frame"] == 5' 'd["segments"][0]["frames"] == 3'

# a chunk of another recording: damage, exit 4
cp "$S/synth_span.MLV" "$tmp/sp.MLV"; cp "$S/synth_span.M00" "$tmp/sp.M00"; chmod u+w "$tmp"/sp.*
printf '\xef\xbe\xad\xde' | dd of="$tmp/sp.M00" bs=1 seek=16 conv=notrunc status=none
run guid.json 4 info --json "$tmp/sp.MLV"
jcheck guid.json 'd["frame_count"] == 2' 'd["damage"][0]["kind"] == "guid_mismatch"' \
    'd["damage"][0]["chunk"] == 1'

# unsupported video class: info still printed, exit 3
cp "$S/synth_14bit_128x64_3f.MLV" "$tmp/yuv.MLV"; chmod u+w "$tmp/yuv.MLV"
printf '\x02' | dd of="$tmp/yuv.MLV" bs=1 seek=32 conv=notrunc status=none
run yuv 3 info "$tmp/yuv.MLV"
contains yuv "video:         UNSUPPORTED"
contains yuv "videoClass 0x2"
run yuv.json 3 info --json "$tmp/yuv.MLV"
jcheck yuv.json 'd["video_supported"] is False' '"videoClass 0x2" in d["video_error"]' \
    'd["frame_count"] == 3'

# a UTF-8 path passes through; INFO text that is not UTF-8 becomes U+FFFD, the JSON still parses
cp "$S/synth_14bit_128x64_3f.MLV" "$tmp/clïp.MLV"; chmod u+w "$tmp/clïp.MLV"
printf 'INFO' | dd of="$tmp/clïp.MLV" bs=1 seek=272 conv=notrunc status=none
printf '\xff\xfeok\x01"\\\0' | dd of="$tmp/clïp.MLV" bs=1 seek=288 conv=notrunc status=none
run utf8.json 0 info --json "$tmp/clïp.MLV"
jcheck utf8.json 'd["file"].endswith("/clïp.MLV")' \
    'd["info_text"] == "\ufffd\ufffdok\x01\"\\"'

# a frame that is damaged only inside its payload (the index is intact): the dual-ISO check
# decodes it, and the damage list says so; exit 4 exactly when that list is not empty
P=${MLVPIPE_SAMPLES:-}/peer
if [ -f "$P/lzma_2014.MLV" ]; then
    cp "$P/lzma_2014.MLV" "$tmp/lzshort.MLV"; chmod u+w "$tmp/lzshort.MLV"
    printf '\xfe\x37' | dd of="$tmp/lzshort.MLV" bs=1 seek=304 conv=notrunc status=none
    run lzshort 4 info "$tmp/lzshort.MLV"
    contains lzshort "damage:        1 entry"
    contains lzshort "lzshort.MLV: offset 304: frame 0: LZMA: offset 0: declared size 14334"
    grep -q "LZMA: LZMA" "$tmp/lzshort.out" && fail "lzshort: repeated prefix"
    run lzshort.json 4 info --json "$tmp/lzshort.MLV"
    jcheck lzshort.json 'len(d["damage"]) == 1' 'd["damage"][0]["kind"] == "frame"' \
        'd["damage"][0]["frame"] == 0' '"declared size" in d["damage"][0]["message"]'
    for f in "$P"/*.MLV "$P"/*.RAW; do
        run peer 0 info --json "$f"
        jcheck peer 'd["damage"] == []' 'd["video_supported"]'
    done
fi

# not a clip / missing: exit 3 with one error line naming the file
printf 'hello world, not a clip at all, no header here................' >"$tmp/junk.MLV"
run junk 3 info "$tmp/junk.MLV"
grep -q "junk.MLV: offset 0: " "$tmp/junk.err" || fail "junk: error line '$(cat "$tmp/junk.err")'"
[ ! -s "$tmp/junk.out" ] || fail "junk: printed output"
run missing 3 info "$tmp/absent.MLV"
grep -q "absent.MLV" "$tmp/missing.err" || fail "missing: error line '$(cat "$tmp/missing.err")'"
cp "$S/synth_14bit_128x64_3f.MLV" "$tmp/norawi.MLV"; chmod u+w "$tmp/norawi.MLV"
printf 'XXXX' | dd of="$tmp/norawi.MLV" bs=1 seek=52 conv=notrunc status=none
run norawi 3 info "$tmp/norawi.MLV"
grep -q "no RAWI block" "$tmp/norawi.err" || fail "norawi: error line '$(cat "$tmp/norawi.err")'"

finish
