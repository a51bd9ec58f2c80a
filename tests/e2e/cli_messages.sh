#!/bin/bash
# Command-line messages and outputs named by their extension (issue #12 items 1 and 6):
# without --to the container follows -o's extension (.mov ProRes 422 HQ, .mkv FFV1, .nut NUT,
# checked by ffprobe; others stay DNG folders); an extension that contradicts --to, or one
# mlvpipe does not write (.m4v), is a usage error naming both; -o - with MOV is a usage error
# before any encoding, -o FOLDER with a movie writes FOLDER/CLIP.mov (rawvideo CLIP.rgb48); a
# missing option value is not an "unknown option"; -v/-q work after the command; an existing
# output (and --frames past the clip) is a usage error, one line naming --overwrite and
# --skip-existing and the --help hint (#35), and so is a file where a sequence's folder goes;
# -q still shows the warnings an error points to; info's errors look like the other commands';
# errors before the command are one line and the hint too.
# usage: cli_messages.sh MLVPIPE MLVSYNTH
set -u
mlvpipe=$1
mlvsynth=$2
. "$(dirname "$0")/lib.sh"
command -v ffprobe >/dev/null || { echo "SKIP: ffprobe not installed"; exit 77; }

"$mlvsynth" -o "$tmp/c.MLV" --size 96x64 --frames 4 >/dev/null || { fail "mlvsynth"; finish; }
"$mlvsynth" -o "$tmp/cut.MLV" --size 96x64 --frames 6 --truncate 3000 >/dev/null || fail "mlvsynth cut"
in=$tmp/c.MLV
codec() { ffprobe -v error -select_streams v -show_entries stream=codec_name,codec_tag_string -of csv=p=0 "$1"; }
container() { ffprobe -v error -show_entries format=format_name -of csv=p=0 "$1"; }

# 1. The container from the extension.
run ext-mov 0 convert "$in" -o "$tmp/a.mov"
[ "$(codec "$tmp/a.mov")" = "prores,apch" ] || fail ".mov without --to: $(codec "$tmp/a.mov")"
run ext-mkv 0 convert "$in" -o "$tmp/a.mkv"
[ "$(codec "$tmp/a.mkv")" = "ffv1,FFV1" ] && [ "$(container "$tmp/a.mkv")" = "\"matroska,webm\"" ] ||
    fail ".mkv without --to: $(codec "$tmp/a.mkv") in $(container "$tmp/a.mkv")"
run ext-nut 0 convert "$in" -o "$tmp/a.NUT"
[ "$(container "$tmp/a.NUT")" = nut ] || fail ".NUT without --to: $(container "$tmp/a.NUT")"
run ext-4444 0 convert "$in" -o "$tmp/b.mov" --to prores4444
[ "$(codec "$tmp/b.mov")" = "prores,ap4h" ] || fail "--to prores4444 .mov"
run ext-dir 0 convert "$in" -o "$tmp/seq"
[ -f "$tmp/seq/c/c_000000.dng" ] || fail "no extension: not a DNG folder"
run ext-md5 0 convert "$in" -o "$tmp/list.mov" --to md5
[ "$(wc -l <"$tmp/list.mov")" = 4 ] || fail "--to md5 with any name"
# Contradictions and containers we do not write: exit 2, nothing written, both named.
run bad-mkv 2 convert "$in" -o "$tmp/x.mkv" --to prores422hq
grep -q "x.mkv names a Matroska file (.mkv), but --to prores422hq writes MOV (.mov)" "$tmp/bad-mkv.err" ||
    fail "contradiction message: $(head -1 "$tmp/bad-mkv.err")"
run bad-mov 2 convert "$in" -o "$tmp/x.mov" --to ffv1
grep -q "names a MOV file (.mov), but --to ffv1 writes Matroska" "$tmp/bad-mov.err" || fail "ffv1 .mov message"
run bad-dng 2 convert "$in" -o "$tmp/x.mov" --to dng
grep -q "but --to dng writes a CinemaDNG sequence (a folder of .dng files)" "$tmp/bad-dng.err" || fail "dng .mov message"
run bad-m4v 2 convert "$in" -o "$tmp/x.m4v"
grep -q "does not write MP4 (.m4v)" "$tmp/bad-m4v.err" || fail "m4v message: $(head -1 "$tmp/bad-m4v.err")"
run bad-mp4 2 convert "$in" -o "$tmp/x.mp4" --to prores422hq
grep -q "names a MP4 file (.mp4), but --to prores422hq writes MOV" "$tmp/bad-mp4.err" ||
    fail "mp4 message: $(head -1 "$tmp/bad-mp4.err")"
[ -z "$(ls "$tmp" | grep '^x\.')" ] || fail "a refused command wrote $(ls "$tmp" | grep '^x\.')"

