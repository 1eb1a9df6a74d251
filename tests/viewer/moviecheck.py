# Compares frames decoded from a movie with screenshots of the same frames (colour, structure).
# SPDX-License-Identifier: MIT
"""Usage: moviecheck.py MOVIE K:SHOT.png [K:SHOT.png ...] [--save K:OUT.png]

Decodes frame K (0 = first) of MOVIE with ffmpeg, as a player shows it (BT.709, limited
range, the tags the recorder writes), and compares it with SHOT.png, a screenshot of the same
frame. --save writes a decoded frame as a PNG. Exit status 0 when every frame passes, 1 when
one fails or cannot be read, 2 on bad arguments. Standard library, imgcheck and the ffmpeg
program only (tests/gpu/make_viewer_devbuild.sh builds one for the device).

What a frame must meet, and why these bounds (both pictures are cut into BLOCK x BLOCK pixel
blocks first, so that H.264's loss of fine detail and 4:2:0's halved colour resolution,
which are expected, weigh little). "Measured" is test_movie.py's scene, 320x200:
- MEAN_TOL: the frame's mean colour, per channel, within 4 of 255 of the screenshot's. A
  correct movie at the recorder's quality (CRF 18) moves it by well under 1 (measured: at
  most 0.1); a uniform magenta or green movie, or stripes, move it by tens (magenta: 237).
- LIT_TOL: over the blocks the screenshot shows lit (brightest channel of the block's mean
  above LIT_LEVEL), the mean absolute difference of the blocks' colour, per channel, at most
  12 of 255. Most of a galaxy picture is black, so a colour error that leaves black black
  (U and V swapped, the wrong matrix) hardly moves the whole frame's mean; it moves the lit
  blocks by tens (U and V swapped: 35). Compression blurs small bright stars a little
  (measured: at most 1.5; the neighbouring frame of a moving scene: 3.4, so a frame one off
  passes this check: frame-exactness is test_movie.py's own check).
- CORR_MIN: per channel, the correlation of the blocks' means with the screenshot's at least
  0.9: where things are in the picture. A movie upside down (-0.04), striped (0.18) or
  magenta (0.08) falls far below it; a correct one is above 0.99 (measured: 1.000 to three
  places).
- The screenshot itself must have something to compare: at least MIN_LIT_BLOCKS lit blocks,
  else the checks above would pass on an empty picture.
"""
import os
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imgcheck  # noqa: E402

BLOCK = 8
MEAN_TOL = 4.0
LIT_LEVEL = 24
LIT_TOL = 12.0
CORR_MIN = 0.9
MIN_LIT_BLOCKS = 4


class DecodeError(Exception):
    pass


def read_ppm(data):
    """(width, height, RGB bytes) of a binary PPM (P6, maxval 255): what ffmpeg writes."""
    fields, pos = [], 0
    while len(fields) < 4:
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        end = pos
        while end < len(data) and not data[end:end + 1].isspace():
            end += 1
        if end == pos:
            raise ValueError("short PPM header")
        fields.append(data[pos:end])
        pos = end
    if fields[0] != b"P6" or fields[3] != b"255":
        raise ValueError("not an 8-bit binary PPM")
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + 3 * w * h]
    if len(pixels) != 3 * w * h:
        raise ValueError("PPM of %dx%d holds %d bytes" % (w, h, len(pixels)))
    return w, h, pixels


def decode_frame(movie, k):
    """Frame k of the movie as an imgcheck.Image (RGB rows), converted as a player does."""
    # The matrix and range are given, not guessed: what the recorder tags its stream with.
    # full_chroma_int interpolates colour to every pixel, as players do, and accurate_rnd
    # rounds exactly: a correct frame's mean is then the screenshot's to within 0.1 (0.7
    # darker without them), with Debian's ffmpeg and the device's static one alike.
    vf = ("select=eq(n\\,%d),scale=in_color_matrix=bt709:in_range=limited:out_range=full:"
          "flags=bicubic+accurate_rnd+full_chroma_int,format=rgb24" % k)
    try:
        p = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", movie, "-vf", vf,
                            "-frames:v", "1", "-f", "image2pipe", "-c:v", "ppm", "-"],
                           capture_output=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise DecodeError("%s: cannot run ffmpeg to decode frame %d (%s)" % (movie, k, e))
    why = p.stderr.decode(errors="replace").strip()[:300]
    if p.returncode != 0:
        raise DecodeError("%s: cannot decode frame %d (%s)" % (movie, k, why))
    if not p.stdout:
        raise DecodeError("%s: cannot decode frame %d (the movie has no frame %d)"
                          % (movie, k, k))
    try:
        w, h, pixels = read_ppm(p.stdout)
    except ValueError as e:
        raise DecodeError("%s: frame %d: ffmpeg's picture is unreadable (%s)" % (movie, k, e))
    rows = [pixels[3 * w * y:3 * w * (y + 1)] for y in range(h)]
    return imgcheck.Image(w, h, rows)


