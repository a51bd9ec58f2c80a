#!/usr/bin/env python3
"""The report page's plots as a reader sees them (issue #35): in every raw histogram no bin
below -10 EV is drawn at 0 between two drawn above it (quarter-EV bins there hold one code
value or none, which made the curve jump to 0 and back; a sparse picture, such as a
synthetic gradient, may leave honest gaps higher up); every legend sits above its plot's
frame, where no curve goes, and no two legends overlap (estimated at 6 px a character, the
page's font-size 10); an unreadable clip's overview row shows dashes, not 0x0 and 0.00 %;
the clip header labels the compression. Exit 1 with the failures listed.
usage: report_plots.py PAGE.html UNREADABLE_CLIP_NAME"""
import re
import sys

page = open(sys.argv[1], encoding="utf-8").read()
unreadable = sys.argv[2]
failures = []
jumps = 0
for svg in re.findall(r"<svg .*?</svg>", page, re.S):
    label = re.search(r'aria-label="([^"]*)"', svg).group(1)
    frame = re.search(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', svg)
    top, bottom = float(frame.group(2)), float(frame.group(2)) + float(frame.group(4))
    if label.startswith("raw histogram"):
        for line in re.findall(r'points="([^"]*)"', svg):
            ys = [float(p.split(",")[1]) for p in line.split()]
            for i in range(40, len(ys) - 1):   # bins 40 on: below -10 EV
                if ys[i] >= bottom - 0.05 and ys[i - 1] < bottom - 0.05 and ys[i + 1] < bottom - 0.05:
                    jumps += 1
    boxes = []
    # a legend is a text in a series' colour (tick values and axis labels have none)
    for x, y, text in re.findall(r'<text (?:class="legend" )?x="([\d.]+)" y="([\d.]+)" fill="[^"]*"[^>]*>([^<]*)<', svg):
        x, y = float(x), float(y)
        if y > top:
            failures.append(f"{label}: legend '{text}' at y {y} inside the plot (top {top})")
        boxes.append((x, x + 6 * len(text), text))
    boxes.sort()
    for a, b in zip(boxes, boxes[1:]):
        if b[0] < a[1]:
            failures.append(f"{label}: legends '{a[2]}' and '{b[2]}' overlap")
if jumps:
    failures.append(f"{jumps} histogram bins drawn at 0 between two above it")
row = re.search(r"<tr><td class=l><a [^>]*>" + re.escape(unreadable) + r"</a></td>(.*?)</tr>", page)
if not row:
    failures.append(f"no overview row for {unreadable}")
elif "0x0" in row.group(1) or "0.00 %" in row.group(1) or row.group(1).count("–") < 5:
    failures.append(f"{unreadable}'s row shows numbers for a clip not read: {row.group(1)}")
if not re.search(r"frames \([0-9]+-[0-9]+\), compression \w+", page):
    failures.append("the clip header does not label the compression")
for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