# 6. Messages.
run mov-stdout 2 convert "$in" -o - --to prores422hq
grep -q "MOV writes its index after the frames" "$tmp/mov-stdout.err" || fail "-o - MOV message"
[ ! -s "$tmp/mov-stdout.out" ] || fail "-o - MOV wrote to stdout"
mkdir -p "$tmp/folder"
# one clip to an existing folder and a movie: FOLDER/CLIP.mov, as a batch names it (#35)
run movie-dir 0 convert "$in" -o "$tmp/folder" --to prores422hq
[ "$(ls "$tmp/folder")" = "$(basename "${in%.*}").mov" ] || fail "movie into a folder: $(ls "$tmp/folder")"
# rawvideo (no container) too, named .rgb48 as in a batch
run raw-dir 0 convert "$in" -o "$tmp/folder" --to rawvideo
[ -s "$tmp/folder/$(basename "${in%.*}").rgb48" ] || fail "rawvideo into a folder: $(ls "$tmp/folder")"
for cmd in "convert $in -o $tmp/u --to" "analyze $in --threads" "plan $in -o $tmp/p --chunk" "join --bogus"; do
    # shellcheck disable=SC2086
    "$mlvpipe" $cmd >/dev/null 2>"$tmp/opt.err"; rc=$?
    [ "$rc" = 2 ] || fail "'$cmd': exit $rc"
    case $cmd in
    *bogus) grep -q "unknown option '--bogus'" "$tmp/opt.err" || fail "'$cmd': $(head -1 "$tmp/opt.err")" ;;
    *) grep -q "needs a value" "$tmp/opt.err" && ! grep -q unknown "$tmp/opt.err" ||
        fail "'$cmd': $(head -1 "$tmp/opt.err")" ;;
    esac
done
# -v and -q after the command.
run v-after 0 convert "$in" -o "$tmp/v" --to null -v
grep -q "mlvpipe: info:" "$tmp/v-after.err" || fail "-v after the command: no info lines"
run q-after 4 convert "$tmp/cut.MLV" -o "$tmp/q" -q
run q-before 4 -q convert "$tmp/cut.MLV" -o "$tmp/q2"
for n in q-after q-before; do
    # the error points at the warnings: they are shown with it, once
    grep -q "see warnings" "$tmp/$n.err" && [ "$(grep -c "warning: .*runs past the end of the file" "$tmp/$n.err")" = 1 ] ||
        fail "$n: warnings hidden from the error that points to them: $(cat "$tmp/$n.err")"
done
run info-q 0 info "$in" -q
run plan-v 0 plan "$in" -o "$tmp/p" -v
# An existing output is a usage error (exit 2, not the farm's "retry elsewhere" 5; #35): one
# line naming both ways out, then the --help hint; a movie's before any work.
usage_shape() {   # usage_shape NAME: one message line, then the hint
    [ "$(wc -l <"$tmp/$1.err")" -eq 2 ] && [ "$(tail -n 1 "$tmp/$1.err")" = "(see 'mlvpipe convert --help')" ] ||
        fail "$1: not one line and the --help hint: $(cat "$tmp/$1.err")"
}
run exists 2 convert "$in" -o "$tmp/seq"
grep -q -- "exists (not overwriting); --overwrite replaces existing files, --skip-existing keeps them" "$tmp/exists.err" ||
    fail "exists message: $(cat "$tmp/exists.err")"
usage_shape exists
run exists-mov 2 convert "$in" -o "$tmp/a.mov" -v
grep -q -- "a.mov: exists; --overwrite replaces it" "$tmp/exists-mov.err" || fail "exists (movie) message"
grep -q "info:" "$tmp/exists-mov.err" && fail "exists (movie): work before the refusal"
run exists-mov-q 2 convert "$in" -o "$tmp/a.mov"
usage_shape exists-mov-q
run exists-folder 2 convert "$in" -o "$tmp/folder" --to prores422hq
usage_shape exists-folder
mkdir -p "$tmp/named.mov"   # a folder where the file should go: in the way, not a target
run folder-named 2 convert "$in" -o "$tmp/named.mov"
grep -q "named.mov is a folder; --to prores422hq writes one file" "$tmp/folder-named.err" ||
    fail "folder named like the movie: $(head -1 "$tmp/folder-named.err")"
[ -z "$(ls "$tmp/named.mov")" ] || fail "wrote into a folder named like the movie"
run past-end 2 convert "$in" -o "$tmp/pe" --frames 900-
usage_shape past-end
# info's errors in the common style.
run info-none 3 info "$tmp/none.MLV"
grep -q "^mlvpipe: error: .*none.MLV" "$tmp/info-none.err" || fail "info error style: $(cat "$tmp/info-none.err")"
run info-opt 2 info --bogus
grep -q "^mlvpipe info: unknown option '--bogus'" "$tmp/info-opt.err" && grep -q "see 'mlvpipe info --help'" "$tmp/info-opt.err" ||
    fail "info usage style: $(cat "$tmp/info-opt.err")"
# A file where a sequence's folder goes is in the way too (was exit 5, "output failed").
touch "$tmp/plain-file"
run seq-on-file 2 convert "$in" -o "$tmp/plain-file"
usage_shape seq-on-file
# Before the command (#35): one line and 'mlvpipe --help', not the whole usage.
for args in "--bogus" "bogus" "--cpu-flags avx9 info $in" "--cpu-flags"; do
    # shellcheck disable=SC2086
    "$mlvpipe" $args >/dev/null 2>"$tmp/global.err"; rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l <"$tmp/global.err")" -eq 2 ] &&
        [ "$(tail -n 1 "$tmp/global.err")" = "(see 'mlvpipe --help')" ] ||
        fail "'mlvpipe $args': exit $rc: $(cat "$tmp/global.err")"
done
finish
