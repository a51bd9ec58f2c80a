#!/bin/bash
# Stills (issue #31): CR2s from tools/cr2synth decode in dcraw and LibRaw to exactly the
# samples written; a folder of stills (dual-ISO and single-ISO CR2s, a raw DNG of our own
# writer, mlv_dump's DNGs from the shared samples, a CR2 cut short and one whose slice tag does
# not add up) converts each still to OUT/NAME.dng, with a line and exit 4 for the damaged
# ones, and for one that crashes LibRaw (its crash costs that still only, also as one still
# and when LibRaw goes over its CPU budget); the output DNGs pass exiftool -validate, dcraw and
# LibRaw (raw-identify, dcraw_emu), keep the photo's EXIF and are dual ISO no more (mlv_dump's
# keep their samples); info describes a still, for every body the writer knows; --sequence
# takes a folder as one clip (a timelapse, one set of levels), to DNGs, a movie and a pipe, in
# convert and in a farm plan; LibRaw missing is a one-line error naming the package.
# usage: stills.sh MLVPIPE CR2SYNTH MLVSYNTH ENCODE_FROM_CLIP STILL_QUALITY MLVDUMP_DNG SEGV_CR2
set -u
mlvpipe=$1
cr2synth=$2
mlvsynth=$3
encode_from_clip=$4
still_quality=$5
mlvdump_dng=$6
segv_cr2=$7   # makes LibRaw 0.20 crash in parse_tiff_ifd (tests/fuzz/corpus/fuzz_still)
. "$(dirname "$0")/lib.sh"
need dcraw dcraw_emu unprocessed_raw raw-identify exiftool ffprobe python3

in=$tmp/card
mkdir -p "$in"
"$cr2synth" -o "$in/IMG_0001.CR2" --dual 4 --size 256x160 --orientation 6 \
    --samples "$tmp/IMG_0001.pgm" || fail "cr2synth dual"
"$cr2synth" -o "$in/IMG_0002.CR2" --size 256x160 --slices 3 --bits 12 --camera eosm \
    --samples "$tmp/IMG_0002.pgm" || fail "cr2synth single"
"$cr2synth" -o "$tmp/cut.CR2" --size 256x160 || fail "cr2synth cut"
head -c 40000 "$tmp/cut.CR2" >"$in/IMG_0003.CR2"
"$cr2synth" -o "$in/IMG_0004.CR2" --size 256x160 --wrong-slices || fail "cr2synth slices"
"$mlvsynth" -o "$tmp/d.MLV" --size 320x200 --frames 1 --content dualiso >/dev/null || fail "mlvsynth"
"$encode_from_clip" "$tmp/d.MLV" "$tmp/raw" native || fail "encode_from_clip"
cp "$tmp/raw/d/d_000000.dng" "$in/IMG_0005.DNG"
cp "$segv_cr2" "$in/IMG_0007.CR2"
peer=${MLVPIPE_SAMPLES:-}/peer
for wb in kelvin custom; do   # mlv_dump's DNGs (README there): real Magic Lantern output
    [ -f "$peer/wb_${wb}_mlvdump_000000.dng" ] && cp "$peer/wb_${wb}_mlvdump_000000.dng" "$in/"
done

# The writer against two outside decoders: every sample, masked borders included.
for n in 1 2; do
    f=$in/IMG_000$n.CR2
    dcraw -E -4 -t 0 -c "$f" | cmp -s - "$tmp/IMG_000$n.pgm" || fail "dcraw -E -4 IMG_000$n differs"
    cp "$f" "$tmp/lr$n.CR2" && unprocessed_raw -q "$tmp/lr$n.CR2" &&
        cmp -s "$tmp/lr$n.CR2.pgm" "$tmp/IMG_000$n.pgm" || fail "LibRaw's IMG_000$n differs"
