# Real type on screen: --present's title and time read back from the window (under an X server:
# ctest starts one with xvfb.py) or from headless pictures, checked where they should be, dark
# around, and real type (anti-aliased edges, lower case shorter than capitals, descenders).
# SPDX-License-Identifier: MIT
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imgcheck  # noqa: E402
import sanitizer  # noqa: E402

# Usage: test_text.py GALAXY window|headless. GC_TEST_HAS_FREETYPE (from ctest): "1" when the
# build has FreeType; the real-type checks then must pass where DejaVu Sans is installed.
galaxy, where = sys.argv[1], sys.argv[2]
has_freetype = os.environ.get("GC_TEST_HAS_FREETYPE") == "1"
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
TITLE = "Hxp"  # a capital, a lower-case letter without and one with a descender
MARGIN = 0.035  # the design: title and time 3.5% of the height in from the corners
tmp = os.path.join(os.environ.get("GC_TEST_TMP", "/tmp"), "viewer_text_" + where)
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
# The bodies far below black (EV -30): only the text is lit.
ARGS = ["-n", "256", "--exposure", "-30", "--present", "--title", TITLE]


def lum(row, x):
    return max(row[3 * x], row[3 * x + 1], row[3 * x + 2])


def box_in(img, y0, y1, level=imgcheck.LIT):
    """(x0, y0, x1, y1), inclusive, of the pixels brighter than level in rows y0..y1-1."""
    xs, ys = [], []
    for y in range(y0, y1):
        row = img.rows[y]
        for x in range(img.w):
            if lum(row, x) > level:
                xs.append(x)
                ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def lit_outside(img, box, pad):
    """Lit pixels in the band pad pixels wide around box (not in it)."""
    x0, y0, x1, y1 = box
    n = 0
    for y in range(max(0, y0 - pad), min(img.h, y1 + pad + 1)):
        row = img.rows[y]
        for x in range(max(0, x0 - pad), min(img.w, x1 + pad + 1)):
            if not (x0 <= x <= x1 and y0 <= y <= y1) and lum(row, x) > imgcheck.LIT:
                n += 1
    return n


def glyphs(img, box):
    """The glyphs of a line in box, left to right: runs of columns with lit pixels, each as
    (x0, x1, top, bottom)."""
    x0, y0, x1, y1 = box
    runs, start = [], None
    for x in range(x0, x1 + 2):
        ys = [y for y in range(y0, y1 + 1) if x <= x1 and lum(img.rows[y], x) > imgcheck.LIT]
        if ys and start is None:
            start, top, bottom = x, min(ys), max(ys)
        elif ys:
            top, bottom = min(top, min(ys)), max(bottom, max(ys))
        elif start is not None:
            runs.append((start, x - 1, top, bottom))
            start = None
    return runs


def edge_share(img, box):
    """Share of the text's pixels (above a faint level) at intermediate levels, 15% to 75% of
    the brightest: the anti-aliased edges of real type. A pixel font drawn with whole pixels
    over black has none (ink or nothing)."""
    x0, y0, x1, y1 = box
    vals = [lum(img.rows[y], x) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]
    top = max(vals)
    ink = [v for v in vals if v > 8]
    mid = [v for v in ink if 0.15 * top < v < 0.75 * top]
    return len(mid) / len(ink) if ink else 0.0


def check_slide(img, label, real, edges=True):
    """The title top left, the time bottom left, nothing else lit near them; with real
    type, also its shapes (and its anti-aliased edges when `edges`: not in a movie, whose
    compression blurs any edge). The title's capital height, a share of the picture height."""
    h, m = img.h, MARGIN * img.h
    title = box_in(img, 0, int(0.2 * h))
    check(title is not None, "%s: the title is drawn in the top fifth" % label)
    when = box_in(img, int(0.75 * h), h)
    check(when is not None, "%s: the time is drawn in the bottom quarter" % label)
    if title is None or when is None:
        return None
    x0, y0, x1, y1 = title
    print("%s: %dx%d, title box %s, time box %s" % (label, img.w, h, title, when))
    check(m - 1 <= x0 <= m + 0.012 * h, "%s: the title starts %.1f%% of the height in from the "
          "left (%d, margin %.0f)" % (label, 100 * MARGIN, x0, m))
    check(m - 1 <= y0 <= m + 0.03 * h, "%s: the title's top is just below the top margin "
          "(%d, margin %.0f)" % (label, y0, m))
    check(0.02 * h <= y1 - y0 + 1 <= 0.08 * h, "%s: the title is 2%% to 8%% of the height tall "
          "(%d of %d pixels)" % (label, y1 - y0 + 1, h))
    check(x1 < img.w / 2, "%s: three letters stay in the left half (right edge %d)" % (label, x1))
    pad = int(0.03 * h)
    n = lit_outside(img, title, pad)
    check(n == 0, "%s: nothing lit within %d pixels around the title (%d pixels)" % (label, pad, n))
    wx0, wy0, wx1, wy1 = when
    check(m - 1 <= wx0 <= m + 0.012 * h, "%s: the time starts at the left margin (%d, margin "
          "%.0f)" % (label, wx0, m))
    check(h - m - 0.06 * h <= wy1 <= h - m, "%s: the time ends just above the bottom margin "
          "(bottom %d, margin line %.0f)" % (label, wy1, h - m))
    n = lit_outside(img, when, pad)
    check(n == 0, "%s: nothing lit within %d pixels around the time (%d pixels)" % (label, pad, n))
    if not real:
        return None
    runs = glyphs(img, title)
    check(len(runs) == 3, "%s: the title reads as three separate glyphs (%s)" % (label, runs))
    for name, box in (("title", title), ("time", when)):
        if not edges:
            checks.skip("%s: the %s's anti-aliased edges" % (label, name),
                        "compression blurs every edge")
            continue
        share = edge_share(img, box)
        check(share > 0.1, "%s: anti-aliased: %.2f of the %s's ink at intermediate levels "
              "(> 0.1)" % (label, share, name))
    if len(runs) != 3:
        return None
    (_, _, ht, hb), (_, _, xt, xb), (_, _, pt, pb) = runs
    cap = hb - ht + 1
    # DejaVu Sans: x-height 0.75 of the capitals, descender 0.32 below the baseline; a font
    # drawn in upper case only has X and P as tall as H and nothing below it.
    check(xt - ht >= 0.15 * cap, "%s: lower case 'x' is shorter than 'H' (tops at %d and %d, "
          "capital %d pixels)" % (label, xt, ht, cap))
    check(abs(xb - hb) <= 1, "%s: 'x' and 'H' share the baseline (%d, %d)" % (label, xb, hb))
    check(pb - hb >= 0.15 * cap, "%s: 'p' descends below the baseline (bottoms %d and %d)"
          % (label, pb, hb))
    return cap / h


