#!/usr/bin/env python3
"""Period-4 row striping of DNGs (the dual-ISO row pattern left in the output).

usage: lenscap_stripes.py DNG...
Over the central half of every DNG (raw samples via `dcraw -D -4 -c`), pooled, the mean of each
row class y % 4; the striping is the larger gap between the two row pairs a dual-ISO field can
occupy ({0,1} vs {2,3} and {1,2} vs {3,0}), with its standard error from the sample spread.
Prints: GAP STDERR (output DN)."""
import math
import subprocess
import sys


def rows_of(path):
    pgm = subprocess.run(["dcraw", "-D", "-4", "-c", path], check=True,
                         capture_output=True).stdout
    magic, w, h, _ = pgm.split(maxsplit=4)[:4]
    if magic != b"P5":
        raise SystemExit("%s: dcraw did not write a PGM" % path)
    w, h = int(w), int(h)
    data = pgm[len(pgm) - 2 * w * h:]   # 16-bit big-endian samples at the end
    return w, h, [[int.from_bytes(data[2 * (y * w + x):2 * (y * w + x) + 2], "big")
                   for x in range(w // 4, 3 * w // 4)] for y in range(h)]


def striping(paths):
    cls = [[], [], [], []]
    for path in paths:
        w, h, rows = rows_of(path)
        for y in range(h // 4, 3 * h // 4):
            cls[y % 4].extend(rows[y])
    mean = [sum(c) / len(c) for c in cls]
    var = [sum((v - m) ** 2 for v in c) / (len(c) - 1) for c, m in zip(cls, mean)]
    # each pair mean averages two classes: SE of a pair difference
    se = math.sqrt(sum(v / len(c) for v, c in zip(var, cls))) / 2
    gap = max(abs(mean[0] + mean[1] - mean[2] - mean[3]),
              abs(mean[1] + mean[2] - mean[3] - mean[0])) / 2
    return gap, se


print("%.3f %.3f" % striping(sys.argv[1:]))
