#!/bin/bash
# The SIMD levels give the same bytes: a dual-ISO clip (width not a multiple of any vector)
# with sensor defects (8 frames, so the raw-defect map is built from the rawfix kernels'
# measurements) converted to DNGs, per-frame MD5s and developed RGB (rawvideo: the develop
# kernels) at every level this CPU has (--cpu-flags and MLVPIPE_CPU_FLAGS) equals the plain C
# conversion, and so does a run with glibc's FMA variants of libm off (as on an x86 CPU
# without FMA, where pow, log and log10 differ in the last bit for some arguments); -v names
# the level in use; a level the
# CPU lacks or an unknown name is a usage error (exit 2).
# usage: cpu_levels.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"

"$mlvsynth" -o "$tmp/d.MLV" --dual-iso --defects --size 498x214 --frames 8 >/dev/null ||
    fail "mlvsynth"

run c 0 -v --cpu-flags c convert "$tmp/d.MLV" -o "$tmp/c" --threads 2
run c-md5 0 --cpu-flags c convert "$tmp/d.MLV" --to md5 -o "$tmp/c.md5" --threads 1
"$mlvpipe" --cpu-flags c convert "$tmp/d.MLV" --to rawvideo -o - --no-audio >"$tmp/c.rgb" ||
    fail "c: rawvideo run"
grep -q "SIMD kernels: c$" "$tmp/c.err" || fail "-v does not name level c"
grep -Eq "raw defects from 8 frames: .* [1-9][0-9]* single defects" "$tmp/c.err" ||
    fail "no defect map: $(grep 'raw defects' "$tmp/c.err")"
levels=0
for level in sse2 avx2 neon; do
    "$mlvpipe" --cpu-flags "$level" info "$tmp/d.MLV" >/dev/null 2>&1 || continue
    levels=$((levels+1))
    run "$level" 0 -v --cpu-flags "$level" convert "$tmp/d.MLV" -o "$tmp/$level" --threads 2
    grep -q "SIMD kernels: $level$" "$tmp/$level.err" || fail "-v does not name level $level"
    for f in 0 1 2 3 4 5 6 7; do
        cmp -s "$tmp/c/d/d_00000$f.dng" "$tmp/$level/d/d_00000$f.dng" ||
            fail "$level: frame $f differs from C"
    done
    MLVPIPE_CPU_FLAGS=$level "$mlvpipe" convert "$tmp/d.MLV" --to md5 -o "$tmp/$level.md5" \
        --threads 1 || fail "$level: md5 run"
    cmp -s "$tmp/c.md5" "$tmp/$level.md5" || fail "$level (MLVPIPE_CPU_FLAGS): MD5s differ"
    "$mlvpipe" --cpu-flags "$level" convert "$tmp/d.MLV" --to rawvideo -o - --no-audio \
        >"$tmp/$level.rgb" || fail "$level: rawvideo run"
    cmp -s "$tmp/c.rgb" "$tmp/$level.rgb" || fail "$level: developed RGB differs from C"
done
GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4 "$mlvpipe" convert "$tmp/d.MLV" --to md5 \
    -o "$tmp/nofma.md5" --threads 1 || fail "run without libm's FMA variants"
cmp -s "$tmp/c.md5" "$tmp/nofma.md5" || fail "without libm's FMA variants: MD5s differ"
case "$(uname -m)" in
x86_64|aarch64) [ "$levels" -ge 1 ] || fail "no SIMD level available" ;;
esac
run unknown 2 --cpu-flags avx9 info "$tmp/d.MLV"
[ "$(uname -m)" = x86_64 ] && run neon-on-x86 2 --cpu-flags neon info "$tmp/d.MLV"
finish
