#!/bin/bash
# The report page in a real browser (headless Chromium, Debian's `chromium`): it loads with
# no console message (script errors, bad SVG attributes, failed loads all log one), every
# picture decodes at the size the page gives it and every plot takes room, and a screenshot
# is taken (left as report_browser.png in the build's meson-logs folder). A copy of the page
# with one picture corrupted must fail the same check, so the check can fail.
# usage: report_browser.sh MLVPIPE MLVSYNTH [SCREENSHOT]
set -u
mlvpipe=$1
mlvsynth=$2
shot=${3:-}
. "$(dirname "$0")/lib.sh"
command -v chromium >/dev/null || { echo "chromium missing (scripts/deps.sh test)"; exit 77; }
export DBUS_SESSION_BUS_ADDRESS=disabled: HOME="$tmp"

"$mlvsynth" -o "$tmp/dual.MLV" --dual-iso --size 640x360 --frames 12 --defects >/dev/null ||
    fail "mlvsynth dual"
"$mlvsynth" -o "$tmp/snd.MLV" --audio --size 256x128 --frames 24 >/dev/null || fail "mlvsynth audio"
"$mlvsynth" -o "$tmp/cut.MLV" --frames 8 --truncate 5000 --drop 3 >/dev/null || fail "mlvsynth cut"
run r 4 report "$tmp/dual.MLV" "$tmp/snd.MLV" "$tmp/cut.MLV" -o "$tmp/r.html"

browse() {
    chromium --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$tmp/profile" \
        --enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@"
}

# The checker goes into a copy: the report itself has no script.
checker='<pre id="page-check"></pre><script>
var bad = [];
document.querySelectorAll("img").forEach(function (i) {
  if (!i.complete || i.naturalWidth < 1 || i.naturalWidth != i.width || i.naturalHeight != i.height)
    bad.push(i.alt + " " + i.naturalWidth + "x" + i.naturalHeight);
});
document.querySelectorAll("svg").forEach(function (g) {
  var r = g.getBoundingClientRect();
  if (!(r.width > 0 && r.height > 0)) bad.push(g.getAttribute("aria-label"));
});
document.getElementById("page-check").textContent = "images " + document.images.length +
  " plots " + document.querySelectorAll("svg").length + " bad " + bad.length + " " + bad.join(";");
</script></body>'
check_page() {   # check_page HTML NAME: "images N plots M bad K ..." into $tmp/NAME.result
    python3 -c "import sys; s=open(sys.argv[1]).read(); open(sys.argv[2],'w').write(s.replace('</body>', sys.argv[3]))" \
        "$1" "$tmp/$2.html" "$checker"
    browse --dump-dom "file://$tmp/$2.html" >"$tmp/$2.dom" 2>"$tmp/$2.log"
    sed -n 's/.*<pre id="page-check">\([^<]*\)<.*/\1/p' "$tmp/$2.dom" >"$tmp/$2.result"
}

check_page "$tmp/r.html" good
read -r _ images _ plots _ bad _ <"$tmp/good.result" || fail "no check result ($(tail -3 "$tmp/good.log"))"
want=$(grep -o "<img " "$tmp/r.html" | wc -l)
[ "${images:-0}" -eq "$want" ] && [ "$want" -ge 10 ] || fail "browser saw ${images:-0} pictures of $want"
[ "${plots:-0}" -ge 8 ] || fail "browser saw ${plots:-0} plots"
[ "${bad:-1}" -eq 0 ] || fail "pictures or plots without their size: $(cat "$tmp/good.result")"
grep "CONSOLE" "$tmp/good.log" && fail "console messages while loading the page"

# one picture's bytes damaged: the same check must see it
python3 -c "import sys; s=open(sys.argv[1]).read(); i=s.index('base64,')+7; open(sys.argv[2],'w').write(s[:i]+'AAAA'+s[i+40:])" \
    "$tmp/r.html" "$tmp/broken.html"
check_page "$tmp/broken.html" broken
read -r _ _ _ _ _ bad _ <"$tmp/broken.result"
[ "${bad:-0}" -eq 1 ] || fail "a corrupted picture was not noticed ($(cat "$tmp/broken.result"))"

# the screenshot: the size asked for, and more than the background colour
browse --hide-scrollbars --window-size=1200,1500 --screenshot="$tmp/shot.png" "file://$tmp/r.html" \
    >/dev/null 2>"$tmp/shot.log" || fail "screenshot failed ($(tail -2 "$tmp/shot.log"))"
size=$(ffprobe -v error -show_entries stream=width,height -of csv=p=0 "$tmp/shot.png")
[ "$size" = "1200,1500" ] || fail "screenshot is $size"
colours=$(ffmpeg -v error -i "$tmp/shot.png" -vf "scale=120:150:flags=neighbor,format=rgb24" \
    -f rawvideo - | od -An -v -tx1 -w3 | sort -u | wc -l)
[ "$colours" -ge 50 ] || fail "screenshot shows only $colours colours"
[ -n "$shot" ] && cp "$tmp/shot.png" "$shot"
finish
