#!/bin/bash
# The damage contract held everywhere (issue 29): damage costs the frames it touches and
# nothing else, ends in exit 4 (3 when no frame is usable) with one line naming the file and
# the offset, and never makes a run allocate beyond what the file can hold. Each class of the
# held-out campaign on a clip mlvsynth writes, judged like robust_damage.sh: per-frame MD5s
# against the undamaged clip, the exit status, the message.
# usage: robust_contract.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
mutate="python3 $(dirname "$0")/mlv_mutate.py"
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/robust_lib.sh"
ulimit -f 200000
# names NAME FILE OFFSET: a line of NAME's messages names FILE and the byte offset
names() { grep -q "$2: offset $3: " "$tmp/$1.err" || fail "$1: no line naming $2 at offset $3: $(head -c 400 "$tmp/$1.err")"; }

# class 1: one LJ92 frame with no SOI, random bytes, or a JPEG process no camera writes
# costs that frame only; a range without it is intact
"$mlvsynth" -o "$tmp/lj.MLV" --frames 6 --size 64x32 --compress lj92 >/dev/null || fail "mlvsynth lj"
run lj-ref 0 convert "$tmp/lj.MLV" --to md5 -o "$tmp/lj-ref.md5"
at=$($mutate "$tmp/lj.MLV" payload-offset 2)
damaged nosoi lj zero-payload 2 0 1
damaged noise lj random-payload 2 29 0
damaged sof1 lj lj92-sof 2 1
for c in nosoi noise sof1; do
    capped $c 4 convert "$tmp/$c.MLV" --to md5 -o "$tmp/$c.md5"
    same_frames $c lj-ref 5
    grep -q "^2 " "$tmp/$c.md5" && fail "$c: the damaged frame written"
    names $c $c.MLV $at
    capped $c-part 0 convert "$tmp/$c.MLV" --to md5 -o "$tmp/$c-part.md5" --frames 3-5
    same_frames $c-part lj-ref 3
    capped $c-report 4 report "$tmp/$c.MLV" -o "$tmp/$c.html"
done

# class 3: declared sizes no frame can have are damage of the RAWI (exit 3: no usable frame),
# one line naming the file and the block, never "out of memory"
"$mlvsynth" -o "$tmp/p.MLV" --frames 6 --size 64x32 >/dev/null || fail "mlvsynth p"
rawi=$($mutate "$tmp/p.MLV" block-offsets | awk '$2 == "RAWI" { print $1; exit }')
for wh in 0x32 64x0 65535x65535 65534x32; do
    damaged s$wh p rawi-size ${wh%x*} ${wh#*x}
    capped s$wh-info 3 info "$tmp/s$wh.MLV"
    capped s$wh 3 convert "$tmp/s$wh.MLV" --to md5 -o "$tmp/s$wh.md5"
    names s$wh s$wh.MLV $rawi
    says s$wh "size $wh impossible"
    grep -q "out of memory" "$tmp/s$wh.err" && fail "s$wh: out of memory"
done

# class 4: memory follows the payloads, not the declared size. A RAWI of 8192x8192 over
# 64x32 payloads (uncompressed, LJ92, LZMA+DELTA): no usable frame (exit 3), one line naming
# the first frame, and the run's peak memory far below one declared frame (117 MiB packed,
# 128 MiB decoded)
bound=$((96 * 1024))
[ -n "${MLVPIPE_SANITIZED:-}" ] && bound=$((400 * 1024))
"$mlvsynth" -o "$tmp/z.MLV" --frames 6 --size 64x32 --compress lzma-delta >/dev/null ||
    fail "mlvsynth z"
for c in p lj z; do
    damaged huge$c $c rawi-size 8192 8192
    at=$($mutate "$tmp/huge$c.MLV" payload-offset 0)
    for to in md5 ffv1; do
        read -r rc kib < <(python3 "$(dirname "$0")/peak_rss.py" "$tmp/huge$c-$to.out" \
            "$tmp/huge$c-$to.err" "$mlvpipe" convert "$tmp/huge$c.MLV" --to $to \
            -o "$tmp/huge$c-$to.out.$to")
        [ "$rc" = 3 ] || fail "huge$c-$to: exit $rc, expected 3 ($(head -c 300 "$tmp/huge$c-$to.err"))"
        [ "$kib" -lt "$bound" ] || fail "huge$c-$to: peak memory $kib KiB (bound $bound)"
        names huge$c-$to huge$c.MLV $at
        says huge$c-$to "RAWI size 8192x8192 at .* no payload of frames 0-5"
    done
done

# class 2: a RAWI that changes mid-clip to 17 bits or to a size no payload holds costs its
# own frames only; every frame before it is written
"$mlvsynth" -o "$tmp/ch.MLV" --frames 8 --size 64x32 --change-at 4 --change-size 64x32 \
    >/dev/null || fail "mlvsynth ch"
run ch-ref 0 convert "$tmp/ch.MLV" --to md5 -o "$tmp/ch-ref.md5"
rawi1=$($mutate "$tmp/ch.MLV" block-offsets | awk '$2 == "RAWI" { n++ } n == 2 { print $1; exit }')
damaged ch17 ch rawi bits 17 1
damaged chbig ch rawi-size 4096 4096 1
for c in ch17 chbig; do
    capped $c 4 convert "$tmp/$c.MLV" --to md5 -o "$tmp/$c.md5"
    same_frames $c ch-ref 4
    capped $c-ffv1 4 convert "$tmp/$c.MLV" --to ffv1 -o "$tmp/$c.mkv"
    capped $c-dng 4 convert "$tmp/$c.MLV" -o "$tmp/$c-dng"
    [ "$(ls "$tmp/$c-dng/$c" | grep -c '\.dng$')" -eq 4 ] || fail "$c-dng: not 4 DNGs"
done
names ch17 ch17.MLV $rawi1
says ch17 "bits_per_pixel 17 impossible"
names chbig chbig.MLV "$($mutate "$tmp/ch.MLV" payload-offset 4)"

# class 5: a chunk that exists but cannot be read (a dangling link, a folder, a FIFO, a
# device) is damage naming it, not the end of the clip: the frames of the chunks before it
"$mlvsynth" -o "$tmp/sp.MLV" --frames 9 --chunk-frames 3 --size 64x32 >/dev/null ||
    fail "mlvsynth sp"
run sp-ref 0 convert "$tmp/sp.MLV" --to md5 -o "$tmp/sp-ref.md5"
for k in dangling folder fifo device; do
    rm -rf "$tmp/sp.M01"
    case $k in
    dangling) ln -s nowhere "$tmp/sp.M01" ;;
    folder) mkdir "$tmp/sp.M01" ;;
    fifo) mkfifo "$tmp/sp.M01" ;;
    device) ln -s /dev/zero "$tmp/sp.M01" ;;
    esac
    capped sp-$k-info 4 info "$tmp/sp.MLV"
    capped sp-$k 4 convert "$tmp/sp.MLV" --to md5 -o "$tmp/sp-$k.md5"
    same_frames sp-$k sp-ref 6
    names sp-$k sp.M01 0
