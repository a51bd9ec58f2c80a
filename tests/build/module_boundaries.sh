#!/bin/bash
# The build graph holds: for each module of src/ (top-level meson.build, module_graph), a
# probe that includes a header of a module it does not declare fails to compile with exactly
# the include folders that module is built with (its own and its declared modules', with
# theirs), while the headers it may use compile; and no source reaches another folder with
# a relative #include "../..."; doc/architecture.md's module table names every module.
# usage: module_boundaries.sh SRC_ROOT CC MOD:DEP,DEP ...
set -u
src=$1 cc=$2
shift 2
. "$(dirname "$0")/../e2e/lib.sh"
declare -A deps
for m in "$@"; do deps[${m%%:*}]=${m#*:}; done
ext_cflags=$(pkg-config --cflags libavcodec libavformat libavutil liblz4 liblzma 2>/dev/null)

# closure MOD: MOD and every module it reaches through its declared ones
closure() {
    local todo=$1 seen=" " m d
    while [ -n "$todo" ]; do
        m=${todo%% *}
        todo=${todo#"$m"}; todo=${todo# }
        case "$seen" in *" $m "*) continue ;; esac
        seen="$seen$m "
        for d in ${deps[$m]//,/ }; do todo="$todo $d"; todo=${todo# }; done
    done
    echo $seen
}
# probe MOD HEADER: 0 when a file including HEADER compiles with MOD's include folders
probe() {
    local flags="" m
    for m in $(closure "$1"); do flags="$flags -I$src/src/$m/include"; done
    printf '#include "%s"\n' "$2" >"$tmp/probe.c"
    # shellcheck disable=SC2086
    "$cc" -std=c11 -D_GNU_SOURCE -fsyntax-only $ext_cflags $flags "$tmp/probe.c" 2>"$tmp/probe.err"
}

# One header per pair of modules stands for all: a module's headers share one folder.
allowed=0 refused=0
for mod in "${!deps[@]}"; do
    reach=" $(closure "$mod") "
    for other in "${!deps[@]}"; do
        for h in $(cd "$src/src/$other/include" && find . -name '*.h' | sed 's|^\./||' | sort | head -n 1); do
            if [[ "$reach" == *" $other "* ]]; then
                probe "$mod" "$h" || fail "$mod may use $other but $h does not compile: $(head -n 3 "$tmp/probe.err")"
                allowed=$((allowed+1))
            else
                probe "$mod" "$h" && fail "$mod does not declare $other, yet #include \"$h\" compiles"
                refused=$((refused+1))
            fi
        done
    done
done
[ "$allowed" -gt 0 ] && [ "$refused" -gt 0 ] || fail "nothing probed ($allowed allowed, $refused refused)"

# No relative includes out of a folder, in library, tools or tests.
if grep -rn --include='*.c' --include='*.h' '#[[:space:]]*include[[:space:]]*"\.\./' \
    "$src/src" "$src/tools" "$src/tests" >"$tmp/relative"; then
    fail "relative includes: $(head -n 5 "$tmp/relative")"
fi
# doc/architecture.md §2 has a row for every module (what it owns, what it knows nothing of).
for mod in "${!deps[@]}"; do
    grep -q "^| \`$mod\` |" "$src/doc/architecture.md" ||
        fail "doc/architecture.md: no row for the module $mod in the module table"
done
echo "$allowed allowed and $refused refused includes probed over ${#deps[@]} modules"
finish
