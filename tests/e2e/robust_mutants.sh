#!/bin/bash
# The whole-clip mutation test (issue 14): 400 mutants (seed 14) of four small clips
# (uncompressed with audio, LJ92, DELTA, LZMA), each read as convert does; see
# robust_mutants.c for what is asserted. Run under ASan/UBSan in the sanitizer build.
# usage: robust_mutants.sh MLVSYNTH ROBUST_MUTANTS
set -u
mlvsynth=$1
mutants=$2
. "$(dirname "$0")/lib.sh"
"$mlvsynth" -o "$tmp/u.MLV" --frames 8 --size 64x32 --audio >/dev/null || fail "mlvsynth u"
"$mlvsynth" -o "$tmp/j.MLV" --frames 8 --size 64x32 --compress lj92 >/dev/null || fail "mlvsynth j"
"$mlvsynth" -o "$tmp/d.MLV" --frames 8 --size 64x32 --compress delta >/dev/null || fail "mlvsynth d"
"$mlvsynth" -o "$tmp/z.MLV" --frames 8 --size 64x32 --compress lzma >/dev/null || fail "mlvsynth z"
mkdir "$tmp/m"
"$mutants" 14 400 "$tmp/m" "$tmp/u.MLV" "$tmp/j.MLV" "$tmp/d.MLV" "$tmp/z.MLV" ||
    fail "mutation test"
finish