def write_png(img, path):
    """Saves an imgcheck.Image as an 8-bit RGB PNG (stdlib only)."""
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    raw = b"".join(b"\x00" + r for r in img.rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", img.w, img.h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def blocks(img):
    """Per channel, the mean of each BLOCK x BLOCK block (whole blocks only), row by row."""
    bw, bh = img.w // BLOCK, img.h // BLOCK
    out = [[0.0] * (bw * bh) for _ in range(3)]
    for y in range(bh * BLOCK):
        row, base = img.rows[y], (y // BLOCK) * bw
        for c in range(3):
            acc = out[c]
            for bx in range(bw):
                acc[base + bx] += sum(row[3 * BLOCK * bx + c:3 * BLOCK * (bx + 1):3])
    n = BLOCK * BLOCK
    return [[v / n for v in ch] for ch in out]


def correlation(a, b):
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    saa = sum((x - ma) ** 2 for x in a)
    sbb = sum((y - mb) ** 2 for y in b)
    return sab / (saa * sbb) ** 0.5 if saa > 0 and sbb > 0 else 0.0


def measure(movie_img, shot):
    """The figures compare() judges: means, lit-block means, correlations, lit blocks."""
    def mean(img):
        n = img.w * img.h
        return [sum(sum(r[c::3]) for r in img.rows) / n for c in range(3)]
    bm, bs = blocks(movie_img), blocks(shot)
    lit = [i for i in range(len(bs[0])) if max(bs[0][i], bs[1][i], bs[2][i]) > LIT_LEVEL]

    def lit_diff(c):
        return sum(abs(bm[c][i] - bs[c][i]) for i in lit) / len(lit) if lit else 0.0
    return {"mean_movie": mean(movie_img), "mean_shot": mean(shot), "lit_blocks": len(lit),
            "lit_diff": [lit_diff(c) for c in range(3)],
            "corr": [correlation(bm[c], bs[c]) for c in range(3)]}


def compare(movie_img, shot):
    """(list of failures, figures): empty when the movie's frame matches the screenshot."""
    if (movie_img.w, movie_img.h) != (shot.w, shot.h):
        return (["movie frame is %dx%d, screenshot %dx%d"
                 % (movie_img.w, movie_img.h, shot.w, shot.h)], {})
    m = measure(movie_img, shot)
    bad = []
    if m["lit_blocks"] < MIN_LIT_BLOCKS:
        bad.append("the screenshot has %d lit blocks, fewer than %d: nothing to compare"
                   % (m["lit_blocks"], MIN_LIT_BLOCKS))
    d = [abs(a - b) for a, b in zip(m["mean_movie"], m["mean_shot"])]
    if max(d) > MEAN_TOL:
        bad.append("mean colour differs by %.1f (bound %.0f)" % (max(d), MEAN_TOL))
    if max(m["lit_diff"]) > LIT_TOL:
        bad.append("lit blocks' colour differs by %.1f (bound %.0f)"
                   % (max(m["lit_diff"]), LIT_TOL))
    if min(m["corr"]) < CORR_MIN:
        bad.append("block correlation %.3f (bound %.2f)" % (min(m["corr"]), CORR_MIN))
    return bad, m


def describe(m):
    def rgb(v):
        return "(%s)" % " ".join("%.1f" % x for x in v)
    return ("mean %s vs %s; %d lit blocks differ by %s; correlation %s"
            % (rgb(m["mean_movie"]), rgb(m["mean_shot"]), m["lit_blocks"], rgb(m["lit_diff"]),
               " ".join("%.3f" % c for c in m["corr"])))


def check_frame(movie, k, shot_path, decode=None):
    """(ok, one line saying what was compared and found). decode(k), when given, returns
    frame k of the movie (decoded before, say); else it is decoded here."""
    try:
        img = decode(k) if decode else decode_frame(movie, k)
    except DecodeError as e:
        return False, str(e)
    try:
        shot = imgcheck.read_png(shot_path)
    except (OSError, ValueError, zlib.error, struct.error) as e:
        return False, "%s: cannot read the screenshot (%s)" % (shot_path, e)
    bad, m = compare(img, shot)
    what = "movie frame %d against %s" % (k, os.path.basename(shot_path))
    if bad:
        return False, "%s: %s%s" % (what, "; ".join(bad), " [%s]" % describe(m) if m else "")
    return True, "%s: %s" % (what, describe(m))


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    movie, pairs, saves, i = argv[1], [], [], 2
    while i < len(argv):
        arg = argv[i]
        target = saves if arg == "--save" else pairs
        if arg == "--save":
            i += 1
            if i == len(argv):
                sys.stderr.write("moviecheck: --save needs K:OUT.png\n")
                return 2
            arg = argv[i]
        k, sep, path = arg.partition(":")
        if not sep or not k.isdigit() or not path:
            sys.stderr.write("moviecheck: expected K:FILE.png, got %r\n" % arg)
            return 2
        target.append((int(k), path))
        i += 1
    status, frames = 0, {}

    def frame(k):  # each frame decoded once: a decode runs through the movie up to it
        if k not in frames:
            frames[k] = decode_frame(movie, k)
        return frames[k]
    for k, path in saves:
        try:
            write_png(frame(k), path)
            print("saved movie frame %d as %s" % (k, path))
        except DecodeError as e:
            print("FAIL %s" % e)
            status = 1
        except OSError as e:
            print("FAIL cannot save movie frame %d as %s: %s" % (k, path, e.strerror or e))
            status = 1
    for k, path in pairs:
        ok, line = check_frame(movie, k, path, frame)
        print(("ok   " if ok else "FAIL ") + line)
        status = status or (0 if ok else 1)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
