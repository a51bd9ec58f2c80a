#!/usr/bin/env bash
# Fails when a library exports a defined global symbol outside the project's namespace.
# Every exported name must start with mlvpipe_ or mp_: a user links libmlvpipe next to libav*,
# lz4 and their own code, and a bare name (mp_curve_eval) or another project's prefix (av_) can
# collide with theirs. Names starting with "__" or "." are the toolchain's (sanitizer and
# profiling runtimes), not ours.
# usage: exported_symbols.sh NM LIBRARY...
set -euo pipefail
nm_tool=$1; shift
status=0
for lib in "$@"; do
    # -g: globals only; --defined-only: what the library provides, not what it uses;
    # weak (W/V) and common (C) definitions are exports too. A shared library exports its
    # dynamic symbol table (-D); a static one every global of its objects, hidden or not,
    # since a program linking it statically sees them all.
    dynamic=; case $lib in *.so | *.so.*) dynamic=-D ;; esac
    syms=$("$nm_tool" -g $dynamic --defined-only "$lib" 2>/dev/null | awk 'NF == 3 { print $3 }' |
           sort -u)
    if [ -z "$syms" ]; then
        echo "$lib: no exported symbols found (not a library, or nm failed)" >&2
        status=1
        continue
    fi
    bad=$(printf '%s\n' "$syms" | grep -Ev '^(mp_|mlvpipe_|__|\.)' || true)
    if [ -n "$bad" ]; then
        echo "$lib exports $(printf '%s\n' "$bad" | wc -l) symbol(s) without the mp_/mlvpipe_ prefix:" >&2
        printf '  %s\n' $bad >&2
        status=1
    else
        echo "$lib: $(printf '%s\n' "$syms" | wc -l) exported symbols, all prefixed"
    fi
done
exit $status
