#!/usr/bin/env bash
# The clip's WAV: ffprobe reads format, rate, channels and the exact duration of the exported
# frames, and sees the bext chunk; ffmpeg decodes it without complaint.
source "$(dirname "$0")/encode_lib.sh"
need ffprobe ffmpeg

write_seq "$WORK/a" native 14 64 32 10 48 wav
wav=$WORK/a/CLIP/CLIP.wav
probe=$(ffprobe -v error -show_format -show_streams "$wav" | tr -d "\r") || fail "ffprobe failed"
for want in codec_name=pcm_s16le sample_rate=48000 channels=2 bits_per_sample=16 \
            format_name=wav duration=2.002000 TAG:time_reference=$((10 * 2002)) \
            TAG:encoded_by="Canon EOS 5D Mark III" TAG:date=2024-06-21 \
            TAG:coding_history=A=PCM,F=48000,W=16,M=stereo,T=mlvpipe; do
  grep -qxF "$want" <<<"$probe" || fail "ffprobe lacks $want: $probe"
done
err=$(ffmpeg -nostdin -v error -i "$wav" -f null - 2>&1) && [ -z "$err" ] || fail "ffmpeg: $err"

# The square wave (period 48 samples) as written started 20 ms (960 samples) before frame 0;
# export starts at frame 10: sample i of the WAV is sample 960 + 10 * 2002 + i of the source.
# Comparing 100 stereo frames across a transition catches a shift of one sample frame, or a
# channel swap from a cut inside a sample frame.
skip=$((960 + 10 * 2002))
ffmpeg -nostdin -v error -i "$wav" -f s16le - > "$WORK/pcm" || fail "ffmpeg could not decode"
got=$(od -v -An -td2 -w4 -N 400 "$WORK/pcm" | tr -s ' ' | sed 's/^ //')
want=$(for i in $(seq 0 99); do
         s=$(( ((skip + i) / 24) % 2 ? 8000 : -8000 )); echo "$s $((-s))"
       done)
[ "$got" = "$want" ] || fail "audio not aligned to the first exported frame"
echo "WAV: ffprobe/ffmpeg read format, duration, bext; audio aligned to the first frame"
