#!/usr/bin/env bash
# The shared sample clips read by the reader and written as DNG sequences (every storage
# variant): dcraw's raw values must have the MD5s published in expected_md5.json, and the
# clip with audio gets a WAV as long as its frames, holding the clip's PCM.
# Usage: encode_clips.sh encode_write_dng encode_from_clip
source "$(dirname "$0")/encode_lib.sh"
FROM_CLIP=${2:?usage: $0 encode_write_dng encode_from_clip}
need dcraw python3 ffmpeg
samples=${MLVPIPE_SAMPLES:-}/synthetic
[ -f "$samples/expected_md5.json" ] || { echo "SKIP: no shared samples"; exit 77; }

# "file number md5" for every frame the JSON lists (keys name one or more files).
python3 - "$samples" > "$WORK/expected" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/expected_md5.json"))
files = {"synth_span.MLV+M00": ["synth_span.MLV"], "synth_legacy.RAW+R00": ["synth_legacy.RAW"],
         "synth_lj92_*.MLV": ["synth_lj92_cameralayout.MLV", "synth_lj92_mlvdumplayout.MLV"]}
for key, frames in d.items():
    items = frames.items() if isinstance(frames, dict) else enumerate(frames)
    for name in files.get(key, [key]):
        for n, md5 in items:
            print(name, n, md5)
PY
[ "$(wc -l < "$WORK/expected")" -ge 29 ] || fail "expected_md5.json gave too few frames"

checked=0
for clip in $(cut -d' ' -f1 "$WORK/expected" | sort -u); do
  stem=${clip%%.*}
  for storage in native 16 lj92 lj92-2c; do
    out=$WORK/$storage
    "$FROM_CLIP" "$samples/$clip" "$out" "$storage" || fail "encode_from_clip $clip $storage"
    while read -r file n md5; do
      [ "$file" = "$clip" ] || continue
      dng=$out/$stem/$(printf '%s_%06d.dng' "$stem" "$n")
      got=$(dcraw -D -4 -c "$dng" | tail -c $((128 * 64 * 2)) | dd conv=swab status=none |
            md5sum | cut -d' ' -f1)
      [ "$got" = "$md5" ] || fail "$clip frame $n as $storage: dcraw values md5 $got, want $md5"
      checked=$((checked + 1))
    done < "$WORK/expected"
  done
done

clip=$samples/synth_14bit_audio.MLV
"$FROM_CLIP" "$clip" "$WORK/audio" native || fail "encode_from_clip $clip"
wav=$WORK/audio/synth_14bit_audio/synth_14bit_audio.wav
dur=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$wav") || fail "ffprobe $wav"
[ "$dur" = 0.120000 ] || fail "WAV lasts $dur s, the 3 frames at 25 fps 0.12 s"
# Audio and video start together in this clip: the WAV data must be the AUDF payloads in
# frameNumber order (doc/mlv-format.md 4.4), extracted here by walking the blocks independently.
python3 - "$clip" > "$WORK/audf.pcm" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
at, blocks = 0, []
while at + 16 <= len(data):
    kind, size = data[at:at + 4], struct.unpack_from("<I", data, at + 4)[0]
    if size < 16:
        break
    if kind == b"AUDF":
        number, space = struct.unpack_from("<II", data, at + 16)
        blocks.append((number, data[at + 24 + space:at + size]))
    at += size
sys.stdout.buffer.write(b"".join(p for _, p in sorted(blocks, key=lambda b: b[0])))
PY
[ "$(stat -c %s "$WORK/audf.pcm")" = 23040 ] || fail "sample clip: expected 3 x 1920 stereo samples"
ffmpeg -nostdin -v error -i "$wav" -f s16le - | cmp -s - "$WORK/audf.pcm" ||
  fail "WAV PCM differs from the clip's AUDF payloads"
echo "samples: $checked frames bit-exact through reader, DNG writer and dcraw; WAV matches"
