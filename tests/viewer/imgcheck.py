# Reads the viewer's PNG screenshots (8-bit RGB/RGBA, non-interlaced) and measures pixels; stdlib only.
# SPDX-License-Identifier: MIT
import struct
import zlib

LIT = 40  # a pixel is "lit" when its brightest channel exceeds this (0..255); black is 0


class Image:
    def __init__(self, w, h, rows):
        self.w, self.h, self.rows = w, h, rows  # rows: list of bytes, 3 bytes a pixel


def read_png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG" % path)
    pos, idat, w = 8, [], None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError("%s: only 8-bit RGB(A) non-interlaced PNGs" % path)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if ft == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ft == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif ft == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ft == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        elif ft != 0:
            raise ValueError("%s: bad filter type %d" % (path, ft))
        prev = line
        if bpp == 4:
            line = bytearray(b for i, b in enumerate(line) if i % 4 != 3)
        rows.append(bytes(line))
    return Image(w, h, rows)


def region(img, fx0, fy0, fx1, fy1):
    """Pixel box from fractions of width and height (top-left origin)."""
    return (int(fx0 * img.w), int(fy0 * img.h), int(fx1 * img.w), int(fy1 * img.h))


def lit_fraction(img, box=None, level=LIT):
    """Fraction of pixels in box whose brightest channel exceeds level."""
    x0, y0, x1, y1 = box or (0, 0, img.w, img.h)
    lit = total = 0
    for y in range(y0, y1):
        row = img.rows[y]
        for x in range(x0, x1):
            total += 1
            if max(row[3 * x], row[3 * x + 1], row[3 * x + 2]) > level:
                lit += 1
    return lit / total if total else 0.0


def diff_fraction(a, b, box=None, tol=24):
    """Fraction of pixels in box whose channels differ by more than tol."""
    if (a.w, a.h) != (b.w, b.h):
        return 1.0
    x0, y0, x1, y1 = box or (0, 0, a.w, a.h)
    n = d = 0
    for y in range(y0, y1):
        ra, rb = a.rows[y], b.rows[y]
        for x in range(x0, x1):
            n += 1
            i = 3 * x
            if (abs(ra[i] - rb[i]) > tol or abs(ra[i + 1] - rb[i + 1]) > tol
                    or abs(ra[i + 2] - rb[i + 2]) > tol):
                d += 1
    return d / n if n else 0.0


def mean_rgb(img, box=None):
    """Mean colour of the lit pixels in box."""
    x0, y0, x1, y1 = box or (0, 0, img.w, img.h)
    s, n = [0, 0, 0], 0
    for y in range(y0, y1):
        row = img.rows[y]
        for x in range(x0, x1):
            r, g, b = row[3 * x], row[3 * x + 1], row[3 * x + 2]
            if max(r, g, b) > LIT:
                s[0] += r
                s[1] += g
                s[2] += b
                n += 1
    return tuple(c / n for c in s) if n else (0.0, 0.0, 0.0)


def blue_share_spread(img, box=None, level=LIT):
    """Standard deviation of b / (r + g + b) over the lit pixels in box: how much the hue
    varies from body to body (0 when every body has the same colour)."""
    x0, y0, x1, y1 = box or (0, 0, img.w, img.h)
    s = s2 = n = 0.0
    for y in range(y0, y1):
        row = img.rows[y]
        for x in range(x0, x1):
            r, g, b = row[3 * x], row[3 * x + 1], row[3 * x + 2]
            if max(r, g, b) > level:
                f = b / (r + g + b)
                s += f
                s2 += f * f
                n += 1
    return max(0.0, s2 / n - (s / n) ** 2) ** 0.5 if n else 0.0



def lit_box(img, trim=0.005, level=LIT):
    """Box (x0, y0, x1, y1, inclusive) of the lit pixels, leaving out a fraction trim of them
    at each side (a stray star does not count); None if nothing is lit."""
    rows, cols = [0] * img.h, [0] * img.w
    for y, r in enumerate(img.rows):
        for x in range(img.w):
            if max(r[3 * x], r[3 * x + 1], r[3 * x + 2]) > level:
                rows[y] += 1
                cols[x] += 1
    total = sum(rows)
    if total == 0:
        return None

    def edges(counts):
        cut, seen, lo, hi = trim * total, 0, 0, len(counts) - 1
        for i, n in enumerate(counts):
            seen += n
            if seen > cut:
                lo = i
                break
        seen = 0
        for i in range(len(counts) - 1, -1, -1):
            seen += counts[i]
            if seen > cut:
                hi = i
                break
        return lo, hi
    (x0, x1), (y0, y1) = edges(cols), edges(rows)
    return x0, y0, x1, y1


def lit_rows_span(img, trim=0.005, level=LIT):
    """Fraction of the height spanned by lit_box; 0 if nothing is lit."""
    box = lit_box(img, trim, level)
    return (box[3] - box[1] + 1) / img.h if box else 0.0
