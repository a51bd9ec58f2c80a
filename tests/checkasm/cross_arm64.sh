#!/bin/bash
# checkasm on arm64: cross-builds the kernel modules and checkasm for aarch64 (clang and lld
# with Debian's arm64 libc, cross/aarch64-linux-gnu-clang.txt, -Dkernels_only=true: there is
# no arm64 libav to link), runs it under qemu-aarch64 (every kernel's NEON level against C, and the
# clip through rawfix, dual ISO and develop at levels c and neon), and compares each hash it
# prints with this build's checkasm on the same seed: an ARM farm node writes the bytes an
# x86 one does. The native checkasm runs a second time with glibc's AVX2/FMA variants of libm
# switched off (GLIBC_TUNABLES), as on an x86 CPU without FMA, whose pow, log and log10 differ
# from the FMA ones in their last bit for some arguments: the hashes must not change either.
# The cross build stays in BUILD_DIR/cross-arm64 (incremental on reruns).
# usage: cross_arm64.sh SRC_DIR BUILD_DIR CHECKASM
set -u
src=$1
build=$2/cross-arm64
checkasm=$3
. "$src/tests/e2e/lib.sh"
need clang ld.lld llvm-ar qemu-aarch64
[ -f /usr/aarch64-linux-gnu/include/stdio.h ] && [ -d /usr/lib/gcc-cross/aarch64-linux-gnu ] ||
    { echo "SKIP: libc6-dev-arm64-cross and libgcc-12-dev-arm64-cross not installed"; exit 77; }
args=(--seed 7 --rounds 1000)

if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" "$src" --cross-file "$src/cross/aarch64-linux-gnu-clang.txt" \
        -Dkernels_only=true -Dbuildtype=release >"$tmp/setup.log" 2>&1 ||
        { cat "$tmp/setup.log"; fail "cross setup"; finish; }
fi
meson compile -C "$build" checkasm >"$tmp/compile.log" 2>&1 ||
    { tail -40 "$tmp/compile.log"; fail "cross compile"; finish; }
grep -i "warning:" "$tmp/compile.log" && fail "cross compile warnings"
# ELF machine 0xb7: AArch64
[ "$(od -An -tx1 -j18 -N2 "$build/tests/checkasm/checkasm" | tr -d ' ')" = b700 ] ||
    fail "checkasm is not an arm64 program"

qemu-aarch64 -L /usr/aarch64-linux-gnu "$build/tests/checkasm/checkasm" "${args[@]}" \
    >"$tmp/arm64.out" 2>&1 || fail "checkasm under qemu-aarch64: $(grep -v ' ok ' "$tmp/arm64.out")"
"$checkasm" "${args[@]}" >"$tmp/native.out" 2>&1 || fail "native checkasm"
GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4 "$checkasm" "${args[@]}" >"$tmp/nofma.out" 2>&1 ||
    fail "native checkasm without libm's FMA variants"
grep -q "^  neon .* ok " "$tmp/arm64.out" || fail "no neon level checked under qemu"
cat "$tmp/arm64.out"
# one line per check and hash, whatever the level (checkasm already holds the levels equal)
hashes() { sed -nE 's/^  [a-z0-9]+ +([^:]+):.* hash ([0-9a-f]+)$/\1 \2/p' "$1" | sort -u; }
hashes "$tmp/arm64.out" >"$tmp/arm64.hashes"
hashes "$tmp/native.out" >"$tmp/native.hashes"
hashes "$tmp/nofma.out" >"$tmp/nofma.hashes"
[ "$(wc -l <"$tmp/native.hashes")" -ge 6 ] || fail "too few hashes: $(cat "$tmp/native.hashes")"
diff "$tmp/native.hashes" "$tmp/arm64.hashes" >"$tmp/diff" ||
    fail "arm64 and $(uname -m) outputs differ: $(cat "$tmp/diff")"
diff "$tmp/native.hashes" "$tmp/nofma.hashes" >"$tmp/diff" ||
    fail "outputs differ without libm's FMA variants: $(cat "$tmp/diff")"
finish
