#!/bin/bash
# Killed and interrupted runs (issue 14, items 9 and 10). Item 9: the temporaries a killed run
# left (".NAME.PID-N.part") are removed by the next run that writes the same files: those of
# dead processes and of reused pids; never a live process's, nor one for a file this run does
# not write (farm chunks share folders). Item 10: the SIGINT/SIGTERM handlers are installed
# before the libraries initialise and before main() (option parsing, the pre-pass): a
# SIGTERM sent from a library initialiser (EARLY_SIGTERM_SO, preloaded) stops convert with
# exit 6 and nothing written, and kills the commands that do not stop cleanly (info) and
# --version as the signal does (143); an interrupted movie run does not suggest
# --skip-existing, which only resumes DNG sequences.
# usage: robust_signals.sh MLVPIPE MLVSYNTH EARLY_SIGTERM_SO
set -u
mlvpipe=$1
mlvsynth=$2
early=$3
. "$(dirname "$0")/lib.sh"

"$mlvsynth" -o "$tmp/k.MLV" --frames 8 --size 64x32 --audio >/dev/null || fail "synth k"
"$mlvsynth" -o "$tmp/m.MLV" --frames 48 --size 320x180 >/dev/null || fail "synth m"
parts() { find "$1" -maxdepth 1 -name '.*.part' -printf '%f\n' | sort; }
has_parts() { [ -n "$(parts "$tmp")" ]; }

# item 9, DNG: frames 2 and 3 and the WAV were being written by a dead process, frame 4 by a
# live one, frame 5 by a process whose pid was reused after it, frame 9 (outside --frames)
run k-first 0 convert "$tmp/k.MLV" -o "$tmp/kd" --frames 0-1,6-7 --audio
sh -c 'exit 0' &
dead=$!
wait "$dead"
sleep 60 &
live=$!
f=$tmp/kd/k
touch "$f/.k_000002.dng.$dead-0.part" "$f/.k_000003.dng.$dead-7.part" \
    "$f/.k.wav.$dead-1.part" "$f/.k_000004.dng.$live-2.part" "$f/.k_000009.dng.$dead-3.part"
touch -d '1 hour ago' "$f/.k_000005.dng.$live-4.part"
run k-again 0 -v convert "$tmp/k.MLV" -o "$tmp/kd" --frames 0-7 --audio --skip-existing
grep -q "removed 4 temporary files that killed runs left" "$tmp/k-again.err" ||
    fail "k-again: no line about 4 removed temporaries: $(head -c 300 "$tmp/k-again.err")"
[ "$(parts "$f" | tr '\n' ' ')" = ".k_000004.dng.$live-2.part .k_000009.dng.$dead-3.part " ] ||
    fail "k-again: temporaries left: $(parts "$f" | tr '\n' ' ')"
[ "$(find "$f" -name '*.dng' | wc -l)" -eq 8 ] || fail "k-again: not 8 DNGs"
kill "$live"

# item 9, movie: a real SIGKILL leaves the movie's temporary; the next run removes it
"$mlvpipe" convert "$tmp/m.MLV" --to ffv1 -o "$tmp/m.mkv" 2>/dev/null &
pid=$!
for _ in $(seq 1 1000); do [ -n "$(parts "$tmp")" ] && break; sleep 0.01; done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ -n "$(parts "$tmp")" ] || fail "m: no temporary seen before SIGKILL"
run m-again 0 convert "$tmp/m.MLV" --to ffv1 -o "$tmp/m.mkv" --frames 0-3
[ -z "$(parts "$tmp")" ] || fail "m-again: temporaries left: $(parts "$tmp")"

# item 10: an interrupted movie: exit 6, no --skip-existing advice, nothing left
"$mlvpipe" convert "$tmp/m.MLV" --to ffv1 -o "$tmp/i.mkv" 2>"$tmp/i.err" &
stop_when $! has_parts
[ "$rc" -eq 6 ] || fail "interrupted movie: exit $rc ($(head -c 300 "$tmp/i.err"))"
grep -q "i.mkv not written" "$tmp/i.err" || fail "interrupted movie: $(cat "$tmp/i.err")"
grep -q -- "--skip-existing" "$tmp/i.err" && fail "interrupted movie suggests --skip-existing"
[ -z "$(parts "$tmp")" ] && [ ! -e "$tmp/i.mkv" ] || fail "interrupted movie left files"

# item 10: a SIGTERM while the libraries initialise (the sanitizers' runtime comes first in
# the list of libraries; the preloaded one is not instrumented)
early() {
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0 \
        LD_PRELOAD=$early "$mlvpipe" "$@"
}
early convert "$tmp/k.MLV" -o "$tmp/e" >/dev/null 2>"$tmp/e.err"
rc=$?
[ "$rc" -eq 6 ] || fail "SIGTERM while loading, convert: exit $rc ($(head -c 300 "$tmp/e.err"))"
[ -z "$(find "$tmp/e" -type f 2>/dev/null)" ] || fail "SIGTERM while loading: files written"
early info "$tmp/k.MLV" >/dev/null 2>&1
rc=$?
[ "$rc" -eq 143 ] || fail "SIGTERM while loading, info: exit $rc, not killed (143)"
early --version >/dev/null 2>&1
rc=$?
[ "$rc" -eq 143 ] || fail "SIGTERM while loading, --version: exit $rc, not killed (143)"

# item 10: the handlers come before main() does anything else (its -v line, the clip)
if strace -o /dev/null true 2>/dev/null; then
    # (LeakSanitizer cannot run under a tracer: off for this run of a sanitized build)
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
        strace -qq -e trace=rt_sigaction,write,openat -o "$tmp/trace" \
        "$mlvpipe" -v convert "$tmp/k.MLV" --to md5 -o "$tmp/t.md5" 2>/dev/null ||
        fail "traced run"
    order=$(grep -n -e 'rt_sigaction(SIGTERM, {sa_handler=0x' -e 'SIMD kernels' \
                -e "k.MLV" "$tmp/trace" | head -1)
    case $order in
    *SIGTERM*) ;;
    *) fail "a SIGTERM handler is installed only after: ${order:0:120}" ;;
    esac
else
    echo "strace cannot trace here: handler order not checked"
fi
finish