done
# A dual-ISO DNG as mlv_dump writes one (tools/bench/stills/mlvdump_dng.py: none of our code),
# read back by dcraw to the same samples.
python3 "$mlvdump_dng" "$tmp/IMG_0001.pgm" "$in/IMG_0006.DNG" 72 28 || fail "mlvdump_dng"
dcraw -E -4 -t 0 -c "$in/IMG_0006.DNG" | cmp -s - "$tmp/IMG_0001.pgm" || fail "mlvdump_dng's samples"
id=$(raw-identify -v "$in/IMG_0001.CR2")
for want in "Camera: Canon EOS 5D Mark III ID: 0x80000285" "Owner: mlvpipe tests" \
            "ChannelBlackLevel: 2048 2048 2048 2048" "As shot                   2100 1024 1560 1024" \
            "Raw inset, width x height:  256 x 160 left: 72 top: 28" "Image flip: 6"; do
    grep -qF "$want" <<<"$id" || fail "raw-identify IMG_0001: no '$want'"
done

# info: a still is one frame, its format and picture area; dual ISO found in the pixels.
run info 0 info "$in/IMG_0001.CR2"
grep -q "^container:     CR2 still (one frame), decoded by LibRaw, picture 256x160 at 72,28, orientation 6" \
    "$tmp/info.out" || fail "info container: $(grep container "$tmp/info.out")"
grep -q "dual ISO pixels: yes in 1 of 1" "$tmp/info.out" || fail "info: dual ISO not found"
! grep -qE "^(fps|gaps|duration):" "$tmp/info.out" || fail "info: a clip's timing for a photo"
run json 0 info --json "$in/IMG_0002.CR2"
grep -q '"container": "still"' "$tmp/json.out" && grep -q '"format": "CR2"' "$tmp/json.out" ||
    fail "info --json"
run damaged 4 info "$in/IMG_0004.CR2"
# every body the writer knows (the 5D Mark III's and the version-7 colour data's), named by
# LibRaw and by info as the maker note's model id says, dual ISO found
for body in 5d3:"5D Mark III":80000285 eosm:M:80000331 eosm2:M2:80000355 100d:100D:80000346 \
            650d:650D:80000301 700d:700D:80000326; do
    IFS=: read -r key name id <<<"$body"
    "$cr2synth" -o "$tmp/body.CR2" --dual 4 --size 192x128 --camera "$key" --overwrite ||
        fail "cr2synth --camera $key"
    raw-identify "$tmp/body.CR2" | grep -qx "$tmp/body.CR2 is a Canon EOS $name image." ||
        fail "raw-identify: $key: $(raw-identify "$tmp/body.CR2" | head -1)"
    run "body_$key" 0 info "$tmp/body.CR2"
    grep -q "^camera: *Canon EOS $name (model 0x$id," "$tmp/body_$key.out" &&
        grep -q "dual ISO pixels: yes" "$tmp/body_$key.out" ||
        fail "info $key: $(grep -E 'camera|dual ISO pixels' "$tmp/body_$key.out" | tr '\n' ' ')"
done

# a DNG names its camera but carries no Canon model id: the name gives it (the body's colour
# matrices and focus-pixel lattices are looked up by it), and a gains-only balance has no K
run body_dng 0 convert "$tmp/body.CR2" -o "$tmp/body_dng"
run body_dng_info 0 info "$tmp/body_dng/body.dng"
grep -q "^camera: *Canon EOS 700D (model 0x80000326," "$tmp/body_dng_info.out" ||
    fail "info of a 700D DNG: $(grep camera "$tmp/body_dng_info.out")"
grep -q "^white balance: mode 6, gains " "$tmp/body_dng_info.out" ||
    fail "info of a DNG's balance: $(grep 'white balance' "$tmp/body_dng_info.out")"

