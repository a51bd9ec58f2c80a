#!/bin/bash
# The ABI is kept: a program written for API 4.0 (abi/abi_4_0.c), compiled against the 4.0
# headers saved in abi/4.0/ and nothing of include/, runs on the shared library of this
# build and gets the CLI's bytes: the DNG sequence of a dual-ISO mlvsynth clip, its levels
# sidecar, its report's JSON and its JSON farm plan. Each of those calls hands the library a
# 4.0 settings struct (convert, analyze, report, plan), filled by the 4.0 default functions.
# abi/abi_sizes.c, built against include/, hands the library settings of other sizes: a newer
# header's (extra member zero: converts; set: refused), one shorter than 4.0's (refused), and
# a newer member in the reserved room of the convert and join settings (set: refused).
# usage: abi.sh BUILD_DIR SRC_ROOT MLVPIPE MLVSYNTH
set -u
build=$1 src=$2 mlvpipe=$3 mlvsynth=$4
. "$(dirname "$0")/../e2e/lib.sh"
cc=${CC:-cc}
sanitize=$(meson introspect "$build" --buildoptions |
           python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="b_sanitize"))')
[ "$sanitize" = none ] || cc="$cc -fsanitize=$sanitize"
lib=$(ls "$build"/libmlvpipe.so.[0-9]* 2>/dev/null | head -n 1)
[ -n "$lib" ] || { fail "no shared libmlvpipe in $build"; finish; }
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror -I"$src/tests/build/abi/4.0" -o "$tmp/abi_4_0" \
    "$src/tests/build/abi/abi_4_0.c" "$lib" -Wl,-rpath,"$build" ||
    { fail "compile against the 4.0 headers"; finish; }
# shellcheck disable=SC2086
$cc -std=c11 -Wall -Wextra -Werror -I"$src/include" -o "$tmp/abi_sizes" \
    "$src/tests/build/abi/abi_sizes.c" "$lib" -Wl,-rpath,"$build" ||
    { fail "compile abi_sizes"; finish; }

"$mlvsynth" -o "$tmp/d.MLV" --dual-iso --size 256x144 --frames 6 >/dev/null || fail "mlvsynth"
clip=$(realpath "$tmp/d.MLV")
mkdir -p "$tmp/out"
run cli-convert 0 convert "$clip" -o "$tmp/out/cli" --threads 2
run cli-analyze 0 analyze "$clip" -o "$tmp/out/cli.levels.json"
run cli-report 0 report "$clip" -o "$tmp/out/cli.html" --json "$tmp/out/cli.report.json" \
    --thumbs 0
"$mlvpipe" plan "$clip" -o /out --engine json --chunk 4 --mlvpipe mlvpipe \
    >"$tmp/out/cli.plan.json" || fail "CLI plan"
"$tmp/abi_4_0" "$clip" "$tmp/out" >"$tmp/abi.out" 2>"$tmp/abi.err" ||
    fail "the 4.0 program: $(head -c 600 "$tmp/abi.err")"
cat "$tmp/abi.out"
[ "$(find "$tmp/out/cli" -name '*.dng' | wc -l)" -eq 6 ] || fail "the CLI wrote no 6 DNGs"
diff -r "$tmp/out/cli" "$tmp/out/api" >"$tmp/diff" || fail "DNGs differ: $(head -c 300 "$tmp/diff")"
for f in levels.json report.json plan.json; do
    [ -s "$tmp/out/cli.$f" ] || fail "the CLI wrote no $f"
    cmp -s "$tmp/out/cli.$f" "$tmp/out/api.$f" || fail "$f differs from the CLI's"
done

"$tmp/abi_sizes" "$clip" "$tmp/sizes.md5" >"$tmp/sizes.out" 2>&1 ||
    fail "abi_sizes: $(cat "$tmp/sizes.out")"
cat "$tmp/sizes.out"
run cli-md5 0 convert "$clip" --to md5 -o "$tmp/cli.md5"
cmp -s "$tmp/cli.md5" "$tmp/sizes.md5" || fail "a newer header's settings: MD5s differ from the CLI's"
grep -qx "defaults: future 0" "$tmp/sizes.out" || fail "the defaults left a newer member set"
grep -q "^newer, set: invalid argument: convert settings: byte [0-9]* of [0-9]* is set, a" \
    "$tmp/sizes.out" || fail "a newer header's member set was not refused"
grep -qx "newer, zero: ok" "$tmp/sizes.out" || fail "a newer header's zero member was refused"
grep -q "^shorter than 4.0: invalid argument: convert settings of [0-9]* bytes; API 4.0's have" \
    "$tmp/sizes.out" || fail "settings shorter than 4.0's were taken"
grep -q "^reserved, set: invalid argument: convert settings: reserved\[0\] is set" \
    "$tmp/sizes.out" || fail "a convert setting in the reserved room was not refused"
grep -q "^join reserved, set: invalid argument: join settings: reserved\[6\] is set" \
    "$tmp/sizes.out" || fail "a join setting in the reserved room was not refused"
finish
