#!/usr/bin/env python3
"""Reads the files of a mounted folder and compares them with convert's (mount.sh).

usage: mount_reader.py REF MNT [--readers N] [--random N] [--seed S]
  Every file under REF must be under MNT with the same bytes and a stat size equal to the
  bytes read. --readers N: N threads read every file at once, each in another order (whole
  files, 64 KiB at a time). --random N: then N reads of random length at random offsets of
  random files, each compared. --split: the readers share the files instead (reader k reads
  files k, k+N, k+2N ... in order, as a player decoding frames in parallel does). Prints one
  line of figures; exit 1 on any difference.
"""
import argparse
import os
import random
import sys
import threading
import time


def ref_files(ref):
    out = []
    for root, _, names in os.walk(ref):
        for name in names:
            path = os.path.join(root, name)
            out.append(os.path.relpath(path, ref))
    return sorted(out)


def read_whole(path):
    chunks = []
    with open(path, "rb") as f:
        while True:
            b = f.read(65536)
            if not b:
                break
            chunks.append(b)
    return b"".join(chunks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ref")
    ap.add_argument("mnt")
    ap.add_argument("--readers", type=int, default=1)
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--split", action="store_true")
    ap.add_argument("--no-compare", action="store_true",
                    help="read through the mount only (timing), compare nothing")
    a = ap.parse_args()
    names = ref_files(a.ref)
    if not names:
        print("no file under", a.ref)
        return 1
    errors = []

    def reader(k):
        if a.split:
            order = names[k::a.readers]
        else:
            order = names[:] if k == 0 else random.Random(a.seed + k).sample(names, len(names))
        for rel in order:
            path = os.path.join(a.mnt, rel)
            try:
                size = os.stat(path).st_size
                got = read_whole(path)
            except OSError as e:
                errors.append(f"reader {k}: {rel}: {e}")
                continue
            if size != len(got):
                errors.append(f"reader {k}: {rel}: stat says {size} bytes, read {len(got)}")
            if not a.no_compare and got != read_whole(os.path.join(a.ref, rel)):
                errors.append(f"reader {k}: {rel}: bytes differ from convert's")

    t0 = time.monotonic()
    threads = [threading.Thread(target=reader, args=(k,)) for k in range(a.readers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    t1 = time.monotonic()
    rng = random.Random(a.seed)
    cache = {}
    for i in range(a.random):
        rel = rng.choice(names)
        if rel not in cache:
            cache[rel] = read_whole(os.path.join(a.ref, rel))
        want = cache[rel]
        off = rng.randrange(len(want))
        n = rng.randint(1, min(len(want) - off, 256 * 1024))
        with open(os.path.join(a.mnt, rel), "rb") as f:
            f.seek(off)
            got = f.read(n)
        if got != want[off:off + n]:
            errors.append(f"random read {i}: {rel} bytes {off}+{n} differ")
    t2 = time.monotonic()
    for e in errors[:20]:
        print("FAIL:", e)
    print(f"{len(names)} files x {a.readers} readers in {t1 - t0:.2f} s; "
          f"{a.random} random reads in {t2 - t1:.2f} s; {len(errors)} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
