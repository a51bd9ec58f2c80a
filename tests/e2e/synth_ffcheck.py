#!/usr/bin/env python3
"""Decodes an uncompressed mlvsynth clip with ffmpeg's MLV demuxer and checks every frame
against the content formula named in CLIP.truth.json (dual-ISO clips: against their row
pattern) (ffmpeg scales samples to 16 bits by bit
replication, so value >> (16 - bits) is the stored sample; doc/mlv-format.md 18).

usage: synth_ffcheck.py CLIP [--md5 SAMPLES_JSON KEY]
  --md5: also require the MD5 of each decoded frame (raw LE uint16) to equal the one listed for
         KEY in the shared samples' expected_md5.json (an independent generator's values)."""
import array
import hashlib
import json
import os
import subprocess
import sys


def expected_frame(t, f):
    w, h, bits = t["width"], t["height"], t["bits"]
    out = array.array("H", bytes(2 * w * h))
    if t["content"] == "pattern":
        mask = (1 << bits) - 1
        for y in range(h):
            row = y * w
            for x in range(w):
                out[row + x] = (37 * x + 101 * y + 7919 * f + (x * y) % 13) & mask
    elif t["content"] == "gradient":
        black, white = t["black"], t["white"]
        for y in range(h):
            for x in range(w):
                out[y * w + x] = black + (white - black) * ((x + f) % w) // (w - 1)
    else:
        sys.exit("synth_ffcheck: content %s has no closed formula" % t["content"])
    return out


def check_dualiso(t, clip, frames):
    """No closed formula (noise): check the row pattern instead. In the active area, green
    samples of rows with (y + phase) mod 4 >= 2 must sit well above the dark rows."""
    w, h, bits = t["width"], t["height"], t["bits"]
    d = t["dual_iso"]
    top, left = d["ob_top"], d["ob_left"]
    black = t["black"]
    for f, px in frames:
        sums, counts = [0.0] * 4, [0] * 4
        for y in range(top, h):
            for x in range(left + (1 - y % 2), w, 2):     # green: (x + y) odd in RGGB
                sums[y % 4] += px[y * w + x] - black
                counts[y % 4] += 1
        means = [sums[k] / counts[k] for k in range(4)]
        bright = [k for k in range(4) if (k + d["phase"]) % 4 >= 2]
        dark = [k for k in range(4) if k not in bright]
        if min(means[k] for k in bright) < 1.5 * max(means[k] for k in dark):
            sys.exit("%s: frame %d: row means %s do not show phase %d" %
                     (clip, f, [round(m) for m in means], d["phase"]))


def main():
    clip = sys.argv[1]
    truth_path = os.path.splitext(clip)[0] + ".truth.json"
    with open(truth_path) as fh:
        t = json.load(fh)
    w, h, bits = t["width"], t["height"], t["bits"]
    numbers = sorted(set(t["vidf_order"]))
    raw = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", clip, "-f", "rawvideo",
                          "-pix_fmt", "bayer_rggb16le", "-fps_mode", "passthrough", "-"],
                         check=True, stdout=subprocess.PIPE).stdout
    frame_bytes = 2 * w * h
    if len(raw) != frame_bytes * len(numbers):
        sys.exit("%s: ffmpeg gave %d bytes, expected %d frames of %d" %
                 (clip, len(raw), len(numbers), frame_bytes))
    md5s = None
    if len(sys.argv) > 2 and sys.argv[2] == "--md5":
        with open(sys.argv[3]) as fh:
            md5s = json.load(fh)[sys.argv[4]]
    shift = 16 - bits
    decoded = []
    for i, f in enumerate(numbers):
        got = array.array("H")
        got.frombytes(raw[i * frame_bytes:(i + 1) * frame_bytes])
        if sys.byteorder != "little":
            got.byteswap()
        got = array.array("H", (v >> shift for v in got))
        if t["content"] == "dualiso":
            decoded.append((f, got))
            continue
        want = expected_frame(t, f)
        if got != want:
            bad = next(k for k in range(w * h) if got[k] != want[k])
            sys.exit("%s: frame %d differs at x=%d y=%d: ffmpeg %d, expected %d" %
                     (clip, f, bad % w, bad // w, got[bad], want[bad]))
        if md5s is not None:
            digest = hashlib.md5(got.tobytes()).hexdigest()
            if md5s.get(str(f)) != digest:
                sys.exit("%s: frame %d MD5 %s, samples list %s" % (clip, f, digest,
                                                                  md5s.get(str(f))))
    if decoded:
        check_dualiso(t, clip, decoded)
    print("%s: %d frames match (ffmpeg)" % (os.path.basename(clip), len(numbers)))


main()