done

# class 6: a legacy .RAW footer's frame rate of 0, negative or above 1000 fps is damage, as in
# an MLV: the fallback 25 fps, every frame written as DNG and in a movie, exit 4
"$mlvsynth" -o "$tmp/old.RAW" --legacy-raw --frames 4 --size 64x32 >/dev/null ||
    fail "mlvsynth old"
run old-ref 0 convert "$tmp/old.RAW" --to md5 -o "$tmp/old-ref.md5"
fps_at=$(($(stat -c %s "$tmp/old.RAW") - 192 + 20))
for fps in 0 -25000 1000001; do
    r=fps$fps
    cp "$tmp/old.RAW" "$tmp/$r.RAW" && $mutate "$tmp/$r.RAW" footer-fps $fps || fail "mutate $r"
    capped $r-info 4 info "$tmp/$r.RAW"
    says $r-info "footer frame rate $fps/1000 is not a rate; using 25000/1000"
    capped $r 4 convert "$tmp/$r.RAW" --to md5 -o "$tmp/$r.md5"
    same_frames $r old-ref 4
    names $r $r.RAW $fps_at
    capped $r-dng 4 convert "$tmp/$r.RAW" -o "$tmp/$r-dng"
    [ "$(ls "$tmp/$r-dng/$r" | grep -c '\.dng$')" -eq 4 ] || fail "$r-dng: not 4 DNGs"
    capped $r-ffv1 4 convert "$tmp/$r.RAW" --to ffv1 -o "$tmp/$r.mkv"
done

# class 9: what a clip says reaches the terminal with its control characters escaped: a
# camera name that sets the title and clears the screen, a lens name and a file name with a
# newline that would forge a message line
controls() { LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$@"; }
damaged esc p text IDNT 16 '\x1b]0;pwned\x07\x1b[2J\0'
$mutate "$tmp/esc.MLV" text LENS 32 'L\nmlvpipe: error: forged\0' || fail "mutate esc lens"
capped esc-info 0 info "$tmp/esc.MLV"
controls "$tmp/esc-info.out" && fail "esc-info: control characters in info's text"
says esc-info 'camera:        \\x1b]0;pwned\\x07\\x1b\[2J (model'
grep -q "^mlvpipe: error: forged" "$tmp/esc-info.out" && fail "esc-info: a forged line"
capped esc-json 0 info "$tmp/esc.MLV" --json
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d["camera"]["name"] != "\x1b]0;pwned\x07\x1b[2J")' \
    "$tmp/esc-json.out" || fail "esc-json: the camera name does not come back as written"
mkdir "$tmp/nl"
nl=$'n\nmlvpipe: warning: forged'
cp "$tmp/p.MLV" "$tmp/nl/$nl.MLV" && $mutate "$tmp/nl/$nl.MLV" cut-after 3 || fail "mutate nl"
capped nl 4 convert "$tmp/nl/$nl.MLV" --to md5 -o "$tmp/nl.md5"
capped nl-info 4 info "$tmp/nl/$nl.MLV"
capped nl-report 4 report "$tmp/nl" -o "$tmp/nl.html"
for r in nl nl-info nl-report; do
    controls "$tmp/$r.err" "$tmp/$r.out" && fail "$r: control characters in the output"
    grep -q "^mlvpipe: warning: forged" "$tmp/$r.err" "$tmp/$r.out" && fail "$r: a forged line"
