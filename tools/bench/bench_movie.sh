#!/bin/bash
# bench_movie: movie output speed on 1920x1080 14-bit clips made by mlvsynth, in one run on
# the same clips (default threads everywhere):
#  (a) non-dual -> ProRes 422 HQ and FFV1: mlvpipe convert (RCD, and --fast) vs ffmpeg's own
#      MLV demuxer + prores_ks -profile:v 3 (its default 4:4:4 pick, and 4:2:2 10-bit as
#      mlvpipe writes) and FFV1 (swscale's simple Bayer handling). The content is the sensor
#      simulator's benchmark scene with its noise at a 0.01-EV "gap" and no DISO block, i.e.
#      single ISO: noise is what makes ProRes and FFV1 work (a gradient compresses to nothing);
#  (b) dual ISO (benchmark scene) -> ProRes 422 HQ;
#  (c) frame cache: a cold --cache run, then a re-render with another --curve from the warm
#      cache (with the levels pre-pass, and with a --levels sidecar), and the cache's size
#      against 2 bytes per pixel.
# Wall time, CPU time (user + sys, all threads), peak RSS and fps = frames / wall. Scratch in /dev/shm
# when there is one, so the disk does not count. mlvpipe runs include its levels pre-pass.
# Part (a) also runs mlvpipe at --threads 1 (memory per worker), with --prores-encoder ks-slice
# (prores_ks's own rate control, as ffmpeg runs it) and aw, and
# at --cpu-flags c (the develop kernels' SIMD gain), and prints the movies' data rates, then
# the split (a'): the CPU each side spends before its encoder, and ffmpeg's encoder on each
# side's frames (the encoder's cost on a developed picture against ffmpeg's own picture).
# usage: bench_movie.sh MLVPIPE MLVSYNTH [FRAMES (48) [a: part (a) only]]
set -u
mlvpipe=$1
mlvsynth=$2
frames=${3:-48}
only=${4:-}
W=1920 H=1080
bench=bench_movie
. "$(dirname "$0")/bench_scratch.sh"
# measure LABEL CMD...: runs CMD (output discarded, stderr kept in $tmp/last.err) and prints
# one row; $wall and $cpu are left for the caller
measure() {
    local label=$1
    shift
    local t0 t1
    t0=$(date +%s.%N)
    /usr/bin/time -f '%U %S %M' -o "$tmp/cpu" "$@" >/dev/null 2>"$tmp/last.err" ||
        die "$label failed: $(tail -n 3 "$tmp/last.err")"
    t1=$(date +%s.%N)
    wall=$(echo "$t1 - $t0" | bc -l)
    cpu=$(awk '{ print $1 + $2 }' "$tmp/cpu")
    printf '%-46s %7.2f s wall %7.2f s CPU %7.1f fps %6.0f MiB RSS\n' "$label" "$wall" "$cpu" \
        "$(echo "$frames / $wall" | bc -l)" "$(awk '{ print $3 / 1024 }' "$tmp/cpu")"
}

echo "bench_movie: $frames frames ${W}x${H} 14-bit, $(nproc) CPUs, scratch in $base"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$mlvsynth" -o "$tmp/n.MLV" --content dualiso --ev-gap 0.01 --no-diso --size ${W}x${H} \
    --frames "$frames" >/dev/null ||
    die "mlvsynth (non-dual)"
[ "$only" = a ] || "$mlvsynth" -o "$tmp/d.MLV" --dual-iso --size ${W}x${H} --frames "$frames" \
    >/dev/null || die "mlvsynth (dual ISO)"

echo "(a) non-dual -> ProRes 422 HQ"
measure "mlvpipe convert --to prores422hq" \
    "$mlvpipe" convert "$tmp/n.MLV" --to prores422hq -o "$tmp/a1.mov"
measure "mlvpipe convert --to prores422hq --threads 1" \
    "$mlvpipe" convert "$tmp/n.MLV" --to prores422hq --threads 1 -o "$tmp/a1t.mov"
cmp -s "$tmp/a1.mov" "$tmp/a1t.mov" || die "--threads 1 and default threads differ"
measure "mlvpipe convert --to prores422hq --cpu-flags c" \
    "$mlvpipe" --cpu-flags c convert "$tmp/n.MLV" --to prores422hq -o "$tmp/a1c.mov"
cmp -s "$tmp/a1.mov" "$tmp/a1c.mov" || die "--cpu-flags c differs"
measure "mlvpipe convert --to prores422hq --prores-encoder ks-slice" \
    "$mlvpipe" convert "$tmp/n.MLV" --to prores422hq --prores-encoder ks-slice -o "$tmp/a1s.mov"
measure "mlvpipe convert --to prores422hq --prores-encoder aw" \
    "$mlvpipe" convert "$tmp/n.MLV" --to prores422hq --prores-encoder aw -o "$tmp/a1w.mov"
