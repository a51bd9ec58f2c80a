# Shared by the pipeline_*.sh end-to-end tests: lib.sh (scratch folder, failure counting,
# run) and a check that two output folders hold the same files with the same bytes.
. "$(dirname "$0")/lib.sh"

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
