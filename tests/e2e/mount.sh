#!/usr/bin/env bash
# mlvpipe mount (issue #32): a folder of clips mounted read-only shows exactly convert's files
# (dual ISO with audio, a 12-bit clip, Resolve names), read by two readers at once and at
# random offsets, stat sizes equal to the bytes; a refused clip is a folder with a text file;
# a frame found damaged when read gives EIO and leaves the folder; clips copied in or removed
# appear and disappear; a part of a clip (--frames 2-5 --audio) has convert's cut WAV;
# fusermount3 -u, SIGINT and SIGTERM each end a mount with exit 0 and
# leave no mount behind. A trap runs `fusermount3 -uz` on every mount point whatever happens.
# usage: mount.sh MLVPIPE MLVSYNTH
mlvpipe=$1 synth=$2
here=$(dirname "$0")
. "$here/lib.sh"
[ -c /dev/fuse ] || { echo "SKIP: /dev/fuse is missing (no FUSE here)"; exit 77; }
need fusermount3 python3
mounts=()
cleanup() {
    local m
    for m in "${mounts[@]}"; do fusermount3 -uz "$m" 2>/dev/null; done
    [ -n "${KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
export XDG_CACHE_HOME=$tmp/xdg
mounted() { grep -q " $1 fuse" /proc/mounts; }

mkdir -p "$tmp/src" "$tmp/m1" "$tmp/m2" "$tmp/m3"
"$synth" -o "$tmp/src/A.MLV" --dual-iso --size 256x128 --frames 8 --audio \
    --audio-offset 3000 >/dev/null || fail "mlvsynth A"
"$synth" -o "$tmp/src/B.MLV" --size 128x64 --frames 4 --bits 12 >/dev/null || fail "mlvsynth B"
"$synth" -o "$tmp/src/E.MLV" --size 128x64 --frames 4 --compress lj92 >/dev/null ||
    fail "mlvsynth E"
python3 "$here/mlv_mutate.py" "$tmp/src/E.MLV" random-payload 1 7 16 || fail "mutate E"
echo "not a clip" >"$tmp/src/C.MLV"
# convert's files, the reference (exit 3: C is no clip)
run ref 3 convert "$tmp/src" -o "$tmp/ref"
[ -f "$tmp/ref/E/E_000001.dng" ] && fail "convert wrote the damaged frame"

# In the background (no -f): returns once the mount is ready.
mounts+=("$tmp/m1")
run m1 0 mount "$tmp/src" "$tmp/m1"
mounted "$tmp/m1" || fail "no mount after mlvpipe mount returned"
[ "$(ls "$tmp/m1" | tr '\n' ' ')" = "A B C E " ] ||
    fail "root lists '$(ls "$tmp/m1" | tr '\n' ' ')', expected A B C E"
grep -q "no MLVI header" "$tmp/m1/C/mlvpipe-refused.txt" || fail "C: no refusal text"
cat "$tmp/m1/E/E_000001.dng" >/dev/null 2>"$tmp/eio.err" && fail "damaged frame was served"
grep -q "Input/output error" "$tmp/eio.err" || fail "damaged frame: $(cat "$tmp/eio.err")"
ls "$tmp/m1/E" | grep -q E_000001 && fail "damaged frame still listed"
python3 "$here/mount_reader.py" "$tmp/ref" "$tmp/m1" --readers 2 --random 300 ||
    fail "files through the mount differ from convert's"

# Clips that come and go.
cp "$tmp/src/B.MLV" "$tmp/src/F.MLV"
sleep 1.2
[ -d "$tmp/m1/F" ] || fail "a clip copied in does not appear"
cmp -s "$tmp/m1/F/F_000002.dng" "$tmp/m1/F/F_000002.dng" || fail "F unreadable"
rm "$tmp/src/F.MLV"
sleep 1.2
ls "$tmp/m1" | grep -qx F && fail "a removed clip is still listed"
fusermount3 -u "$tmp/m1" || fail "fusermount3 -u"
sleep 0.3
mounted "$tmp/m1" && fail "m1 still mounted"

# One clip as SOURCE, Resolve names, in the foreground: each way of ending it exits 0.
run ref2 0 convert "$tmp/src/A.MLV" -o "$tmp/ref2" --naming resolve
for how in fusermount SIGINT SIGTERM; do
    mounts+=("$tmp/m2")
    "$mlvpipe" mount -f "$tmp/src/A.MLV" "$tmp/m2" --naming resolve 2>"$tmp/fg.err" &
    pid=$!
    for _ in $(seq 1 1500); do mounted "$tmp/m2" && break; sleep 0.02; done
    if ! mounted "$tmp/m2"; then
        fail "$how: not mounted after 30 s ($(head -c 300 "$tmp/fg.err"))"
        kill -9 "$pid"
        wait "$pid"
        continue
    fi
    if [ "$how" = fusermount ]; then
        python3 "$here/mount_reader.py" "$tmp/ref2" "$tmp/m2" --readers 2 ||
            fail "Resolve names: files differ from convert's"
        fusermount3 -u "$tmp/m2"
    else
        kill -"${how#SIG}" "$pid"
    fi
    wait "$pid"
    rc=$?
    [ "$rc" -eq 0 ] || fail "$how: mount exit $rc ($(head -c 300 "$tmp/fg.err"))"
    mounted "$tmp/m2" && fail "$how: still mounted"
done

# A part of a clip whose audio starts before the video: the WAV is cut at both ends.
"$synth" -o "$tmp/G.MLV" --size 128x64 --frames 8 --audio --audio-offset -7000 >/dev/null ||
    fail "mlvsynth G"
run ref3 0 convert "$tmp/G.MLV" -o "$tmp/ref3" --frames 2-5 --audio
mounts+=("$tmp/m3")
run m3 0 mount "$tmp/G.MLV" "$tmp/m3" --frames 2-5 --audio
python3 "$here/mount_reader.py" "$tmp/ref3" "$tmp/m3" --random 50 ||
    fail "--frames 2-5 --audio: files differ from convert's"
fusermount3 -u "$tmp/m3"

# Usage errors.
run lj92 2 mount "$tmp/src" "$tmp/m3" --dng-compression lj92
run to 2 mount "$tmp/src" "$tmp/m3" --to prores422hq
run curve 2 mount "$tmp/src" "$tmp/m3" --curve logc3
run one 2 mount "$tmp/src"
mounted "$tmp/m3" && fail "a refused command mounted"
finish
