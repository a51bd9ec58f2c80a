#!/usr/bin/env python3
"""Walks an mlvsynth MLV clip block by block, independently of the C code, and checks the
layout rules of doc/mlv-format.md as mlv_lite applies them: MLVI first in every chunk
(52 bytes, "v2.0", one GUID, fileNum = chunk index, fileCount 0, frame counts = blocks found),
chunk 0 header blocks in mlv_lite order with their exact sizes, the header area NULL-padded to
512 bytes, VIDF frameSpace 32 (or --frame-space) filled with 0xA5 and blockSize a multiple of
512 with >= 4 spare bytes (blocks moved into a slot by --change-in-filler counted), VIDF timestamps per the truth file's rule, LJ92 frame headers (layout, predictor),
a duplicate VIDF carrying another picture than its original (so keeping the wrong one shows),
RTCI fields, VERS padding, and AUDF frameSpace 232 with
the PCM of the documented tone (left TONE Hz, right 1.5 TONE, amplitude 8192).

usage: synth_layout.py [--expect-damage] CLIP.MLV...
Checks every clip given (one Python start for a whole list: the test calls it on 60 clips).
With --expect-damage every clip must break a rule (it was damaged on purpose); the rule it
breaks is printed."""
import datetime
import json
import math
import os
import struct
import sys

SIZES = {b"MLVI": 52, b"RAWI": 180, b"RAWC": 32, b"IDNT": 84, b"EXPO": 40, b"LENS": 96,
         b"RTCI": 44, b"WBAL": 44, b"STYL": 52, b"ELVL": 24, b"DISO": 24, b"WAVI": 32,
         b"MARK": 20}
HEADERS = {
    "minimal": [b"RAWI", b"EXPO"],
    "mlv-lite": [b"RAWI", b"RAWC", b"IDNT", b"EXPO", b"LENS", b"RTCI", b"WBAL", b"VERS"],
}
HEADERS["all"] = HEADERS["mlv-lite"] + [b"STYL", b"ELVL", b"INFO"]


class LayoutError(Exception):
    pass


def fail(clip, msg):
    raise LayoutError("%s: %s" % (os.path.basename(clip), msg))


def chunk_names(clip, count):
    return [clip] + [clip[:-2] + "%02d" % i for i in range(count - 1)]


