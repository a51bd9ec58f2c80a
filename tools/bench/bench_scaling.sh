#!/bin/bash
# bench_scaling: issue #33's "must show" beside bench_command's table, the whole command as a
# user runs it (default options):
#   scaling  each command with --threads 1 and --threads 2 alternately (A B A B, ROUNDS pairs)
#            on 1920x1080 14-bit clips of FRAMES frames: wall and CPU (user + sys) of every
#            run, the paired wall ratios 1 thread / 2 threads and their median (goal >= 1.8;
#            needs idle cores: `uptime` before and after is printed)
#   memory   peak RSS (/usr/bin/time %M) of dual ISO -> DNG and -> ProRes 422 HQ, 2 threads,
#            at 16, 96 and 2000 frames. 2000 frames of 1080p would take mlvsynth's sensor
#            simulation ~8 CPU-minutes and 7 GB, so the lengths are measured at 640x360 (the
#            memory that could grow with the clip is per frame index entry, the same at any
#            frame size), and 16 and 96 frames at 1920x1080 too; memory is flat when a
#            size's three lengths agree (+- 8 MiB, as bench_pipeline)
# Clips and outputs live in /dev/shm when there is one (the disk does not count).
#
# usage: bench_scaling.sh MLVPIPE MLVSYNTH [FRAMES (48) [ROUNDS (3) [ROW...]]]
#   e.g. bench_scaling.sh build/tools/mlvpipe/mlvpipe build/tools/mlvsynth/mlvsynth 48 5 scaling
set -u
mlvpipe=$1
mlvsynth=$2
frames=${3:-48}
rounds=${4:-3}
shift $(($# < 4 ? $# : 4))
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(scaling memory)
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
tmp=$(mktemp -d "$base/bench_scaling.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
die() { echo "bench_scaling: $*" >&2; exit 1; }

# clip NAME SIZE FRAMES [mlvsynth options]: $tmp/NAME.MLV, made once
clip() {
    local name=$1 size=$2 n=$3
    shift 3
    [ -f "$tmp/$name.MLV" ] && return
    "$mlvsynth" -o "$tmp/$name.MLV" --dual-iso --size "$size" --frames "$n" "$@" >/dev/null ||
        die "mlvsynth $name"
}

# run THREADS CLIP FORMAT: one conversion; "wall cpu maxrss_kib" into $out
run() {
    local o="$tmp/out"
    [ "$3" = dng ] || o="$tmp/out/o.mov"
    rm -rf "$tmp/out" && mkdir "$tmp/out"
    /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$mlvpipe" convert "$2" --threads "$1" \
        --to "$3" -o "$o" --progress none >/dev/null 2>"$tmp/err" ||
        die "failed: $mlvpipe convert $2 --threads $1 --to $3: $(tail -n 3 "$tmp/err")"
    out=$(awk '{ printf "%.2f %.2f %d", $1, $2 + $3, $4 }' "$tmp/time")
    rm -rf "$tmp/out"
}

# scaling LABEL CLIP FORMAT: ROUNDS pairs of 1 then 2 threads, one line
scaling() {
    local w1s="" w2s="" c1s="" c2s="" rs=""
    for ((i = 0; i < rounds; i++)); do
        run 1 "$2" "$3"
        local w1 c1
        read -r w1 c1 _ <<<"$out"
        run 2 "$2" "$3"
        local w2 c2
        read -r w2 c2 _ <<<"$out"
        w1s+=" $w1" w2s+=" $w2" c1s+=" $c1" c2s+=" $c2"
        rs+=" $(awk -v a="$w1" -v b="$w2" 'BEGIN { printf "%.2f", a / b }')"
    done
    local median
    median=$(tr ' ' '\n' <<<"$rs" | grep . | sort -g | awk '{ v[NR] = $1 }
        END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    printf '%-22s wall 1t%s s, 2t%s s; CPU 1t%s s, 2t%s s; ratio%s (median %s)\n' "$1" \
        "$w1s" "$w2s" "$c1s" "$c2s" "$rs" "$median"
}

echo "bench_scaling: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for row in "${rows[@]}"; do
    case $row in
    scaling)
        clip dual 1920x1080 "$frames"
        clip plain 1920x1080 "$frames" --single-iso
        echo "scaling: ${frames} frames 1920x1080, --threads 1 / --threads 2, $rounds pairs"
        scaling "dual ISO -> DNG" "$tmp/dual.MLV" dng
        scaling "plain -> DNG" "$tmp/plain.MLV" dng
        scaling "dual ISO -> ProRes HQ" "$tmp/dual.MLV" prores422hq
        scaling "plain -> ProRes HQ" "$tmp/plain.MLV" prores422hq ;;
    memory)
        echo "memory: peak RSS MiB, --threads 2 (flat: a size's lengths within 8 MiB)"
        for size in 1920x1080 640x360; do
            lengths=(16 96)
            [ $size = 640x360 ] && lengths+=(2000)
            for fmt in dng prores422hq; do
                line="" lo="" hi=""
                for n in "${lengths[@]}"; do
                    clip "m${size}_$n" "$size" "$n"
                    run 2 "$tmp/m${size}_$n.MLV" "$fmt"
                    read -r _ _ rss <<<"$out"
                    line+=" $n frames $(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }'),"
                    [ -z "$lo" ] || [ "$rss" -lt "$lo" ] && lo=$rss
                    [ -z "$hi" ] || [ "$rss" -gt "$hi" ] && hi=$rss
                done
                verdict=flat
                [ $((hi - lo)) -le 8192 ] || verdict="NOT FLAT: spread $(((hi - lo) / 1024)) MiB"
                printf '  dual ISO %-9s -> %-12s%s %s\n' "$size" "$fmt" "$line" "$verdict"
            done
        done ;;
    *) die "unknown row $row" ;;
    esac
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
