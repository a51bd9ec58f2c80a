#!/bin/bash
# Farm segments: frames 0-9 and 10-19 rendered separately and joined with the concat demuxer
# (-c copy) give the video packets of a whole 0-19 run (same data, same timestamps: MKV as is,
# MOV with the setts recipe of av_sink.h) and the same audio, sample for sample.
. "$(dirname "$0")/av_lib.sh"
A="--audio 48000:2:16 --size 96x64"

# packets FILE: pts, duration and data MD5 of every video packet
packets() {
  ffprobe -v error -select_streams v:0 -show_packets -show_data_hash md5 \
          -show_entries packet=pts,duration,data_hash -of csv=p=0 "$1"
}

for kind in ffv1:mkv prores422hq:mov prores4444:mov; do
  k=${kind%%:*} e=${kind#*:}
  "$AVW" --kind "$k" -o whole.$e --frames 0-19 $A
  "$AVW" --kind "$k" -o seg_000000-000009.$e --frames 0-9 $A
  "$AVW" --kind "$k" -o seg_000010-000019.$e --frames 10-19 $A
  printf "file '%s'\n" seg_000000-000009.$e seg_000010-000019.$e > list.txt
  if [ "$e" = mov ]; then
    ffmpeg -nostdin -v error -f concat -safe 0 -i list.txt -map 0:v -map 0:a -c copy \
           -bsf:v "setts=ts=N*1001:time_base=1/24000" -video_track_timescale 24000 joined.$e
  else
    ffmpeg -nostdin -v error -f concat -safe 0 -i list.txt -map 0:v -map 0:a -c copy joined.$e
  fi
  packets whole.$e > whole.txt
  packets joined.$e > joined.txt
  expect "$k packet count" "$(wc -l < joined.txt)" 20
  cmp -s whole.txt joined.txt || fail "$k: joined packets differ: $(diff whole.txt joined.txt | head -5)"
  ffmpeg -nostdin -v error -i whole.$e -map 0:a -f s16le whole.pcm
  ffmpeg -nostdin -v error -i joined.$e -map 0:a -f s16le joined.pcm
  cmp -s whole.pcm joined.pcm || fail "$k: joined audio differs from the whole run's"
  expect "$k joined rate" "$(probe joined.$e v:0 r_frame_rate)" 24000/1001
  decode_ok joined.$e
  rm -f whole.* joined.* seg_* list.txt
done
echo "ok"
