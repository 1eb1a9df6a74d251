#!/usr/bin/env python3
"""PNG screenshots of the viewer side by side, COLUMNS to a row: a grid (stdlib only)."""
# Usage: png_montage.py OUT.png COLUMNS IN.png...
import os
import struct
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "viewer"))
import imgcheck  # noqa: E402


def chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data +
            struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))


def main():
    out, cols, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    imgs = [imgcheck.read_png(p) for p in paths]
    w, h = max(i.w for i in imgs), max(i.h for i in imgs)
    rows = (len(imgs) + cols - 1) // cols
    canvas = [bytearray(w * cols * 3) for _ in range(h * rows)]
    for k, im in enumerate(imgs):
        ox, oy = (k % cols) * w, (k // cols) * h
        for y in range(im.h):
            canvas[oy + y][3 * ox:3 * (ox + im.w)] = im.rows[y]
    raw = b"".join(b"\0" + bytes(r) for r in canvas)
    with open(out + ".part", "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", w * cols, h * rows, 8, 2, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    os.replace(out + ".part", out)


if __name__ == "__main__":
    main()