measure "mlvpipe convert --to prores422hq --fast" \
    "$mlvpipe" convert "$tmp/n.MLV" --to prores422hq --fast -o "$tmp/a2.mov"
measure "ffmpeg -c:v prores_ks -profile:v 3" \
    ffmpeg -nostdin -v error -i "$tmp/n.MLV" -c:v prores_ks -profile:v 3 "$tmp/a3.mov"
measure "ffmpeg prores_ks -profile:v 3 yuv422p10le" \
    ffmpeg -nostdin -v error -i "$tmp/n.MLV" -c:v prores_ks -profile:v 3 \
    -pix_fmt yuv422p10le "$tmp/a4.mov"
measure "mlvpipe convert --to ffv1" \
    "$mlvpipe" convert "$tmp/n.MLV" --to ffv1 -o "$tmp/a5.mkv"
# gbrp16le as mlvpipe writes: left to itself ffmpeg picks 8-bit bgr0 (87 Mb/s
# against mlvpipe's 1416 on the same clip), which is not the same job
measure "ffmpeg ffv1 gbrp16le -level 3 -slices 16 -coder 1" \
    ffmpeg -nostdin -v error -i "$tmp/n.MLV" -c:v ffv1 -level 3 -slices 16 -coder 1 \
    -slicecrc 1 -g 1 -pix_fmt gbrp16le "$tmp/a6.mkv"
measure "mlvpipe convert --to ffv1 --threads 1" \
    "$mlvpipe" convert "$tmp/n.MLV" --to ffv1 --threads 1 -o "$tmp/a5t.mkv"
for f in a1.mov a1s.mov a1w.mov a3.mov a4.mov a5.mkv a6.mkv; do
    printf '  %-8s %6.1f Mb/s\n' "$f" "$(echo "$(stat -c %s "$tmp/$f") * 8 * 25 / $frames / 1000000" | bc -l)"
done

# The split: each side's work before the encoder (mlvpipe: pre-pass, read, develop; ffmpeg:
# demux, Bayer interpolation) and the same ffmpeg encoder command on each side's pictures
# (rgb48le files, so swscale's conversion to the encoder's format is in both rows alike).
# What the encoder rows differ by is the picture, not the program around it.
echo "(a') the split: the work before the encoder, and ffmpeg encoding each side's frames"
measure "mlvpipe analyze (the pre-pass alone)" \
    "$mlvpipe" analyze "$tmp/n.MLV" -o "$tmp/n.levels.json"
measure "mlvpipe convert --to rawvideo (no encoder)" \
    "$mlvpipe" -v convert "$tmp/n.MLV" --to rawvideo -o "$tmp/ours.rgb"
before_m=$cpu
ours_size=$(grep -o -- '-s [0-9]*x[0-9]*' "$tmp/last.err" | cut -d' ' -f2)
[ -n "$ours_size" ] || die "no picture size in: $(cat "$tmp/last.err")"
measure "ffmpeg -i CLIP.MLV -f rawvideo rgb48le (no encoder)" \
    ffmpeg -nostdin -v error -i "$tmp/n.MLV" -f rawvideo -pix_fmt rgb48le "$tmp/ff.rgb"
before_f=$cpu
# encode SIDE SIZE LABEL OUT ARGS...: the encoder alone on one side's rgb48le frames
encode() {
    local side=$1 size=$2 label=$3 out=$4
    shift 4
    measure "$label" ffmpeg -nostdin -v error -f rawvideo -pix_fmt rgb48le -s "$size" -r 25 \
        -i "$tmp/$side.rgb" "$@" "$tmp/$out"
}
encode ours "$ours_size" "prores_ks 422 HQ on mlvpipe's frames ($ours_size)" e1.mov \
    -c:v prores_ks -profile:v 3 -pix_fmt yuv422p10le
enc_pm=$cpu
encode ff "${W}x${H}" "prores_ks 422 HQ on ffmpeg's frames (${W}x${H})" e2.mov \
    -c:v prores_ks -profile:v 3 -pix_fmt yuv422p10le
enc_pf=$cpu
ffv1_args=(-c:v ffv1 -level 3 -slices 16 -coder 1 -slicecrc 1 -g 1 -pix_fmt gbrp16le)
encode ours "$ours_size" "ffv1 gbrp16le on mlvpipe's frames" e3.mkv "${ffv1_args[@]}"
enc_fm=$cpu
encode ff "${W}x${H}" "ffv1 gbrp16le on ffmpeg's frames" e4.mkv "${ffv1_args[@]}"
enc_ff=$cpu
rm -f "$tmp/ours.rgb" "$tmp/ff.rgb"
for f in e1.mov e2.mov e3.mkv e4.mkv; do
    printf '  %-8s %6.1f Mb/s\n' "$f" "$(echo "$(stat -c %s "$tmp/$f") * 8 * 25 / $frames / 1000000" | bc -l)"