# The folder: every still to OUT/NAME.dng, the damaged ones named with exit 4.
run folder 4 convert "$in" -o "$tmp/out"
for n in 1 2 5 6; do [ -f "$tmp/out/IMG_000$n.dng" ] || fail "no IMG_000$n.dng"; done
# the mlv_dump-style still reconstructed: scored against the scene's truth (tools/bench/stills),
# its dynamic range is dual ISO's (the ISO-100 field alone gives 10.9 EV)
"$still_quality" --size 256x160 --seed 1 "$tmp/out/IMG_0006.dng" >"$tmp/q.out" 2>&1 ||
    fail "still_quality: $(cat "$tmp/q.out")"
dr=$(awk '/engineering DR/ {print $4}' "$tmp/q.out")
awk -v d="${dr:-0}" 'BEGIN {exit !(d > 13.5)}' || fail "IMG_0006 DR $dr EV: $(cat "$tmp/q.out")"
# mlv_dump's DNGs (single ISO) keep their samples, as dcraw reads both
for f in "$in"/wb_*_mlvdump_000000.dng; do
    [ -e "$f" ] || continue
    cmp -s <(dcraw -D -4 -c "$f") <(dcraw -D -4 -c "$tmp/out/${f##*/}") ||
        fail "mlv_dump's ${f##*/}: the output's samples differ (or no output)"
done
ls "$tmp/out" | grep -q "IMG_000[347]" && fail "a damaged still has an output"
grep -q "IMG_0003.CR2: offset 40000: the file ends inside the image data" "$tmp/folder.err" ||
    fail "cut still: $(cat "$tmp/folder.err")"
grep -q "IMG_0004.CR2: offset [0-9]*: the slice tag 0xC640" "$tmp/folder.err" ||
    fail "slice tag: $(cat "$tmp/folder.err")"
grep -q "IMG_0007.CR2: LibRaw crashed: signal 11 (SIGSEGV)" "$tmp/folder.err" ||
    fail "LibRaw's crash: $(cat "$tmp/folder.err")"
# alone, each damaged still is the damage contract's one line and exit 4
run crash 4 convert "$in/IMG_0007.CR2" -o "$tmp/crash"
[ "$(cat "$tmp/crash.err")" = "mlvpipe: error: IMG_0007.CR2: LibRaw crashed: signal 11 (SIGSEGV)" ] ||
    fail "one crashing still: $(cat "$tmp/crash.err")"
run cut 4 convert "$in/IMG_0003.CR2" -o "$tmp/cut"
[ "$(cat "$tmp/cut.err")" = "mlvpipe: error: IMG_0003.CR2: offset 40000: the file ends inside the image data (LibRaw cannot decode it)" ] ||
    fail "one cut still: $(cat "$tmp/cut.err")"
run slices 4 convert "$in/IMG_0004.CR2" -o "$tmp/slices"
[ "$(wc -l <"$tmp/slices.err")" = 1 ] && grep -q "^mlvpipe: error: IMG_0004.CR2: offset [0-9]*: the slice tag 0xC640" "$tmp/slices.err" ||
    fail "one still with a wrong slice tag: $(cat "$tmp/slices.err")"
for f in "$tmp"/out/*.dng; do
    v=$(exiftool -validate -warning -a "$f" | grep Validate)
    [ "$v" = "Validate                        : OK" ] || fail "${f##*/}: $v"
    dcraw -i "$f" >/dev/null 2>&1 || fail "dcraw cannot read ${f##*/}"
    raw-identify "$f" | grep -q "is a Canon EOS" || fail "raw-identify: ${f##*/}"
    cp "$f" "$tmp/emu.dng" && dcraw_emu -4 -T "$tmp/emu.dng" 2>/dev/null && [ -s "$tmp/emu.dng.tiff" ] ||
        fail "LibRaw's dcraw_emu cannot develop ${f##*/}"
    rm -f "$tmp/emu.dng.tiff"
done

