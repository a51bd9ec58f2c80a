#!/usr/bin/env python3
"""Decodes an uncompressed mlvsynth clip with ffmpeg's MLV demuxer and checks every frame
against the content formula named in CLIP.truth.json (ffmpeg scales samples to 16 bits by bit
replication, so value >> (16 - bits) is the stored sample; mlv-format.md 18).

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
    for i, f in enumerate(numbers):
        got = array.array("H")
        got.frombytes(raw[i * frame_bytes:(i + 1) * frame_bytes])
        if sys.byteorder != "little":
            got.byteswap()
        got = array.array("H", (v >> shift for v in got))
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
    print("%s: %d frames match (ffmpeg)" % (os.path.basename(clip), len(numbers)))


main()
