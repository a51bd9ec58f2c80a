#!/bin/bash
# libmlvpipe as a user gets it: `meson install` into a scratch DESTDIR, then a small program
# (api_demo.c) compiled against the INSTALLED headers and library through
# `pkg-config --cflags --libs mlvpipe` only, linked shared and static. Each build
# converts an mlvsynth dual-ISO clip to per-frame MD5s, which must equal the installed CLI's
# `convert --to md5` output, with every frame written and reported by the progress callback;
# its report and JSON farm plan must equal `info --json` and `plan --engine json`; the format
# table and the SIMD level answer through the API.
# usage: install_api.sh BUILD_DIR SRC_ROOT MLVSYNTH
set -u
build=$1 src=$2 mlvsynth=$3
. "$(dirname "$0")/../e2e/lib.sh"
command -v pkg-config >/dev/null || { echo "no pkg-config: skip"; exit 77; }
dest=$tmp/dest
DESTDIR=$dest meson install -C "$build" --no-rebuild --quiet >"$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "meson install"; finish; }
prefix=$(meson introspect "$build" --buildoptions |
         python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="prefix"))')
pc=$(find "$dest" -name mlvpipe.pc | head -n 1)
[ -n "$pc" ] || { fail "no mlvpipe.pc installed"; finish; }
for f in include/mlvpipe/mlvpipe.h include/mlvpipe/clip.h include/mlvpipe/convert.h \
         include/mlvpipe/common.h include/mlvpipe/plan.h include/mlvpipe/version.h bin/mlvpipe; do
    [ -e "$dest$prefix/$f" ] || fail "not installed: $prefix/$f"
done
libdir=$(dirname "$(dirname "$pc")")
ls "$libdir"/libmlvpipe.so.4 "$libdir"/libmlvpipe.a >/dev/null || fail "libraries not in $libdir"
# Only the API's names leave the shared library.
others=$(nm -D --defined-only "$libdir/libmlvpipe.so.4" | awk '{print $3}' | grep -v '^mlvpipe_')
[ -z "$others" ] || fail "libmlvpipe.so exports more than the API: $(echo $others | head -c 300)"

export PKG_CONFIG_PATH=$(dirname "$pc") PKG_CONFIG_SYSROOT_DIR=$dest
# libav is opened at run time by the movie code only (src/movie/av_load.c): neither the
# library, nor the CLI, nor what links them statically may need it at start.
for f in "$libdir/libmlvpipe.so.4" "$dest$prefix/bin/mlvpipe"; do
    readelf -d "$f" | grep -q 'NEEDED.*libav' && fail "$f links libav: $(readelf -d "$f" | grep NEEDED)"
done
pkg-config --print-requires-private mlvpipe | grep -q libav && fail "mlvpipe.pc requires libav"
cc=${CC:-cc}
# A sanitized build installs an instrumented library: its users link the sanitizer runtime.
sanitize=$(meson introspect "$build" --buildoptions |
           python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"]=="b_sanitize"))')
[ "$sanitize" = none ] || cc="$cc -fsanitize=$sanitize"
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Wextra -Werror -o "$tmp/demo-shared" "$src/tests/build/api_demo.c" \
    $(pkg-config --cflags --libs mlvpipe) || fail "compile against the shared library"
# The static build takes the archive where pkg-config names the library, and the libraries
# mlvpipe.pc says it needs (Requires.private, Libs.private) as the system has them: shared
# (`--static` would ask for static liblzma/liblz4 archives a user may not have).
static_libs="$(pkg-config --libs mlvpipe | sed 's/-lmlvpipe/-Wl,-Bstatic -lmlvpipe -Wl,-Bdynamic/')
    $(pkg-config --libs $(pkg-config --print-requires-private mlvpipe))
    $(sed -n 's/^Libs.private: //p' "$pc")"
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Wextra -Werror -o "$tmp/demo-static" "$src/tests/build/api_demo.c" \
    $(pkg-config --cflags mlvpipe) $static_libs || fail "compile against the static library"
ldd "$tmp/demo-static" | grep -q libmlvpipe && fail "demo-static needs libmlvpipe.so"
ldd "$tmp/demo-static" | grep -q libav && fail "demo-static links libav"

"$mlvsynth" -o "$tmp/d.MLV" --dual-iso --size 256x144 --frames 6 >/dev/null || fail "mlvsynth"
"$dest$prefix/bin/mlvpipe" convert "$tmp/d.MLV" --to md5 -o "$tmp/cli.md5" || fail "CLI convert"
"$dest$prefix/bin/mlvpipe" convert "$tmp/d.MLV" -o "$tmp/dng" || fail "CLI convert to DNG"
[ "$(wc -l <"$tmp/cli.md5")" -eq 6 ] || fail "CLI md5 list: $(wc -l <"$tmp/cli.md5") lines"
clip=$(realpath "$tmp/d.MLV")
"$dest$prefix/bin/mlvpipe" info --json "$clip" >"$tmp/cli.info.json" || fail "CLI info"
"$dest$prefix/bin/mlvpipe" plan "$clip" -o /out --engine json --chunk 4 --mlvpipe mlvpipe \
    >"$tmp/cli.plan.json" || fail "CLI plan"
grep -q '"frame_count": 6' "$tmp/cli.info.json" || fail "CLI info: $(head -c 300 "$tmp/cli.info.json")"
grep -q '"format": "mlvpipe-plan"' "$tmp/cli.plan.json" || fail "CLI plan: $(head -c 300 "$tmp/cli.plan.json")"
for kind in shared static; do
    LD_LIBRARY_PATH=$libdir "$tmp/demo-$kind" "$clip" "$tmp/$kind.md5" "$tmp/$kind.info.json" \
        "$tmp/$kind.plan.json" "$tmp/$kind.dng" >"$tmp/$kind.out" || fail "demo-$kind failed"
    echo "demo-$kind: $(cat "$tmp/$kind.out")"
    grep -q "size 256x144 RGGB frames 6 numbers 0-5 written 6 progress 6\$" "$tmp/$kind.out" ||
        fail "demo-$kind: $(cat "$tmp/$kind.out")"
    grep -q "^prores422hq prores 1, aw for md5: invalid argument\$" "$tmp/$kind.out" ||
        fail "$kind: the ProRes encoder for md5: $(tail -n 1 "$tmp/$kind.out")"
    grep -q "^first format dng, ffv1 Matroska .mkv developed 1 joinable 1, cpu [a-z0-9]* limit sse7: invalid argument, limit c: ok, now c\$" \
        "$tmp/$kind.out" || fail "demo-$kind formats/cpu: $(tail -n 1 "$tmp/$kind.out")"
    grep -q "^frames: 6 items, d_000000.dng read ok\$" "$tmp/$kind.out" ||
        fail "demo-$kind frames: $(grep frames: "$tmp/$kind.out")"
    cmp -s "$tmp/$kind.dng" "$tmp/dng/d/d_000000.dng" || fail "demo-$kind frame 0 differs from convert's"
    cmp -s "$tmp/$kind.md5" "$tmp/cli.md5" || fail "demo-$kind MD5s differ from the CLI's"
    cmp -s "$tmp/$kind.info.json" "$tmp/cli.info.json" || fail "demo-$kind report differs from info --json"
    cmp -s "$tmp/$kind.plan.json" "$tmp/cli.plan.json" || fail "demo-$kind plan differs from the CLI's"
done
LD_LIBRARY_PATH=$libdir ldd "$tmp/demo-shared" | grep -q "libmlvpipe.so.4 => $libdir" ||
    fail "demo-shared does not load the installed libmlvpipe.so.4"
finish
