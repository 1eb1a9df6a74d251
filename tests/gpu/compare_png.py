#!/usr/bin/env python3
"""Compares two screenshots of the same scene drawn by two renderers (--raster gl and cuda).

Usage: compare_png.py A.png B.png [max_rel_diff] [max_far_fraction]
Prints the mean absolute difference per channel (0-255) against the mean brightness, and the
fraction of the lit pixels (largest channel > 8 in either) whose largest channel differs by
more than 24; exits 1 when the mean difference exceeds max_rel_diff (default 0.05) times the
mean brightness, or the far fraction exceeds max_far_fraction (default 0.02), or the sizes
differ. A talk's pictures are mostly black, so both are relative to what is lit. Pure Python
(zlib only): the GPU machine has no numpy or Pillow.
"""
import struct
import sys
import zlib


def read_png(path):
    """(width, height, channels, rows of bytes) of an 8-bit non-interlaced RGB/RGBA PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise SystemExit(f"{path}: only 8-bit RGB/RGBA, not interlaced")
            ch = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if w is None:
        raise SystemExit(f"{path}: no IHDR")
    raw = zlib.decompress(idat)
    stride = w * ch
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - ch] if i >= ch else 0
            b = prev[i]
            c = prev[i - ch] if i >= ch else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, ch, rows


def main():
    a, b = sys.argv[1], sys.argv[2]
    max_rel = float(sys.argv[3]) if len(sys.argv) > 3 else 0.05
    max_far = float(sys.argv[4]) if len(sys.argv) > 4 else 0.02
    wa, ha, ca, ra = read_png(a)
    wb, hb, cb, rb = read_png(b)
    if (wa, ha) != (wb, hb):
        print(f"FAIL sizes differ: {wa}x{ha} against {wb}x{hb}")
        return 1
    total = far = lit = 0
    sum_a = sum_b = 0
    for la, lb in zip(ra, rb):
        for x in range(wa):
            pa, pb = la[x * ca:x * ca + 3], lb[x * cb:x * cb + 3]
            d = [abs(pa[k] - pb[k]) for k in range(3)]
            total += sum(d)
            sum_a += sum(pa)
            sum_b += sum(pb)
            if max(pa) > 8 or max(pb) > 8:
                lit += 1
                if max(d) > 24:
                    far += 1
    n = wa * ha
    mean, frac = total / (3 * n), far / max(lit, 1)
    bright = 0.5 * (sum_a + sum_b) / (3 * n)
    print(f"{a} vs {b}: mean |diff| {mean:.3f} /255 per channel = {mean / max(bright, 1e-9):.3f} "
          f"of the mean brightness ({sum_a / (3 * n):.2f} and {sum_b / (3 * n):.2f}); "
          f"{100 * frac:.3f}% of {lit} lit pixels differ by > 24")
    ok = lit > 0 and mean <= max_rel * bright and frac <= max_far
    print("PASS" if ok else f"FAIL (limits: {max_rel} of the brightness, far fraction {max_far})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
