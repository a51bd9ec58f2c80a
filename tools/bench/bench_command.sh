#!/bin/bash
# bench_command: the whole command as a user runs it, default options, against ffmpeg doing
# the same job where it does one (issue #33's table). Two 1920x1080 14-bit clips from
# mlvsynth's sensor simulation: plain ISO 100 (--single-iso) and dual ISO 100/1600. Each row
# runs its two commands alternately, A B A B (ROUNDS pairs), and prints CPU per frame (user +
# sys, all threads, over the clip's frames) of every run and the paired ratios A/B: the
# machine is shared, so a pair's two runs see about the same load.
#
# rows (the reference is ffmpeg reading the same MLV with its own demuxer and swscale's
# Bayer interpolation):
#   dng      mlvpipe --to dng (dual, then plain)     ffmpeg prores_ks HQ of the plain clip
#   prores   --to prores422hq                        -c:v prores_ks -profile:v 3 yuv422p10le
#   ffv1     --to ffv1                               -c:v ffv1 -level 3 -pix_fmt gbrp16le
#   dnxhr    --to dnxhrhq                            dnxhd -profile:v dnxhr_hq yuv422p
#   develop  --to rawvideo -o - (rgb48le)            -f rawvideo -pix_fmt rgb48le -
#   dual-prores  dual clip --to prores422hq          prores_ks HQ of the plain clip
# ffmpeg's options are as the issue gives them, its defaults otherwise (4 FFV1 slices, its
# coder and slice CRCs for 16 bits). THREADS (default 1, as the issue measured) goes to both
# sides (--threads, -threads) so CPU time is not thread overhead.
#
# usage: bench_command.sh MLVPIPE MLVSYNTH [FRAMES (48) [ROUNDS (2) [ROW...]]]
#   e.g. bench_command.sh build/tools/mlvpipe/mlvpipe build/tools/mlvsynth/mlvsynth 48 2 ffv1
set -u
mlvpipe=$1
mlvsynth=$2
frames=${3:-48}
rounds=${4:-2}
shift $(($# < 4 ? $# : 4))
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(dng prores ffv1 dnxhr develop dual-prores)
threads=${THREADS:-1}
W=1920 H=1080
bench=bench_command
. "$(dirname "$0")/bench_scratch.sh"

# run CMD...: CPU milliseconds per frame of CMD into $ms (stdout to /dev/null, the outputs
# removed afterwards so the scratch space stays small)
run() {
    /usr/bin/time -f '%U %S' -o "$tmp/cpu" "$@" >/dev/null 2>"$tmp/err" ||
        die "failed: $* : $(tail -n 3 "$tmp/err")"
    ms=$(awk -v n="$frames" '{ printf "%.1f", ($1 + $2) * 1000 / n }' "$tmp/cpu")
    rm -rf "$tmp/out"
    mkdir "$tmp/out"
}

# pair LABEL "A-COMMAND" "B-COMMAND": ROUNDS times A then B; one line of per-frame CPU and
# the paired ratios. Commands are eval'ed strings (redirections inside them).
pair() {
    local label=$1 a=$2 b=$3 as="" bs="" rs=""
    for ((i = 0; i < rounds; i++)); do
        eval "run $a"
        local ta=$ms
        eval "run $b"
        as+=" $ta" bs+=" $ms"
        rs+=" $(awk -v a="$ta" -v b="$ms" 'BEGIN { printf "%.2f", a / b }')"
    done
    printf '%-34s mlvpipe%s ms  ffmpeg%s ms  ratio%s\n' "$label" "$as" "$bs" "$rs"
}

ff="ffmpeg -nostdin -v error -threads $threads"
mp="$mlvpipe convert --threads $threads"
mkdir "$tmp/out"
echo "bench_command: $frames frames ${W}x${H} 14-bit, THREADS=$threads, $(nproc) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg), CPU ms per frame (user + sys)"
"$mlvsynth" -o "$tmp/plain.MLV" --dual-iso --single-iso --size ${W}x${H} --frames "$frames" \
    >/dev/null || die "mlvsynth (plain)"
"$mlvsynth" -o "$tmp/dual.MLV" --dual-iso --size ${W}x${H} --frames "$frames" >/dev/null ||
    die "mlvsynth (dual ISO)"
prores_ref="$ff -i $tmp/plain.MLV -c:v prores_ks -profile:v 3 -pix_fmt yuv422p10le $tmp/out/r.mov"
for row in "${rows[@]}"; do
    case $row in
    dng)
        pair "dual ISO -> DNG" "$mp $tmp/dual.MLV --to dng -o $tmp/out" "$prores_ref"
        pair "plain ISO 100 -> DNG" "$mp $tmp/plain.MLV --to dng -o $tmp/out" "$prores_ref" ;;
    prores)
        pair "-> ProRes 422 HQ" "$mp $tmp/plain.MLV -o $tmp/out/p.mov" "$prores_ref" ;;
    ffv1)
        pair "-> FFV1 16-bit RGB" "$mp $tmp/plain.MLV -o $tmp/out/f.mkv" \
            "$ff -i $tmp/plain.MLV -c:v ffv1 -level 3 -pix_fmt gbrp16le $tmp/out/f.mkv" ;;
    dnxhr)
        pair "-> DNxHR HQ" "$mp $tmp/plain.MLV --to dnxhrhq -o $tmp/out/d.mov" \
            "$ff -i $tmp/plain.MLV -c:v dnxhd -profile:v dnxhr_hq -pix_fmt yuv422p $tmp/out/d.mov" ;;
    develop)
        pair "develop -> rgb48" "$mp $tmp/plain.MLV --to rawvideo -o -" \
            "$ff -i $tmp/plain.MLV -f rawvideo -pix_fmt rgb48le -" ;;
    dual-prores)
        pair "dual ISO -> ProRes 422 HQ" "$mp $tmp/dual.MLV -o $tmp/out/p.mov" "$prores_ref" ;;
    *) die "unknown row $row" ;;
    esac
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
