#!/bin/bash
# Instructions per pixel of each SIMD kernel at levels c and neon on aarch64, counted under
# qemu-aarch64 (no ARM hardware needed; qemu's timings say nothing, its instruction counts
# do): checkasm --run KERNEL LEVEL runs one kernel once on checkasm's --bench row (1920
# pixels; RCD on a window), qemu runs one instruction per translation block and logs each
# executed block, and the run with the kernel's set-up only (none, develop_none) is subtracted.
# usage: tools/bench/neon_insns.sh [BUILD_ARM64]   (a -Dkernels_only=true cross build, see
# CONTRIBUTING "ARM"; default build-arm64)
set -euo pipefail
checkasm=${1:-build-arm64}/tests/checkasm/checkasm
row=1920
insns() {
    qemu-aarch64 -L /usr/aarch64-linux-gnu -singlestep -d nochain,exec -D /dev/stderr \
        "$checkasm" --run "$1" "$2" 2>&1 >/dev/null | grep -c '^Trace'
}
printf "%-14s %10s %10s %7s\n" kernel "c insn/px" "neon" ratio
# name, the set-up-only run to subtract, pixels (develop's rows: --bench row; rcd: checkasm's
# 203 x 40 window, bilinear edges included)
for spec in blend_noise:none:$row blend_mix:none:$row rawfix_rows:none:$row \
            develop_load:develop_none:$row develop_near:develop_none:$row \
            develop_grade:develop_none:$row develop_encode:develop_none:$row \
            rcd:develop_none:$((203 * 40)); do
    IFS=: read -r k base pixels <<<"$spec"
    for level in c neon; do
        n=$(( $(insns "$k" "$level") - $(insns "$base" "$level") ))
        eval "n_$level=$n"
    done
    awk -v k="$k" -v c="$n_c" -v n="$n_neon" -v p="$pixels" \
        'BEGIN { printf "%-14s %10.1f %10.1f %6.2fx\n", k, c / p, n / p, c / n }'
done
