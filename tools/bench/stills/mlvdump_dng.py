#!/usr/bin/env python3
"""Writes a raw mosaic as a DNG laid out the way mlv_dump writes one (the untouched
interlaced mosaic of a dual-ISO frame: nothing reconstructed), without any of mlvpipe's
code: the stills of tools/bench/stills/bench_quality.sh come from a writer that is not ours.

The layout follows mlv_dump's DNGs of ../shared/samples/peer (exiftool, tag by tag): a
little-endian TIFF whose IFD0 holds the image, 14-bit samples packed big-endian in one strip,
CFA 2x2 RGGB, DNGVersion 1.4, BlackLevel, WhiteLevel, ActiveArea, DefaultScale/Crop, the
5D Mark III's ColorMatrix1/2 (Standard Light A / D65) and ForwardMatrix1/2, AsShotNeutral,
Software "MLV_DUMP CDNG", CinemaDNG FrameRate and TimeCodes, and an Exif IFD with exposure,
aperture and ISO.

usage: mlvdump_dng.py IN.pgm OUT.dng LEFT TOP [BLACK WHITE]
  IN.pgm     16-bit binary PGM of the whole readout (cr2synth --samples, dcraw -E -4 -t 0)
  LEFT TOP   the masked borders: ActiveArea starts there (mlv_dump takes it from RAWI)
"""
import struct
import sys

# Canon EOS 5D Mark III, as mlv_dump writes them (doc/cinemadng.md; the peer samples).
COLOR_MATRIX_1 = (7234, -1413, -600, -3631, 11150, 2850, -382, 1335, 6437)
COLOR_MATRIX_2 = (6722, -635, -963, -4287, 12460, 2028, -908, 2162, 5668)
FORWARD_MATRIX_1 = (7868, 92, 1683, 2291, 8615, -906, 27, -4752, 12976)
FORWARD_MATRIX_2 = (7637, 805, 1201, 2649, 9179, -1828, 137, -2456, 10570)

BYTE, ASCII, SHORT, LONG, RATIONAL, UNDEFINED, SRATIONAL = 1, 2, 3, 4, 5, 7, 10
SIZES = {BYTE: 1, ASCII: 1, SHORT: 2, LONG: 4, RATIONAL: 8, UNDEFINED: 1, SRATIONAL: 8}


def read_pgm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    if fields[0] != b"P5" or int(fields[3]) != 65535:
        sys.exit("%s: not a 16-bit binary PGM" % path)
    width, height = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + 2 * width * height]
    return width, height, struct.unpack(">%dH" % (width * height), pixels)


def pack14(samples):
    """Four 14-bit samples into seven bytes, most significant bit first (DNG order)."""
    out = bytearray()
    for i in range(0, len(samples), 4):
        a, b, c, d = samples[i:i + 4]
        out += ((a << 42) | (b << 28) | (c << 14) | d).to_bytes(7, "big")
    return bytes(out)


def encode(kind, values):
    if kind == ASCII:
        return values.encode() + b"\0"
    if kind in (BYTE, UNDEFINED):
        return bytes(values)
    if kind == SHORT:
        return struct.pack("<%dH" % len(values), *values)
    if kind == LONG:
        return struct.pack("<%dI" % len(values), *values)
    if kind == RATIONAL:
        return b"".join(struct.pack("<II", n, d) for n, d in values)
    return b"".join(struct.pack("<ii", n, d) for n, d in values)


def ifd_bytes(entries, at, next_ifd=0):
    """An IFD placed at offset `at`, its out-of-line values right after it."""
    entries = sorted(entries)
    table = struct.pack("<H", len(entries))
    extra = bytearray()
    data_at = at + 2 + 12 * len(entries) + 4
    for tag, kind, values in entries:
        raw = encode(kind, values)
        count = len(raw) // SIZES[kind]
        if len(raw) <= 4:
            table += struct.pack("<HHI", tag, kind, count) + raw.ljust(4, b"\0")
        else:
            table += struct.pack("<HHII", tag, kind, count, data_at + len(extra))
            extra += raw + (b"\0" if len(raw) % 2 else b"")
    return table + struct.pack("<I", next_ifd) + bytes(extra)


def main():
    if len(sys.argv) not in (5, 7):
        sys.exit(__doc__)
    width, height, samples = read_pgm(sys.argv[1])
    left, top = int(sys.argv[3]), int(sys.argv[4])
    black, white = (int(sys.argv[5]), int(sys.argv[6])) if len(sys.argv) == 7 else (2048, 15283)
    if width % 4:
        sys.exit("width %d: the packing needs a multiple of 4" % width)
    strip = pack14(samples)
    srat = lambda m: [(v, 10000) for v in m]
    exif = [(33434, RATIONAL, [(1, 50)]), (33437, RATIONAL, [(28, 10)]),
            (34855, SHORT, [100]), (36864, UNDEFINED, list(b"0230"))]
    exif_at = 8
    exif_ifd = ifd_bytes(exif, exif_at)
    ifd0_at = exif_at + len(exif_ifd) + (len(exif_ifd) & 1)

    def ifd0(strip_at):
        return [
            (254, LONG, [0]), (256, LONG, [width]), (257, LONG, [height]),
            (258, SHORT, [14]), (259, SHORT, [1]), (262, SHORT, [32803]), (266, SHORT, [1]),
            (271, ASCII, "Canon"), (272, ASCII, "Canon EOS 5D Mark III"),
            (273, LONG, [strip_at]), (274, SHORT, [1]), (277, SHORT, [1]),
            (278, LONG, [height]), (279, LONG, [len(strip)]), (284, SHORT, [1]),
            (305, ASCII, "MLV_DUMP CDNG"), (306, ASCII, "2024:03:23 12:34:56"),
            (33421, SHORT, [2, 2]), (33422, BYTE, [0, 1, 1, 2]), (34665, LONG, [exif_at]),
            (50706, BYTE, [1, 4, 0, 0]), (50708, ASCII, "Canon EOS 5D Mark III"),
            (50714, LONG, [black]), (50717, LONG, [white]),
            (50718, RATIONAL, [(1, 1), (1, 1)]), (50719, LONG, [0, 0]),
            (50720, LONG, [width - left, height - top]),
            (50721, SRATIONAL, srat(COLOR_MATRIX_1)), (50722, SRATIONAL, srat(COLOR_MATRIX_2)),
            (50728, RATIONAL, [(4801, 10000), (1, 1), (6365, 10000)]),
            (50730, SRATIONAL, [(0, 1)]), (50735, ASCII, "MLVSYNTH0001"),
            (50778, SHORT, [17]), (50779, SHORT, [21]),
            (50829, LONG, [top, left, height, width]),
            (50964, SRATIONAL, srat(FORWARD_MATRIX_1)),
            (50965, SRATIONAL, srat(FORWARD_MATRIX_2)),
            (51043, BYTE, [0] * 8), (51044, SRATIONAL, [(25, 1)]),
        ]

    size = len(ifd_bytes(ifd0(0), ifd0_at))
    strip_at = ifd0_at + size + (size & 1)
    head = b"II" + struct.pack("<HI", 42, ifd0_at)
    body = exif_ifd + b"\0" * (len(exif_ifd) & 1)
    table = ifd_bytes(ifd0(strip_at), ifd0_at)
    with open(sys.argv[2], "wb") as f:
        f.write(head + body + table + b"\0" * (size & 1) + strip)


main()
