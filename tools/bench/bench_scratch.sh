# Sourced by the benchmark scripts that compare with ffmpeg (set $bench to the script's name
# first): without ffmpeg, skip (exit 77); $tmp, a scratch folder in /dev/shm when there is
# one (so the disk does not count), removed on exit; die MSG: the message and exit 1.
command -v ffmpeg >/dev/null || { echo "no ffmpeg: skip"; exit 77; }
base=/tmp
[ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
tmp=$(mktemp -d "$base/$bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
die() { echo "$bench: $*" >&2; exit 1; }
