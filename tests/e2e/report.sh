#!/bin/bash
# mlvpipe report of generated clips (dual ISO with defects, a gradient, audio, a missing clip,
# a damaged one with a dropped frame, dual ISO with flickering light): the JSON against the
# clips' ground truth
# (report_check.py), exit status 3 (the worst clip: the missing one), one schema for one clip
# or many, the same bytes with 1 and 2 threads, a page without script or URL carrying every
# picture, plots and rows a reader can trust (report_plots.py), outputs that would replace a
# clip refused.
# usage: report.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
here=$(dirname "$0")
. "$here/lib.sh"

"$mlvsynth" -o "$tmp/dual.MLV" --dual-iso --size 640x360 --frames 12 --iso-high 1600 \
    --defects --truth-raw >/dev/null || fail "mlvsynth dual"
"$mlvsynth" -o "$tmp/grad.MLV" --content gradient --size 320x180 --frames 10 >/dev/null ||
    fail "mlvsynth gradient"
"$mlvsynth" -o "$tmp/snd.MLV" --audio --size 256x128 --frames 24 >/dev/null || fail "mlvsynth audio"
"$mlvsynth" -o "$tmp/cut.MLV" --frames 8 --truncate 5000 --drop 3 >/dev/null || fail "mlvsynth cut"
"$mlvsynth" -o "$tmp/flick.MLV" --dual-iso --size 480x270 --frames 16 --illum-sigma 0.02 \
    >/dev/null || fail "mlvsynth flicker"
clips=("$tmp/dual.MLV" "$tmp/grad.MLV" "$tmp/snd.MLV" "$tmp/gone.MLV" "$tmp/cut.MLV" "$tmp/flick.MLV")

run r1 3 report "${clips[@]}" -o "$tmp/r1.html" --json "$tmp/r1.json" --threads 1
python3 "$here/report_check.py" "$tmp/r1.json" "$tmp" || fail "JSON against the truth"
run r2 3 report "${clips[@]}" -o "$tmp/r2.html" --json "$tmp/r2.json" --threads 2
cmp -s "$tmp/r1.json" "$tmp/r2.json" || fail "JSON differs between 1 and 2 threads"
cmp -s "$tmp/r1.html" "$tmp/r2.html" || fail "page differs between 1 and 2 threads"
grep -q "gone.MLV" "$tmp/r1.err" || fail "the missing clip is not reported on stderr"

# the page: no script, nothing to fetch, every contact-sheet picture and defect map inline
grep -qi "<script" "$tmp/r1.html" && fail "page has a script"
grep -qiE "https?:|src=\"[^d]" "$tmp/r1.html" && fail "page refers to something outside"
imgs=$(grep -o "<img " "$tmp/r1.html" | wc -l)
want=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(sum(len(c['contact_sheet']) + sum(1 for s in c['segments'] if s['defects']['pixels'] or s['defects']['lattice']) for c in r['clips']))" "$tmp/r1.json")
[ "$imgs" -eq "$want" ] || fail "page has $imgs pictures, the JSON says $want"
for n in dual grad snd gone cut flick; do
    grep -q "$n.MLV" "$tmp/r1.html" || fail "page does not name $n.MLV"
done
# as a reader sees it (#35): smooth deep histogram bins, legends off the curves, dashes for
# the clip not read, the compression labelled
python3 "$here/report_plots.py" "$tmp/r1.html" gone.MLV || fail "the page's plots and rows"
grep -q "damage before frame 7: truncated" "$tmp/r1.html" || fail "the cut is not on the time line"

# one clip: the same schema, the clip's entry as in the batch
run one 0 report "$tmp/grad.MLV" --json "$tmp/one.json"
python3 - "$tmp/one.json" "$tmp/r1.json" <<'PY' || fail "one clip's JSON is not the batch's entry"
import json, sys
one, many = (json.load(open(p)) for p in sys.argv[1:3])
sys.exit(len(one["clips"]) != 1 or one["clips"][0] != many["clips"][1])
PY

# refused: no output, an output that is a clip, an existing output without --overwrite
# (before any clip is read: a usage error with the --help hint, #35)
run none 2 report "$tmp/grad.MLV"
md5=$(md5sum <"$tmp/grad.MLV")
run onto 2 report "$tmp/grad.MLV" -o "$tmp/grad.MLV"
[ "$(md5sum <"$tmp/grad.MLV")" = "$md5" ] || fail "the clip was replaced by its report"
run exists 2 report "$tmp/grad.MLV" --json "$tmp/one.json" -v
[ "$(tail -n 1 "$tmp/exists.err")" = "(see 'mlvpipe report --help')" ] &&
    ! grep -q "grad.MLV: ok" "$tmp/exists.err" || fail "existing output: $(cat "$tmp/exists.err")"
run again 0 report "$tmp/grad.MLV" --json "$tmp/one.json" --overwrite
finish