def real_expected():
    """Whether this run must draw real type; exits 77 (skip) where it cannot."""
    return has_freetype and os.path.exists(DEJAVU)


def skip_reason():
    if not has_freetype:
        return "this build has no FreeType (the pixel font's title and time were checked)"
    return "%s is not installed (fonts-dejavu-core)" % DEJAVU


def run_headless(size, movie=None):
    out = os.path.join(tmp, "present_%s.png" % size)
    env = dict(os.environ)
    for k in ("DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(k, None)
    env = sanitizer.keep_driver_loaded(env, galaxy)
    cmd = [galaxy, "--headless", "--frames", "2" if movie else "1", "--size", size,
           "--screenshot", out] + (["--record", movie] if movie else []) + ARGS
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    sys.stdout.write(p.stderr)
    if p.returncode != 0 and "no EGL display" in p.stderr:
        print("SKIP: no EGL display on this machine")
        sys.exit(77)
    rc = sanitizer.effective_returncode(p.returncode, p.stderr)
    check(rc == 0, "--headless --size %s exits 0 (got %d)" % (size, rc))
    check(("text: real type from" in p.stderr) == real_expected(),
          "the log says whether real type draws the text")
    return imgcheck.read_png(out) if os.path.exists(out) else None


def headless():
    real = real_expected()
    shares = []
    for size in ("960x540", "1920x1080"):
        img = run_headless(size)
        check(img is not None, "headless %s: the picture was written" % size)
        if img is not None:
            shares.append(check_slide(img, "headless " + size, real))
    # As large a share of the picture at 1080 rows as at 540: a 4K movie looks like a window.
    if real and len(shares) == 2 and None not in shares:
        check(abs(shares[1] / shares[0] - 1.0) < 0.15, "capital height %.4f and %.4f of the "
              "picture height, 540 and 1080 rows (within 15%%)" % tuple(shares))
    # The movie's frames: the same text, read back from the H.264 file.
    if os.environ.get("GC_TEST_HAS_RECORD") != "1" or not shutil.which("ffmpeg"):
        checks.skip("the title in a movie", "this build records no movies, or no ffmpeg")
        return
    import moviecheck
    movie = os.path.join(tmp, "present.mp4")
    run_headless("960x540", movie)
    try:
        img = moviecheck.decode_frame(movie, 1)
    except moviecheck.DecodeError as e:
        check(False, str(e))
        return
    check_slide(img, "movie frame 1", real, edges=False)


def window():
    if not os.environ.get("DISPLAY"):
        print("SKIP: no DISPLAY (run under an X server: tests/viewer/xvfb.py starts one)")
        sys.exit(77)
    real = real_expected()
    log = open(os.path.join(tmp, "galaxy.log"), "w")
    proc = subprocess.Popen([galaxy, "--size", "960x540", "--screenshot-after", "5",
                             "--screenshot-dir", tmp] + ARGS, stdout=log, stderr=subprocess.STDOUT,
                            env=sanitizer.keep_driver_loaded(os.environ, galaxy))
    shot, t_end = None, time.time() + 90
    while time.time() < t_end and proc.poll() is None and shot is None:
        pngs = [f for f in os.listdir(tmp) if f.endswith(".png")]
        shot = os.path.join(tmp, pngs[0]) if pngs else None
        time.sleep(0.1)
    time.sleep(0.5)  # the PNG written in full
    # SIGTERM: the viewer ends as on a stop request, its teardown run.
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    log.close()
    text = sanitizer.strip_report(open(log.name).read())
    print("---- the viewer's log ----\n" + text)
    check(shot is not None, "the window saved its 5th frame")
    check(("text: real type from" in text) == real, "the log says whether real type draws")
    if shot is not None:
        check_slide(imgcheck.read_png(shot), "window", real)


if where == "headless":
    headless()
elif where == "window":
    window()
else:
    print("test_text.py: unknown mode %r (window or headless)" % where)
    sys.exit(2)
if checks.summary():
    sys.exit(1)
if not real_expected():
    print("SKIP: real type not checked: " + skip_reason())
    sys.exit(77)
print("all text checks passed")
