#!/usr/bin/env python3
"""Damages an MLV file in place, one kind at a time, for the robustness tests (issue 14).

usage: mlv_mutate.py FILE KIND [ARGS]
  flip-number K BIT     flip bit BIT of the K-th VIDF's frameNumber (file order, 0-based)
  flip-time K BIT       flip bit BIT of the K-th VIDF's timestamp
  grow-size K BYTES     add BYTES to the K-th VIDF's blockSize
  zero-header K         zero the K-th VIDF's 32-byte header (the frame is lost)
  cut-after K           cut the file right after the K-th VIDF block (a block boundary)
  header-only           cut the file before its first VIDF
  fps NUM DEN           set MLVI sourceFpsNom / sourceFpsDenom
  rawi FIELD VALUE [K]  set a field of the K-th RAWI (default 0): bits, black, white or cfa
  rawi-size W H [K]     set xRes and yRes of the K-th RAWI (default 0)
  footer-fps VALUE      set a legacy .RAW footer's fps x 1000 (signed)
  footer FIELD VALUE    the same in a legacy .RAW file's RAWM footer
  wavi FIELD VALUE      set a field of WAVI: format, channels, rate or bits
  zero-payload K AT N   zero N bytes from byte AT of the K-th VIDF's frame data
  random-payload K SEED KEEP  random bytes over the K-th VIDF's frame data but its first KEEP
  lj92-sof K N          make the K-th VIDF's LJ92 frame header SOFn (a process no camera uses)
  text TAG AT STRING    write STRING (Python escapes: \\x1b, \\n) at byte AT of the first TAG block
  vidf-offsets          print the offset of every VIDF, one a line
  payload-offset K      print where the K-th VIDF's frame data starts
  block-offsets         print every block's offset and tag after the MLVI, one a line
"""
import random
import struct
import sys


def blocks(data):
    off = struct.unpack_from("<I", data, 4)[0]
    while off + 16 <= len(data):
        tag = data[off:off + 4]
        size = struct.unpack_from("<I", data, off + 4)[0]
        if size < 16:
            break
        yield tag, off, size
        off += size


def vidf(data, k):
    return [off for tag, off, _ in blocks(data) if tag == b"VIDF"][k]


# raw_info field offsets (doc/mlv-format.md 4.1, from the start of raw_info)
RAW_INFO = {"bits": 24, "black": 28, "white": 32, "cfa": 76}
# WAVI fields: offset in the block, struct format
WAVI = {"format": (16, "<H"), "channels": (18, "<H"), "rate": (20, "<I"), "bits": (30, "<H")}


def nth_block(data, tag, k=0):
    return [off for t, off, _ in blocks(data) if t == tag][k]


def main():
    path, kind = sys.argv[1], sys.argv[2]
    args = [int(a, 0) if a[0].isdigit() or a[0] == "-" else 0 for a in sys.argv[3:]]
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if kind == "block-offsets":
        for tag, off, _ in blocks(data):
            print(off, tag.decode("latin-1"))
        return
    if kind == "payload-offset":
        off = vidf(data, args[0])
        print(off + 32 + struct.unpack_from("<I", data, off + 28)[0])
        return
    if kind == "vidf-offsets":
        for tag, off, _ in blocks(data):
            if tag == b"VIDF":
                print(off)
        return
    if kind == "flip-number":
        data[vidf(data, args[0]) + 16 + args[1] // 8] ^= 1 << (args[1] % 8)
    elif kind == "flip-time":
        data[vidf(data, args[0]) + 8 + args[1] // 8] ^= 1 << (args[1] % 8)
    elif kind == "grow-size":
        off = vidf(data, args[0])
        size = struct.unpack_from("<I", data, off + 4)[0]
        struct.pack_into("<I", data, off + 4, size + args[1])
    elif kind == "zero-header":
        off = vidf(data, args[0])
        data[off:off + 32] = bytes(32)
    elif kind == "cut-after":
        off = vidf(data, args[0])
        del data[off + struct.unpack_from("<I", data, off + 4)[0]:]
    elif kind == "header-only":
        del data[vidf(data, 0):]
    elif kind == "fps":
        struct.pack_into("<II", data, 44, args[0], args[1])
    elif kind == "rawi":
        k = args[2] if len(args) > 2 else 0
        struct.pack_into("<i", data, nth_block(data, b"RAWI", k) + 20 + RAW_INFO[sys.argv[3]],
                         args[1])
    elif kind == "rawi-size":
        k = args[2] if len(args) > 2 else 0
        struct.pack_into("<HH", data, nth_block(data, b"RAWI", k) + 16, args[0], args[1])
    elif kind == "text":
        at = nth_block(data, sys.argv[3].encode()) + int(sys.argv[4])
        text = sys.argv[5].encode().decode("unicode_escape").encode("latin-1")
        data[at:at + len(text)] = text
    elif kind == "footer-fps":
        struct.pack_into("<i", data, len(data) - 192 + 20, args[0])
    elif kind == "footer":
        struct.pack_into("<i", data, len(data) - 192 + 32 + RAW_INFO[sys.argv[3]], args[1])
    elif kind == "wavi":
        at, fmt = WAVI[sys.argv[3]]
        struct.pack_into(fmt, data, nth_block(data, b"WAVI") + at, args[1])
    elif kind == "zero-payload":
        off = vidf(data, args[0])
        start = off + 32 + struct.unpack_from("<I", data, off + 28)[0] + args[1]
        data[start:start + args[2]] = bytes(args[2])
    elif kind == "random-payload":
        off = vidf(data, args[0])
        size = struct.unpack_from("<I", data, off + 4)[0]
        start = off + 32 + struct.unpack_from("<I", data, off + 28)[0] + args[2]
        data[start:off + size] = random.Random(args[1]).randbytes(off + size - start)
    elif kind == "lj92-sof":
        off = vidf(data, args[0])
        sof3 = data.index(b"\xff\xc3", off + 32, off + struct.unpack_from("<I", data, off + 4)[0])
        data[sof3 + 1] = 0xC0 + args[1]
    else:
        sys.exit("unknown kind " + kind)
    with open(path, "wb") as f:
        f.write(data)


main()