def check(clip):
    with open(os.path.splitext(clip)[0] + ".truth.json") as fh:
        t = json.load(fh)
    first_us, num, den = t["first_frame_us"], t["fps"][0], t["fps"][1]
    audio = t.get("audio")
    change = t.get("change", {})
    guid = None
    vidf_seen, audf_pcm, payloads = [], {}, {}
    for index, name in enumerate(chunk_names(clip, t["files"])):
        data = open(name, "rb").read()
        magic, size, version, g, file_num, file_count = struct.unpack_from("<4sI8sQHH", data)
        vcount, acount = struct.unpack_from("<II", data, 36)
        if magic != b"MLVI" or size != 52 or version != b"v2.0\0\0\0\0":
            fail(name, "MLVI header wrong")
        guid = g if guid is None else guid
        if g != guid or file_num != index or file_count != 0:
            fail(name, "GUID, fileNum or fileCount wrong")
        off, order, videos, audios, header_done = 52, [], 0, 0, False
        prepended = 0
        while off < len(data):
            kind, size, ts = struct.unpack_from("<4sIQ", data, off)
            if size < 16 or off + size > len(data):
                fail(name, "block at %d: size %d" % (off, size))
            if kind in SIZES and size != SIZES[kind]:
                fail(name, "%s block of %d bytes" % (kind.decode(), size))
            if kind == b"RTCI":
                check_rtci(name, data, off, ts)
            if kind == b"VERS":
                (n,) = struct.unpack_from("<I", data, off + 16)
                if size != (n + 20 + 1 + 3) & ~3 or data[off + 20 + n] != 0:
                    fail(name, "VERS padding")
            if not header_done:
                if kind == b"NULL":
                    header_done = True
                    if (off + size) % 512:
                        fail(name, "header area ends at %d, not a multiple of 512" % (off + size))
                else:
                    order.append(kind)
            elif kind == b"VIDF":
                number, fs = struct.unpack_from("<I", data, off + 16)[0], \
                    struct.unpack_from("<I", data, off + 28)[0]
                payload = size - 32 - fs
                # mlv_prepend_block: blocks moved into the slot start shrink header and filler
                moved = prepended if number == change.get("written_before_frame") and \
                    change.get("in_filler") else 0
                if fs + moved != t["frame_space"] or \
                        data[off + 32:off + 32 + fs] != b"\xa5" * fs or (size + moved) % 512:
                    fail(name, "VIDF %d: frameSpace %d or blockSize %d" % (number, fs, size))
                width, height = t["width"], t["height"]
                if number >= change.get("at_frame", number + 1) and "width" in change:
                    width, height = change["width"], change["height"]
                if t["compression"] == "lj92":
                    camera = t["lj92"]["layout"] == "camera"
                    want = {"components": 2 if camera else 1,
                            "width": width * (1 if camera else 2),
                            "height": height // 2, "precision": t["bits"],
                            "predictor": t["lj92"]["predictor"]}
                    check_lj92_header(name, want, data[off + 32 + fs:off + size])
                if t["compression"] == "none":
                    need = -(-width * height * t["bits"] // 8)
                    if payload - need < 4:
                        fail(name, "VIDF %d: %d spare bytes" % (number, payload - need))
                want_ts = first_us + (number * 1000000 * den + num // 2) // num
                if ts != want_ts and number not in t["duplicated"]:
                    fail(name, "VIDF %d: timestamp %d, expected %d" % (number, ts, want_ts))
                if number in payloads and payloads[number] == data[off + 32 + fs:off + size]:
                    fail(name, "duplicate VIDF %d repeats the original's picture" % number)
                payloads[number] = data[off + 32 + fs:off + size]
                vidf_seen.append(number)
                videos += 1
            elif kind == b"AUDF":
                number, fs = struct.unpack_from("<II", data, off + 16)
                if fs != 232:
                    fail(name, "AUDF %d: frameSpace %d" % (number, fs))
                audf_pcm[number] = (ts, data[off + 24 + fs:off + size])
                audios += 1
            prepended = prepended + size if kind in (b"RAWI", b"EXPO", b"DISO") else 0
            off += size
        if index == 0:
            want = list(HEADERS[t["header"]])
            if t["content"] == "dualiso" and t["dual_iso"]["diso"] is not None:
                want.append(b"DISO")
            if audio:
                want.append(b"WAVI")
            if order != want:
                fail(name, "header blocks %s, expected %s" % (order, want))
        elif order:
            fail(name, "later chunk carries header blocks %s" % order)
        if (vcount, acount) != (videos, audios):
            fail(name, "MLVI counts %d/%d, blocks %d/%d" % (vcount, acount, videos, audios))
    if vidf_seen != t["vidf_order"]:
        fail(clip, "VIDF order %s, truth says %s" % (vidf_seen, t["vidf_order"]))
    if audio:
        check_audio(clip, t, audio, audf_pcm)
    print("%s: layout ok (%d VIDF, %d AUDF)" % (os.path.basename(clip), len(vidf_seen),
                                                len(audf_pcm)))


def check_rtci(name, data, off, ts):
    """tm fields consistent with the date (weekday, day of year), and the clock advancing with
    the block timestamp from the header's 2024-03-23 12:34:56 at 1000 us."""
    sec, mins, hour, mday, mon, year, wday, yday = struct.unpack_from("<8H", data, off + 16)
    when = datetime.datetime(year + 1900, mon + 1, mday, hour, mins, sec)
    if wday != (when.weekday() + 1) % 7 or yday != when.timetuple().tm_yday - 1:
        fail(name, "RTCI at %d: weekday %d / yday %d wrong for %s" % (off, wday, yday, when))
    start = datetime.datetime(2024, 3, 23, 12, 34, 56)
    if when != start + datetime.timedelta(seconds=(ts - 1000) // 1000000):
        fail(name, "RTCI at %d: %s at %d us" % (off, when, ts))


def check_lj92_header(name, want, payload):
    """SOF3 and SOS of the frame's LJ92 stream (big-endian marker segments) must give the
    layout the truth file names: Nf, X, Y, precision and predictor."""
    if payload[:2] != b"\xff\xd8":
        fail(name, "LJ92 payload without SOI")
    pos, got = 2, {}
    while pos + 4 <= len(payload) and "predictor" not in got:
        marker, length = struct.unpack_from(">HH", payload, pos)
        seg = payload[pos + 4:pos + 2 + length]
        if marker == 0xFFC3:
            got["precision"], got["height"], got["width"], got["components"] = \
                struct.unpack_from(">BHHB", seg)
        elif marker == 0xFFDA:
            got["predictor"] = seg[1 + 2 * seg[0]]
        pos += 2 + length
    if got != want:
        fail(name, "LJ92 header %s, expected %s" % (got, want))


def check_audio(clip, t, audio, audf):
    rate, num, den = audio["rate"], t["fps"][0], t["fps"][1]
    if sorted(audf) != list(range(audio["blocks"])):
        fail(clip, "AUDF numbers %s" % sorted(audf))
    n = 0
    for k in range(audio["blocks"]):
        ts, pcm = audf[k]
        start = k * rate * den // num
        count = (k + 1) * rate * den // num - start
        if len(pcm) != 4 * count or start != n:
            fail(clip, "AUDF %d holds %d bytes, expected %d" % (k, len(pcm), 4 * count))
        if ts != audio["first_audf_us"] + start * 1000000 // rate:
            fail(clip, "AUDF %d timestamp %d" % (k, ts))
        for i, (left, right) in enumerate(struct.iter_unpack("<hh", pcm)):
            s = start + i
            for got, hz in ((left, audio["tone_left_hz"]), (right, audio["tone_right_hz"])):
                want = audio["amplitude"] * math.sin(2 * math.pi * math.fmod(hz * s, rate) / rate)
                if abs(got - want) > 0.5 + 1e-6:
                    fail(clip, "AUDF %d sample %d: %d, expected %.3f" % (k, i, got, want))
        n += count


def main():
    args = sys.argv[1:]
    expect_damage = bool(args) and args[0] == "--expect-damage"
    clips = args[1:] if expect_damage else args
    if not clips:
        sys.exit(__doc__)
    status = 0
    for clip in clips:
        try:
            check(clip)
        except LayoutError as err:
            if not expect_damage:
                status = 1
            print("%s%s" % (err, " (damage, as intended)" if expect_damage else ""))
        else:
            if expect_damage:
                status = 1
                print("%s: damage not visible in the layout" % os.path.basename(clip))
    sys.exit(status)


main()