done
says nl 'n\\x0amlvpipe: warning: forged.MLV: offset [0-9]*: MLVI videoFrameCount'

# class 8: a levels sidecar with values no sensor gives (a ratio of 1e308, a field's black
# above its white, a negative noise) is refused naming the sidecar and the key: exit 3, not
# accepted (0) nor a usage error (2)
"$mlvsynth" -o "$tmp/di.MLV" --dual-iso --size 128x64 --frames 4 --ob 0x0 >/dev/null ||
    fail "mlvsynth di"
run di-levels 0 analyze "$tmp/di.MLV" -o "$tmp/di.json"
run di-ref 0 convert "$tmp/di.MLV" --levels "$tmp/di.json" --to md5 -o "$tmp/di-ref.md5"
k=0
for edit in 's/"ratio": [0-9.e+]*/"ratio": 1e308/' 's/"black_dark": [0-9.]*/"black_dark": 16000/' \
    's/"noise_bright": [0-9.]*/"noise_bright": -5/' 's/"out_scale": [0-9.]*/"out_scale": 1e300/'; do
    k=$((k + 1))
    sed "$edit" "$tmp/di.json" >"$tmp/side$k.json"
    cmp -s "$tmp/di.json" "$tmp/side$k.json" && fail "side$k: '$edit' changed nothing"
    capped side$k 3 convert "$tmp/di.MLV" --levels "$tmp/side$k.json" --to md5 -o "$tmp/side$k.md5"
    says side$k "side$k.json: key 'segments\[0\].levels': "
    [ "$(wc -l <"$tmp/side$k.err")" -eq 1 ] || fail "side$k: not one line: $(cat "$tmp/side$k.err")"
done

# class 7: join never copies a damaged FFV1 packet as good. A byte flipped inside a packet of
# the second segment (or of the very first packet, before any packet has shown the stream
# carries slice CRCs) is refused naming the segment and the frame: exit 4, no output
if command -v ffprobe >/dev/null; then
    "$mlvsynth" -o "$tmp/j.MLV" --frames 8 --size 64x32 >/dev/null || fail "mlvsynth j"
    for r in 0-3 4-7; do
        run j$r 0 convert "$tmp/j.MLV" --to ffv1 -o "$tmp/j$r.mkv" --frames $r
    done
    run j-ok 0 join "$tmp/j-ok.mkv" "$tmp/j0-3.mkv" "$tmp/j4-7.mkv"
    # flip SEGMENT PACKET NAME: NAME.mkv, SEGMENT with a bit flipped mid-way in a video packet
    flip() {
        local at
        at=$(ffprobe -v error -select_streams v -show_entries packet=pts,size,pos -of csv=p=0 \
            "$tmp/$1.mkv" | sort -t, -k1n | sed -n "$(($2 + 1))p" | awk -F, '{ print $3 + int($2 / 2) }')
        python3 -c 'import sys; p = sys.argv[1]; d = bytearray(open(p, "rb").read()); d[int(sys.argv[2])] ^= 0x10; open(p, "wb").write(d)' \
            "$tmp/$3.mkv" "$at" 2>/dev/null || true
    }
    cp "$tmp/j4-7.mkv" "$tmp/jbad.mkv" && flip j4-7 2 jbad
    capped jbad 4 join "$tmp/jbad-out.mkv" "$tmp/j0-3.mkv" "$tmp/jbad.mkv"
    says jbad "jbad.mkv: frame 6: slice CRC mismatch"
    [ -e "$tmp/jbad-out.mkv" ] && fail "jbad: an output was written"
    cp "$tmp/j0-3.mkv" "$tmp/jfirst.mkv" && flip j0-3 0 jfirst
    capped jfirst 4 join "$tmp/jfirst-out.mkv" "$tmp/jfirst.mkv" "$tmp/j4-7.mkv"
    says jfirst "jfirst.mkv: frame 0: slice CRC mismatch"
    # join --no-verify trusts its segments: the bytes of the checked join from good ones, and
    # the damaged packet copied as it is (exit 0)
    run j-trust 0 join --no-verify "$tmp/j-trust.mkv" "$tmp/j0-3.mkv" "$tmp/j4-7.mkv"
    cmp -s "$tmp/j-ok.mkv" "$tmp/j-trust.mkv" || fail "j-trust: not the checked join's bytes"
    run jbad-trust 0 join --no-verify "$tmp/jbad-trust.mkv" "$tmp/j0-3.mkv" "$tmp/jbad.mkv"
    [ "$(stat -c %s "$tmp/jbad-trust.mkv")" = "$(stat -c %s "$tmp/j-ok.mkv")" ] &&
        ! cmp -s "$tmp/j-ok.mkv" "$tmp/jbad-trust.mkv" || fail "jbad-trust: the packet not copied as it is"
else
    echo "class 7 not checked: no ffprobe"
fi
finish
