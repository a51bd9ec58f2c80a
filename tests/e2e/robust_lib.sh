# Shared by the robust_*.sh tests (issue 14), after lib.sh: runs of $mlvpipe with a time
# limit, what their messages say, frames compared with the undamaged clip's, and damaged
# copies of a clip ($mutate: mlv_mutate.py).

# capped NAME EXPECTED ARGS...: run with a time limit
capped() {
    local name=$1 want=$2
    shift 2
    timeout 60 "$mlvpipe" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    [ "$rc" -eq "$want" ] ||
        fail "$name: exit $rc, expected $want ($(head -c 400 "$tmp/$name.err"))"
}
says() { grep -q -- "$2" "$tmp/$1.err" "$tmp/$1.out" || fail "$1: no '$2' in $(head -c 400 "$tmp/$1.err")"; }
# same_frames NAME REF COUNT: NAME.md5 has COUNT lines, each one of REF's (number and MD5)
same_frames() {
    local n
    n=$(wc -l <"$tmp/$1.md5")
    [ "$n" -eq "$3" ] || fail "$1: $n frames written, expected $3"
    [ -z "$(grep -vxFf "$tmp/$2.md5" "$tmp/$1.md5")" ] ||
        fail "$1: frames differ from the undamaged clip's: $(grep -vxFf "$tmp/$2.md5" "$tmp/$1.md5" | head -3)"
}

# damaged NAME SOURCE KIND ARGS...: a copy of SOURCE.MLV with one damage
damaged() {
    local name=$1 src=$2
    shift 2
    cp "$tmp/$src.MLV" "$tmp/$name.MLV" && $mutate "$tmp/$name.MLV" "$@" || fail "mutate $name"
}
