#!/bin/bash
# Instructions per pixel of each SIMD kernel at levels c and neon on aarch64, counted under
# qemu-aarch64 (no ARM hardware needed; qemu's timings say nothing, its instruction counts
# do): checkasm --run KERNEL LEVEL runs one kernel once on checkasm's --bench row (1920
# pixels), qemu runs one instruction per translation block and logs each executed block,
# and the run with KERNEL none (set-up only) is subtracted.
# usage: tools/bench/neon_insns.sh [BUILD_ARM64]   (a -Dkernels_only=true cross build, see
# CONTRIBUTING "ARM"; default build-arm64)
set -euo pipefail
checkasm=${1:-build-arm64}/tests/checkasm/checkasm
pixels=1920
insns() {
    qemu-aarch64 -L /usr/aarch64-linux-gnu -singlestep -d nochain,exec -D /dev/stderr \
        "$checkasm" --run "$1" "$2" 2>&1 >/dev/null | grep -c '^Trace'
}
printf "%-12s %10s %10s %7s\n" kernel "c insn/px" "neon" ratio
for k in blend_noise blend_mix rawfix_rows; do
    for level in c neon; do
        n=$(( $(insns "$k" "$level") - $(insns none "$level") ))
        eval "n_$level=$n"
    done
    awk -v k="$k" -v c="$n_c" -v n="$n_neon" -v p="$pixels" \
        'BEGIN { printf "%-12s %10.1f %10.1f %6.2fx\n", k, c / p, n / p, c / n }'
done
