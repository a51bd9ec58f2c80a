#!/bin/bash
# mlvpipe convert --cache with damaged entries: a flipped payload byte, a flipped header
# byte, a truncated entry, an empty one, and another frame's entry under this frame's name
# (stale key) are each reported, recomputed and rewritten, never used: the output equals a
# run without the cache, and the next run hits every frame. An entry that cannot be written
# (its folder is a file) is a warning, not a failure.
# usage: cache_damage.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/pipeline_lib.sh"

"$mlvsynth" -o "$tmp/d.MLV" --dual-iso --size 320x160 --frames 10 >/dev/null || fail "mlvsynth d"

summary() { grep -o '[0-9]* hits, [0-9]* misses ([0-9]* rejected), [0-9]* written' "$tmp/$1.err"; }
expect() {
    local got
    got=$(summary "$1" | tr -cs '0-9' ' ' | sed 's/ *$//')
    [ "$got" = "$2" ] || fail "$1: cache hits/misses/rejected/written '$got', expected '$2'"
}
# flip FILE OFFSET: inverts the byte at OFFSET
flip() {
    local b
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((255 - b)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

run ref 0 convert "$tmp/d.MLV" --to md5 -o "$tmp/ref.md5"
run cold 0 -v convert "$tmp/d.MLV" --to md5 -o "$tmp/cold.md5" --cache "$tmp/C"
expect cold "0 10 0 10"
cmp -s "$tmp/ref.md5" "$tmp/cold.md5" || fail "cold cache run differs from no cache"
dir=$(find "$tmp/C" -mindepth 1 -maxdepth 1 -type d)
[ "$(echo "$dir" | wc -l)" -eq 1 ] && [ -f "$dir/00000001.mpc" ] || fail "cache layout: $dir"

size=$(stat -c %s "$dir/00000001.mpc")
flip "$dir/00000001.mpc" $((size - 100))          # inside the LZ4 block
flip "$dir/00000003.mpc" 40                       # header: width
truncate -s $((size / 2)) "$dir/00000005.mpc"
: >"$dir/00000006.mpc"
cp "$dir/00000002.mpc" "$dir/00000008.mpc"        # frame 2's entry named as frame 8's
run damaged 0 -v convert "$tmp/d.MLV" --to md5 -o "$tmp/damaged.md5" --cache "$tmp/C"
expect damaged "5 5 5 5"
cmp -s "$tmp/ref.md5" "$tmp/damaged.md5" || fail "damaged cache: output differs from no cache"
for f in 00000001 00000003 00000005 00000006 00000008; do
    grep -q "$f.mpc" "$tmp/damaged.err" || fail "no warning names $f.mpc"
done
[ "$(grep -c 'warning' "$tmp/damaged.err")" -ge 5 ] || fail "fewer than 5 warnings"
run again 0 -v convert "$tmp/d.MLV" --to md5 -o "$tmp/again.md5" --cache "$tmp/C" --threads 1
expect again "10 0 0 0"
cmp -s "$tmp/ref.md5" "$tmp/again.md5" || fail "rewritten entries: output differs"

# Entries that cannot be written: the run succeeds with the same output and one warning.
mkdir -p "$tmp/F"
: >"$tmp/F/$(basename "$dir")"
run unwritable 0 -v convert "$tmp/d.MLV" --to md5 -o "$tmp/unwritable.md5" --cache "$tmp/F"
expect unwritable "0 10 0 0"
grep -q '10 failed writes' "$tmp/unwritable.err" || fail "unwritable: failed writes not counted"
[ "$(grep -c 'not cached' "$tmp/unwritable.err")" -eq 1 ] || fail "unwritable: not one warning"
cmp -s "$tmp/ref.md5" "$tmp/unwritable.md5" || fail "unwritable cache: output differs"
# A cache folder that cannot be made is an error before any frame.
run nodir 5 convert "$tmp/d.MLV" --to md5 -o "$tmp/nodir.md5" --cache "$tmp/ref.md5/C"
finish
