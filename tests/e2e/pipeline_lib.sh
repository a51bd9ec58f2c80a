# Shared by the pipeline_*.sh end-to-end tests: a scratch folder, failure counting, and a
# check that two output folders hold the same files with the same bytes.
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }

# run NAME EXPECTED_EXIT ARGS...: runs mlvpipe; stderr kept in $tmp/NAME.err
run() {
    local name=$1 want=$2
    shift 2
    "$mlvpipe" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    [ "$rc" -eq "$want" ] ||
        fail "$name: exit $rc, expected $want ($(head -c 400 "$tmp/$name.err"))"
}

# same_tree WHAT A B: same file names, every file byte-identical (cmp), at least one file
same_tree() {
    local what=$1 a=$2 b=$3
    local la lb
    la=$(cd "$a" 2>/dev/null && find . -type f | sort)
    lb=$(cd "$b" 2>/dev/null && find . -type f | sort)
    if [ -z "$la" ]; then fail "$what: $a is empty"; return; fi
    if [ "$la" != "$lb" ]; then fail "$what: different file lists"; return; fi
    local f
    for f in $la; do
        cmp -s "$a/$f" "$b/$f" || { fail "$what: $f differs"; return; }
    done
}

finish() {
    if [ "$fails" -ne 0 ]; then
        echo "$fails failure(s)"
        exit 1
    fi
    echo "all passed"
    exit 0
}
