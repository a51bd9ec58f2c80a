#!/bin/bash
# The CLI (tools/mlvpipe) is a user of the public API only, as any program built against the
# installed libmlvpipe: (1) meson compiles each of its sources with no include folder of the
# source tree but include/ (compile_commands.json); (2) with exactly those flags, a file
# including mlvpipe/mlvpipe.h compiles and one including any module's header does not, so a
# module header added to the CLI breaks the build; (3) its sources include only the public
# headers, system headers and its own files. Checks (2) and (3) are also run on a copy of a
# CLI source with a module header added, which must be caught.
# usage: cli_public_only.sh BUILD_DIR SRC_ROOT
set -u
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
. "$(dirname "$0")/../e2e/lib.sh"
cli=$src/tools/mlvpipe

# One line per CLI source: the source, then its compile command's words, separated by 0x1f.
python3 - "$build" "$cli" >"$tmp/cmds" <<'EOF' || { fail "cannot read compile_commands.json"; finish; }
import json, os, shlex, sys
build, cli = sys.argv[1:3]
for c in json.load(open(os.path.join(build, 'compile_commands.json'))):
    path = os.path.normpath(os.path.join(c['directory'], c['file']))
    if os.path.dirname(path) == cli:
        words = c.get('arguments') or shlex.split(c['command'])
        print('\x1f'.join([path] + words))
EOF
# (each source once at least; fuzz_options compiles them again, under the same rules)
sources=$(ls "$cli"/*.c | wc -l)
compiled=$(cut -d $'\037' -f 1 "$tmp/cmds" | sort -u | wc -l)
[ "$compiled" -eq "$sources" ] ||
    fail "compile_commands.json has $compiled of the CLI's $sources sources"

# (1) include folders: the public one, the build's own, or outside the source tree (system).
flags=()
while IFS= read -r line; do
    IFS=$'\037' read -r -a words <<<"$line"
    file=${words[0]}
    for w in "${words[@]:2}"; do
        case $w in
        -I*) dir=$(cd "$build" && realpath -m "${w#-I}")
             case $dir in
             "$src/include" | "$build"/*) ;;
             "$src"/*) fail "${file#$src/} is compiled with ${dir#$src/}/ on its include path" ;;
             esac ;;
        esac
    done
    if [ ${#flags[@]} -eq 0 ]; then
        cc=${words[1]}
        for w in "${words[@]:2}"; do
            case $w in -I* | -D* | -std=* | -pthread) flags+=("$w") ;; esac
        done
    fi
done <"$tmp/cmds"
[ ${#flags[@]} -gt 0 ] || { fail "no compile command of the CLI found"; finish; }

# (2) probe FILE: 0 when FILE compiles with the CLI's flags (run from the build folder).
probe() { (cd "$build" && "$cc" -fsyntax-only "${flags[@]}" "$1") 2>"$tmp/probe.err"; }
printf '#include <mlvpipe/mlvpipe.h>\nint main(void) { return mlvpipe_version_api() == 0; }\n' \
    >"$tmp/public.c"
probe "$tmp/public.c" || fail "the public header does not compile: $(head -n 3 "$tmp/probe.err")"
modules=0
for inc in "$src"/src/*/include; do
    h=$(cd "$inc" && find . -name '*.h' | sed 's|^\./||' | sort | head -n 1)
    [ -n "$h" ] || continue
    modules=$((modules+1))
    printf '#include "%s"\n' "$h" >"$tmp/module.c"
    probe "$tmp/module.c" && fail "the CLI's flags reach a module header: #include \"$h\" compiles"
done
[ "$modules" -ge 10 ] || fail "only $modules module include folders found"

# (3) scan DIR: every #include names a file of DIR ("..."), mlvpipe/... or a system header
# (<...> that is no module's header); prints the offenders.
scan() {
    local f name
    for f in "$1"/*.[ch]; do
        grep -o '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*[">]' "$f" |
            sed 's/.*include[[:space:]]*//' | while read -r name; do
                case $name in
                \"*) [ -f "$1/${name//\"/}" ] || echo "${f##*/}: $name" ;;
                \<mlvpipe/*) ;;
                *) name=${name#<}; name=${name%>}
                   ls "$src"/src/*/include/"$name" >/dev/null 2>&1 && echo "${f##*/}: <$name>" ;;
                esac
            done
    done
}
bad=$(scan "$cli")
[ -z "$bad" ] || fail "the CLI includes what is not the public API: $bad"

# The checks catch a module header added to a CLI source.
mkdir "$tmp/copy"
cp "$cli"/*.h "$tmp/copy/"
{ echo '#include "reader/mlv_reader.h"'; cat "$cli/cmd_info.c"; } >"$tmp/copy/cmd_info.c"
[ -n "$(scan "$tmp/copy")" ] || fail "scan missed #include \"reader/mlv_reader.h\""
probe "$tmp/copy/cmd_info.c" && fail "cmd_info.c with a module header compiles with the CLI's flags"
grep -q 'reader/mlv_reader.h' "$tmp/probe.err" ||
    fail "the compiler did not name the module header: $(head -n 3 "$tmp/probe.err")"

echo "$sources CLI sources: public include folder only; $modules module headers refused"
finish
