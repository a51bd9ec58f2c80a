#!/bin/bash
# Cross-checks our decoder against ffmpeg's mlv demuxer (doc/mlv-format.md 18): for every
# uncompressed MLV clip, ffmpeg's bayer_rggb16le output shifted right by (16 - bits) must equal
# our decoded frames bit for bit, frame for frame in frame-number order.
# usage: reader_ffmpeg.sh MLVPIPE READER_DUMP [CLIP...]
#   default clips: every .MLV in $MLVPIPE_SAMPLES/synthetic, in $MLVPIPE_SAMPLES/peer (written
#   by mlv_dump; ffmpeg reads only its uncompressed ones) and, when set, in
#   $MLVPIPE_EXTRA_CLIPS (a directory, e.g. mlvsynth output).
set -u
mlvpipe=$1 dump=$2
shift 2
command -v ffmpeg >/dev/null || { echo "ffmpeg not installed: skip"; exit 77; }
clips=("$@")
if [ ${#clips[@]} -eq 0 ]; then
    [ -d "${MLVPIPE_SAMPLES:-}/synthetic" ] || { echo "no samples: skip"; exit 77; }
    clips=("$MLVPIPE_SAMPLES"/synthetic/*.MLV)
    [ -d "$MLVPIPE_SAMPLES/peer" ] && clips+=("$MLVPIPE_SAMPLES"/peer/*.MLV)
    if [ -n "${MLVPIPE_EXTRA_CLIPS:-}" ] && [ -d "$MLVPIPE_EXTRA_CLIPS" ]; then
        clips+=("$MLVPIPE_EXTRA_CLIPS"/*.MLV)
    fi
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
checked=0 failed=0
for clip in "${clips[@]}"; do
    [ -f "$clip" ] || continue
    "$mlvpipe" info --json "$clip" >"$tmp/info.json" 2>/dev/null
    # only uncompressed MLV clips: ffmpeg 5.1 decodes nothing else
    read -r kind bits frames < <(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
ok = d["container"] == "mlv" and d["compression"] == "none" and d["video_supported"] \
    and not d["lj92_tagged_raw"]
print("yes" if ok else "no", d["bits"], d["frame_count"])' "$tmp/info.json") || { echo "FAIL $clip: info --json"; failed=$((failed+1)); continue; }
    [ "$kind" = yes ] || { echo "skip $clip (not uncompressed MLV)"; continue; }
    if ! ffmpeg -nostdin -v error -i "$clip" -map 0:v -f rawvideo -pix_fmt bayer_rggb16le - \
            >"$tmp/ff.bin" 2>"$tmp/ff.err"; then
        echo "FAIL $clip: ffmpeg: $(head -c 300 "$tmp/ff.err")"; failed=$((failed+1)); continue
    fi
    if ! "$dump" "$clip" "$tmp/ours.bin" 2>"$tmp/dump.err"; then
        echo "FAIL $clip: reader_dump: $(cat "$tmp/dump.err")"; failed=$((failed+1)); continue
    fi
    if python3 - "$tmp/ff.bin" "$tmp/ours.bin" "$bits" "$frames" "$clip" <<'PY'
import array, sys
ff_path, ours_path, bits, frames, clip = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
ff, ours = array.array("H"), array.array("H")
ff.frombytes(open(ff_path, "rb").read())
ours.frombytes(open(ours_path, "rb").read())
if sys.byteorder != "little":
    ff.byteswap(); ours.byteswap()
if len(ff) != len(ours) or len(ours) == 0:
    sys.exit(f"FAIL {clip}: ffmpeg gave {len(ff)} samples, we gave {len(ours)}")
shift = 16 - bits
per_frame = len(ours) // frames
for i, (a, b) in enumerate(zip(ff, ours)):
    if a >> shift != b:
        sys.exit(f"FAIL {clip}: frame {i // per_frame} sample {i % per_frame}: ffmpeg {a >> shift}, ours {b}")
print(f"ok   {clip}: {frames} frames, {bits}-bit, {len(ours)} samples identical")
PY
    then checked=$((checked+1)); else failed=$((failed+1)); fi
done
echo "$checked clips identical to ffmpeg, $failed failed"
[ "$failed" -eq 0 ] && [ "$checked" -gt 0 ]
