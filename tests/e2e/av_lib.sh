# Shared by the av_*.sh end-to-end tests. Source with the path of av_write as $1.
# Gives: $AVW, $WORK (a temporary folder removed on exit), fail, need, probe, decode_ok,
# no_leftovers.
set -euo pipefail
AVW=$(realpath "${1:?usage: $0 PATH/av_write}")
WORK=$(mktemp -d /tmp/mlvpipe-av-e2e-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK"

fail() { echo "FAIL: $*" >&2; exit 1; }

need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is not installed"; exit 77; }
  done
}
need ffmpeg ffprobe

# probe FILE STREAM ENTRY -> the value ffprobe reports (e.g. probe x.mov v:0 pix_fmt)
probe() {
  ffprobe -v error -select_streams "$2" -show_entries "stream=$3" -of default=nw=1:nk=1 "$1"
}

# expect WHAT GOT WANT
expect() {
  [ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# ffmpeg decodes every stream of FILE without an error message. (Warnings are not checked:
# Matroska stores a channel count, not a layout, so ffmpeg warns that it guessed "stereo".)
decode_ok() {
  local log
  log=$(ffmpeg -nostdin -v error -xerror -i "$1" -map 0:v -map '0:a?' -f null - 2>&1) ||
    fail "$1: ffmpeg cannot decode it: $log"
  [ -z "$log" ] || fail "$1: ffmpeg complains: $log"
}

# No temporary (.NAME.PID-N.part) files left in the working folder.
no_leftovers() {
  local left
  left=$(find . -name '*.part')
  [ -z "$left" ] || fail "temporary files left: $left"
}
