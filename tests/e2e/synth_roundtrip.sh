#!/usr/bin/env bash
# mlvsynth -> mlvpipe reader round trips: every variant (all depths, LJ92 in both layouts and
# predictors 1-7, LZMA, DELTA, LZMA+DELTA, legacy RAW, audio, metadata changes, dual ISO)
# decodes to exactly the generated values; damaged clips report their damage and keep every
# intact frame.    usage: synth_roundtrip.sh MLVSYNTH SYNTH_ROUNDTRIP
set -euo pipefail
here=$(dirname "$0")
. "$here/synth_lib.sh"
mlvsynth=$1
roundtrip=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

count=0
while read -r name opts; do
    # shellcheck disable=SC2086
    "$mlvsynth" -o "$dir/$name" $opts
    # shellcheck disable=SC2086
    "$roundtrip" -o "$dir/$name" $opts
    count=$((count + 1))
done < <(synth_variants r)
echo "round trips: $count clips"
