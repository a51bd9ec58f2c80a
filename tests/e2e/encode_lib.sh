# Shared by the encode_*.sh end-to-end tests. Source with the path of encode_write_dng as $1.
# Gives: $WRITE, $WORK (a temporary folder removed on exit), fail, need, write_seq, and
# $VARIANTS (storage:bits pairs covering 16-bit, packed 10/12/14, LJ92 in both layouts).
set -euo pipefail
WRITE=${1:?usage: $0 PATH/encode_write_dng}
WORK=$(mktemp -d /tmp/mlvpipe-encode-e2e-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
VARIANTS="16:16 16:14 native:14 native:12 native:10 lj92:14 lj92:16 lj92-2c:14 lj92-2c:12"

fail() { echo "FAIL: $*" >&2; exit 1; }

# Exit 77 (skipped) when a reader is not installed.
need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is not installed"; exit 77; }
  done
}

# write_seq DIR STORAGE BITS W H FIRST COUNT [FLAGS...] -> DIR/CLIP/CLIP_NNNNNN.dng
write_seq() {
  local dir=$1; shift
  "$WRITE" "$dir" CLIP "$@" || fail "encode_write_dng $dir $*"
}
