#!/usr/bin/env python3
"""Dead pixels repaired, as dcraw reads two DNGs of one mlvsynth frame (`dcraw -D -4` PGMs):
one converted with the raw-defect fixes, one without. Every simulated dead pixel (0 DN,
mlvsynth's truth file) reads 0 without them; with them it lies within 60 DN of the range of
its four same-colour neighbours, where none of those is at white (under clipped highlights a
repair is not measurable: README Limits). At least MIN of them must be judged so.

Usage: dead_pixels.py TRUTH.json FIXED.pgm UNFIXED.pgm MIN
"""
import json
import sys


def pgm(path):
    b = open(path, "rb").read()
    head = b.split(b"\n", 3)
    w, h = map(int, head[1].split())
    return w, h, [int.from_bytes(head[3][2 * i:2 * i + 2], "big") for i in range(w * h)]


def main():
    truth = json.load(open(sys.argv[1]))["dual_iso"]
    w, h, fixed = pgm(sys.argv[2])
    _, _, raw = pgm(sys.argv[3])
    # dcraw reads the DNG's ActiveArea: the truth's frame coordinates less the borders
    left, top = (truth["ob_left"], truth["ob_top"]) if w == truth["active_width"] else (0, 0)
    dead = [(x - left, y - top) for x, y, k in truth["defects"]["pixels"] if k == "cold_dead"]
    assert dead, "no dead pixel in the truth"
    white, repaired = max(raw), 0
    for x, y in dead:
        i = y * w + x
        assert raw[i] == 0, ("not dead without the fixes", x, y, raw[i])
        near = [raw[i - 2], raw[i + 2], raw[i - 2 * w], raw[i + 2 * w]]
        if max(near) >= white:
            continue
        assert min(near) - 60 <= fixed[i] <= max(near) + 60, (x, y, fixed[i], near)
        repaired += 1
    # away from defects and stripes' columns the samples stay what was recorded
    same = sum(1 for a, b in zip(fixed, raw) if a == b)
    print("dead pixels repaired:", repaired, "of", len(dead), "samples unchanged:", same,
          "of", w * h)
    assert repaired >= int(sys.argv[4]), repaired


if __name__ == "__main__":
    main()