done
# per-pixel CPU ratio: mlvpipe's picture is the active area, smaller than ffmpeg's
px_ratio=$(echo "$W * $H / (${ours_size%x*} * ${ours_size#*x})" | bc -l)
printf 'CPU before the encoder: mlvpipe %.2f s, ffmpeg %.2f s\n' "$before_m" "$before_f"
printf 'encoder CPU on mlvpipe'"'"'s / ffmpeg'"'"'s frames: ProRes %.2fx, FFV1 %.2fx (per pixel %.2fx, %.2fx)\n' \
    "$(echo "$enc_pm / $enc_pf" | bc -l)" "$(echo "$enc_fm / $enc_ff" | bc -l)" \
    "$(echo "$enc_pm / $enc_pf * $px_ratio" | bc -l)" "$(echo "$enc_fm / $enc_ff * $px_ratio" | bc -l)"

if [ "$only" = a ]; then
    echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
    exit 0
fi
echo "(b) dual ISO -> ProRes 422 HQ"
measure "mlvpipe convert --to prores422hq" \
    "$mlvpipe" convert "$tmp/d.MLV" --to prores422hq -o "$tmp/b1.mov"
measure "mlvpipe convert --to prores422hq --fast" \
    "$mlvpipe" convert "$tmp/d.MLV" --to prores422hq --fast -o "$tmp/b2.mov"

echo "(c) frame cache, dual ISO -> ProRes 422 HQ"
measure "no cache, --curve logc3" \
    "$mlvpipe" convert "$tmp/d.MLV" --to prores422hq --curve logc3 -o "$tmp/c0.mov"
nocache=$wall nocache_cpu=$cpu
measure "cold cache (reconstruct + store)" \
    "$mlvpipe" -v convert "$tmp/d.MLV" --to prores422hq -o "$tmp/c1.mov" --cache "$tmp/C"
cold=$wall cold_cpu=$cpu
measure "warm cache, --curve logc3" \
    "$mlvpipe" -v convert "$tmp/d.MLV" --to prores422hq --curve logc3 -o "$tmp/c2.mov" \
    --cache "$tmp/C"
warm=$wall warm_cpu=$cpu
grep -q "$frames hits, 0 misses" "$tmp/last.err" || die "warm run missed: $(cat "$tmp/last.err")"
cmp -s "$tmp/c0.mov" "$tmp/c2.mov" || die "warm cache output differs from no cache"
"$mlvpipe" analyze "$tmp/d.MLV" -o "$tmp/d.levels.json" 2>/dev/null || die "analyze"
measure "warm cache, --curve slog3, --levels sidecar" \
    "$mlvpipe" -v convert "$tmp/d.MLV" --to prores422hq --curve slog3 -o "$tmp/c3.mov" \
    --cache "$tmp/C" --levels "$tmp/d.levels.json"
warm_sidecar=$wall warm_sidecar_cpu=$cpu
measure "warm cache, --curve slog3 --fast, sidecar" \
    "$mlvpipe" -v convert "$tmp/d.MLV" --to prores422hq --curve slog3 --fast \
    -o "$tmp/c4.mov" --cache "$tmp/C" --levels "$tmp/d.levels.json"
measure "warm cache -> md5 (no development), sidecar" \
    "$mlvpipe" -v convert "$tmp/d.MLV" --to md5 -o "$tmp/c5.md5" --cache "$tmp/C" \
    --levels "$tmp/d.levels.json"
measure "no cache -> md5 (no development), sidecar" \
    "$mlvpipe" convert "$tmp/d.MLV" --to md5 -o "$tmp/c6.md5" --levels "$tmp/d.levels.json"
cmp -s "$tmp/c5.md5" "$tmp/c6.md5" || die "md5 lists differ with and without the cache"

bytes=$(find "$tmp/C" -name '*.mpc' -printf '%s\n' | awk '{ s += $1 } END { print s }')
raw=$((2 * W * H * frames))
printf 'cache: %d entries, %.1f MB on disk vs %.1f MB at 2 bytes/pixel: %.2f:1\n' \
    "$(find "$tmp/C" -name '*.mpc' | wc -l)" "$(echo "$bytes / 1000000" | bc -l)" \
    "$(echo "$raw / 1000000" | bc -l)" "$(echo "$raw / $bytes" | bc -l)"
# ratio A B: A / B with two decimals
ratio() { printf '%.2f' "$(echo "$1 / $2" | bc -l)"; }
echo "warm cache re-render speed-up, wall (CPU): against the cold run" \
    "$(ratio "$cold" "$warm")x ($(ratio "$cold_cpu" "$warm_cpu")x), against no cache" \
    "$(ratio "$nocache" "$warm")x ($(ratio "$nocache_cpu" "$warm_cpu")x), with a sidecar" \
    "$(ratio "$nocache" "$warm_sidecar")x ($(ratio "$nocache_cpu" "$warm_sidecar_cpu")x)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