# Stills of a batch convert side by side, one per thread: the same bytes and the same
# damage lines on one thread and on three; a clip among them converts alone, in its turn.
for t in 1 3; do
    run threads$t 4 convert "$in" -o "$tmp/out$t" --threads $t
    for f in "$tmp"/out/*.dng; do
        cmp -s "$f" "$tmp/out$t/${f##*/}" || fail "--threads $t: ${f##*/} differs"
    done
    [ "$(ls "$tmp/out$t" | wc -l)" = "$(ls "$tmp/out" | wc -l)" ] || fail "--threads $t: outputs"
    grep -q "IMG_0003.CR2: offset 40000: the file ends" "$tmp/threads$t.err" &&
        grep -q "batch: .*IMG_0004.CR2: exit 4" "$tmp/threads$t.err" ||
        fail "--threads $t: damage lines: $(cat "$tmp/threads$t.err")"
done
run mixed 0 convert "$in/IMG_0001.CR2" "$tmp/d.MLV" "$in/IMG_0002.CR2" -o "$tmp/mixed"
[ -f "$tmp/mixed/IMG_0001.dng" ] && [ -f "$tmp/mixed/d/d_000000.dng" ] &&
    cmp -s "$tmp/mixed/IMG_0002.dng" "$tmp/out/IMG_0002.dng" ||
    fail "stills and a clip: $(ls -R "$tmp/mixed" | tr '\n' ' ')"
# A still is one frame: no raw-defect sums (they need RAWFIX_MIN_FRAMES samples; 36 bytes a
# pixel, 75 MB for 1080p, 800 MB for 22 Mpx). The conversion peaked at 92 MB with them.
"$cr2synth" -o "$tmp/hd.CR2" --dual 4 --size 1920x1080 || fail "cr2synth hd"
read -r rc kib < <(python3 "$(dirname "$0")/peak_rss.py" "$tmp/hd.out" "$tmp/hd.err" \
    "$mlvpipe" convert "$tmp/hd.CR2" -o "$tmp/hd")
[ "$rc" = 0 ] || fail "1080p still: exit $rc ($(cat "$tmp/hd.err"))"
# LibRaw over its CPU budget (its decode of 1080p takes tens of milliseconds) is stopped:
# damage, the same one line
MLVPIPE_LIBRAW_CPU_SECONDS=0.005 run budget 4 convert "$tmp/hd.CR2" -o "$tmp/budget"
grep -q "hd.CR2: LibRaw spent more than 0.005 CPU-s on it (stopped" "$tmp/budget.err" ||
    fail "CPU budget: $(cat "$tmp/budget.err")"
[ ! -e "$tmp/budget/hd.dng" ] || fail "CPU budget: an output"
[ -n "${MLVPIPE_SANITIZED:-}" ] || [ "$kib" -lt $((60 * 1024)) ] ||
    fail "1080p still: peak memory $kib KiB (bound 60 MiB)"

# The photo's EXIF carried over, read back by exiftool.
tags="-ExposureTime -FNumber -ISO -FocalLength -LensModel -DateTimeOriginal -Orientation
      -SerialNumber -OwnerName -Model"
for n in 1 2; do
    a=$(exiftool -s -s -s -f $tags "$in/IMG_000$n.CR2")
    b=$(exiftool -s -s -s -f $tags "$tmp/out/IMG_000$n.dng")
    [ "$a" = "$b" ] || fail "IMG_000$n EXIF: CR2 '$(echo $a)' DNG '$(echo $b)'"
done

# Dual ISO reconstructed (16-bit, single field); the single-ISO still keeps its samples.
run out1 0 info "$tmp/out/IMG_0001.dng"
grep -q "bit depth:     16" "$tmp/out1.out" && grep -q "dual ISO pixels: no" "$tmp/out1.out" ||
    fail "IMG_0001.dng not reconstructed"
run out2 0 info "$tmp/out/IMG_0002.dng"
grep -q "bit depth:     12" "$tmp/out2.out" || fail "IMG_0002.dng depth"

# A farm plan's tasks for a still (analyze, then convert with the sidecar and --frames) give
# the bytes of one run.
run plan_a 0 analyze "$in/IMG_0001.CR2" -o "$tmp/p1.json"
run plan_c 0 convert "$in/IMG_0001.CR2" -o "$tmp/p1" --levels "$tmp/p1.json" --frames 0-0 \
    --skip-existing
cmp -s "$tmp/p1/IMG_0001.dng" "$tmp/out/IMG_0001.dng" || fail "planned still differs"

# One still alone gives the same bytes as in the folder; inputs are never written over.
run alone 0 convert "$in/IMG_0002.CR2" -o "$tmp/alone"
cmp -s "$tmp/alone/IMG_0002.dng" "$tmp/out/IMG_0002.dng" || fail "alone differs from the folder"
mkdir -p "$tmp/self" && cp "$in/IMG_0005.DNG" "$tmp/self/IMG_0005.dng"
run self 2 convert "$tmp/self/IMG_0005.dng" -o "$tmp/self" --overwrite
cmp -s "$tmp/self/IMG_0005.dng" "$in/IMG_0005.DNG" || fail "the input was changed"

# --sequence: a folder of photos is one clip (a frame per photo, levels pooled over all of
# them; analyze takes the folder as that clip too); threads and --frames chunks give the same
# bytes; a photo of another size is left out with a line (exit 4), the rest converts.
mkdir -p "$tmp/tl"
for n in 1 2 3 4; do
    "$cr2synth" -o "$tmp/tl/TL_000$n.CR2" --dual 3 --size 192x128 --seed $n || fail "cr2synth tl"
done
run seq1 0 convert --sequence "$tmp/tl" -o "$tmp/seq1" --threads 1
run seq2 0 convert --sequence "$tmp/tl" -o "$tmp/seq2" --threads 2
run seqa 0 convert --sequence "$tmp/tl" -o "$tmp/seqc" --frames 0-1
run seqb 0 convert --sequence "$tmp/tl" -o "$tmp/seqc" --frames 2-3
[ "$(ls "$tmp/seq1/tl" | grep -c dng)" = 4 ] || fail "sequence: $(ls "$tmp/seq1/tl" | tr '\n' ' ')"
for f in "$tmp"/seq1/tl/*.dng; do
    cmp -s "$f" "$tmp/seq2/tl/${f##*/}" && cmp -s "$f" "$tmp/seqc/tl/${f##*/}" ||
        fail "sequence ${f##*/}: threads or chunks differ"
done
# any output takes a sequence, at the rate --fps gives: a movie file and a pipe
run seqmkv 0 convert --sequence "$tmp/tl" --to ffv1 --fps 24 -o "$tmp/tl.mkv"
probe="-v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,r_frame_rate -of csv=p=0"
[ "$(ffprobe $probe "$tmp/tl.mkv")" = "24/1,4" ] || fail "sequence to FFV1: $(ffprobe $probe "$tmp/tl.mkv" 2>&1)"
"$mlvpipe" -q convert --sequence "$tmp/tl" --to nut --fps 30 -o - 2>"$tmp/seqpipe.err" |
    ffprobe $probe - >"$tmp/seqpipe.out" 2>&1
[ "$(cat "$tmp/seqpipe.out")" = "30/1,4" ] || fail "sequence to a pipe: $(cat "$tmp/seqpipe.out" "$tmp/seqpipe.err")"
# info of a folder: its photos (not chunks), and the timing a sequence is given
run seqinfo 0 info "$tmp/tl"
grep -q "^photo 3 .*TL_0004.CR2$" "$tmp/seqinfo.out" && grep -q "^fps:  *25.000" "$tmp/seqinfo.out" ||
    fail "info of a folder: $(head -5 "$tmp/seqinfo.out")"
run seqv 0 -v analyze "$tmp/tl" -o "$tmp/tl.json"
grep -q "frames 0-3: dual ISO, .* from 4 of 4 sampled frames" "$tmp/seqv.err" ||
    fail "sequence levels not pooled over the photos: $(grep 'dual ISO' "$tmp/seqv.err")"
# report: a still is a clip of one frame, dual ISO found; --sequence a folder one clip
run rep1 0 report "$in/IMG_0001.CR2" --json "$tmp/rep1.json"
run repseq 0 report --sequence "$tmp/tl" --json "$tmp/repseq.json"
python3 - "$tmp/rep1.json" "$tmp/repseq.json" <<'PY' || fail "report of a still or a sequence"
import json, sys
one = json.load(open(sys.argv[1]))["clips"]
seq = json.load(open(sys.argv[2]))["clips"]
assert len(one) == 1 and one[0]["status"] == "ok" and one[0]["dual_iso"], one
assert one[0]["clip"]["frame_count"] == 1, one[0]["clip"]
assert len(seq) == 1 and seq[0]["clip"]["frame_count"] == 4 and seq[0]["dual_iso"], seq
assert seq[0]["segments"][0]["frames_used"] == 4, seq[0]["segments"]
PY
# a farm plan of the sequence (-- --sequence: the folder is one clip in plan and tasks): its
# analyze and two convert chunks, run in order, give the bytes of one run
run planseq 0 plan "$tmp/tl" -o "$tmp/plan" --engine json --chunk 2 -- --sequence
mkdir -p "$tmp/plan"
python3 - "$tmp/planseq.out" <<'PY' || fail "a planned sequence's task failed"
import json, subprocess, sys
for task in json.load(open(sys.argv[1]))["tasks"]:
    if subprocess.run(task["argv"], capture_output=True).returncode:
        sys.exit(1)
PY
for f in "$tmp"/seq1/tl/*.dng; do
    cmp -s "$f" "$tmp/plan/tl/${f##*/}" || fail "planned sequence ${f##*/} differs"
done
# --dark with a folder of photos averages them all, like a lens-cap clip
run darkseq 0 -v convert "$tmp/tl/TL_0001.CR2" -o "$tmp/darkseq" --dark "$tmp/tl"
grep -q "dark frame .*/tl: 4 frames averaged" "$tmp/darkseq.err" ||
    fail "--dark FOLDER: $(grep 'dark frame' "$tmp/darkseq.err")"
# photos of one folder numbered in a row from one body with the same settings, converted one
# by one: a hint to use --sequence; none when a photo is of another size (below), nor for
# photos not in a row (IMG_0001.CR2 .. of the folder above: other bodies and settings)
run tlbatch 0 convert "$tmp/tl" -o "$tmp/tlbatch" --to null
grep -q "4 photos numbered in a row (.*TL_0001.CR2 .. .*TL_0004.CR2), from one camera .* --sequence .*/tl converts" \
    "$tmp/tlbatch.err" || fail "no --sequence hint: $(head -3 "$tmp/tlbatch.err")"
grep -q "numbered in a row" "$tmp/folder.err" && fail "a hint for photos not in a row"
"$cr2synth" -o "$tmp/tl/TL_0005.CR2" --size 256x128 || fail "cr2synth odd size"
run seqodd 4 convert --sequence "$tmp/tl" -o "$tmp/seqodd"
grep -q "TL_0005.CR2: a 328x156 photo among 264x156 ones: left out" "$tmp/seqodd.err" ||
    fail "odd size: $(cat "$tmp/seqodd.err")"
[ "$(ls "$tmp/seqodd/tl" | grep -c dng)" = 4 ] || fail "odd size: the others not converted"
run tlodd 0 convert "$tmp/tl" -o "$tmp/tlodd" --to null
grep -q "numbered in a row" "$tmp/tlodd.err" && fail "a hint for a photo of another size"

# Without LibRaw: one line naming what to install.
MLVPIPE_LIBRAW_LIBDIR=$tmp/none "$mlvpipe" info "$in/IMG_0002.CR2" >/dev/null 2>"$tmp/nolib.err"
[ $? -ne 0 ] && grep -q "install libraw20" "$tmp/nolib.err" || fail "no LibRaw: $(cat "$tmp/nolib.err")"
finish
