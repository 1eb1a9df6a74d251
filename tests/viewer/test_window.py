# The real viewer under Xvfb + Mesa: keys sent with xdotool, screenshots ('s' and
# --screenshot-after) measured. Run inside xvfb-run (ctest does that).
# SPDX-License-Identifier: MIT
import glob
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imgcheck  # noqa: E402
import sanitizer  # noqa: E402

galaxy = sys.argv[1]
if not os.environ.get("DISPLAY"):
    print("SKIP: no DISPLAY (run under xvfb-run)")
    sys.exit(77)
tmp = os.environ.get("GC_TEST_TMP", "/tmp")
shots = os.path.join(tmp, "viewer_window")
shutil.rmtree(shots, ignore_errors=True)
os.makedirs(shots)
keep = os.environ.get("GC_VIEWER_KEEP")  # folder to copy the checked screenshots into
data = os.path.join(os.environ.get("GC_SHARED_DATA", ""), "dubinski.tab.gz")
source = ["--data", data] if os.path.exists(data) else []
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures += 1


def xdo(*args):
    return subprocess.run(["xdotool"] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=20).stdout.strip()


def pngs():
    return sorted(glob.glob(os.path.join(shots, "galaxy-*.png")))


def wait_new_png(before, timeout=20.0):
    t = time.time() + timeout
    while time.time() < t:
        now = pngs()
        if len(now) > len(before):
            return now[-1]
        if proc.poll() is not None:
            return None
        time.sleep(0.05)
    return None


def shot(name, keys=()):
    """Sends keys, then 's'; returns the decoded screenshot (or None)."""
    before = pngs()
    for k in keys:
        xdo("key", "--window", wid, k)
        time.sleep(0.15)
    xdo("key", "--window", wid, "s")
    path = wait_new_png(before)
    check(path is not None, "'s' saved a screenshot (%s)" % name)
    if path is None:
        return None
    if keep:
        shutil.copy(path, os.path.join(keep, "window_%s.png" % name))
    return imgcheck.read_png(path)


log = open(os.path.join(shots, "galaxy.log"), "w")
cmd = [galaxy, "-n", "2048", "--size", "640x400", "--screenshot-after", "1",
       "--screenshot-dir", shots] + source
proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                        env=sanitizer.keep_driver_loaded(os.environ, galaxy))
try:
    first_path = wait_new_png([], timeout=60)
    check(first_path is not None, "--screenshot-after 1 saved the first frame")
    if first_path is None:
        raise SystemExit(1)  # a bare SystemExit would exit 0: a pass
    first = imgcheck.read_png(first_path)
    if keep:
        shutil.copy(first_path, os.path.join(keep, "window_first_frame.png"))
    wid = xdo("search", "--sync", "--onlyvisible", "--name", "^galaxy")
    wid = wid.split()[0] if wid else ""
    check(wid != "", "found the viewer window with xdotool")
    if not wid:
        raise SystemExit(1)  # a bare SystemExit would exit 0: a pass
    xdo("windowfocus", "--sync", wid)
    # Window title carries the statistics once a second.
    time.sleep(1.5)
    title = xdo("getwindowname", wid)
    check("fps" in title and "GFLOP/s" in title and "Myr" in title,
          "window title shows statistics: %r" % title)

    # Regions: the HUD panel sits top left; bodies are framed around the centre.
    hud_box = imgcheck.region(first, 0.0, 0.0, 0.75, 0.3)
    centre = imgcheck.region(first, 0.15, 0.1, 0.85, 0.9)
    below_hud = imgcheck.region(first, 0.0, 0.3, 1.0, 1.0)

    # Pause, hide the HUD, reset: the initial state without text.
    base = shot("base", ["space", "i", "r"])
    lit = imgcheck.lit_fraction(base, centre)
    check(lit > 0.01, "bodies visible: %.3f of the central region lit (> 0.01)" % lit)
    check(lit >= imgcheck.lit_fraction(base), "bodies concentrate in the centre")
    d = imgcheck.diff_fraction(first, base, below_hud)
    check(d < 0.001, "'r' shows the first frame again (%.5f of pixels differ outside "
          "the HUD)" % d)
    check(imgcheck.lit_fraction(base, hud_box) < imgcheck.lit_fraction(first, hud_box),
          "'i' hides the HUD text")

    img = shot("draw_points", ["d"])
    d = imgcheck.diff_fraction(base, img, centre)
    check(d > 0.01, "'d' changes the image (%.4f of pixels differ)" % d)
    img2 = shot("draw_plain", ["d"])
    d = imgcheck.diff_fraction(img, img2, centre)
    check(d > 0.01, "'d' again changes the image (%.4f of pixels differ)" % d)
    img = shot("draw_cycled", ["d"])
    d = imgcheck.diff_fraction(base, img, tol=0)
    check(d == 0.0, "three 'd' presses return to sprites (%.5f differ)" % d)

    prev, cbase = base, imgcheck.mean_rgb(base, centre)
    for name in ("color_component", "color_velocity", "color_speed"):
        img = shot(name, ["c"])
        m = imgcheck.mean_rgb(img, centre)
        dist = sum(abs(x - y) for x, y in zip(m, imgcheck.mean_rgb(prev, centre)))
        check(dist > 10.0, "'c' (%s) changes the colours: mean lit colour %s, moved by %.1f"
              % (name, tuple(round(x) for x in m), dist))
        prev = img
    img = shot("color_cycled", ["c"])
    check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "four 'c' presses return to "
          "colour by galaxy")

    big = shot("bigger", ["plus", "plus"])
    lb, l0 = imgcheck.lit_fraction(big, centre), imgcheck.lit_fraction(base, centre)
    check(lb > 1.15 * l0, "'+' makes sprites larger: lit %.4f -> %.4f" % (l0, lb))
    small = shot("smaller", ["minus", "minus", "minus", "minus"])
    ls = imgcheck.lit_fraction(small, centre)
    check(ls < 0.9 * l0, "'-' makes sprites smaller: lit %.4f -> %.4f" % (l0, ls))
    img = shot("size_restored", ["plus", "plus"])
    check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "'+' undoes '-'")

    img = shot("single_steps", ["n"] * 8)
    d = imgcheck.diff_fraction(base, img, centre, tol=8)
    check(d > 0.0005, "'n' steps while paused (%.5f of pixels differ)" % d)
    img2 = shot("still_paused")
    check(imgcheck.diff_fraction(img, img2, tol=0) == 0.0, "paused: nothing moves by itself")

    # Run a while (space), pause, check motion; then 'r' must restore the base frame.
    xdo("key", "--window", wid, "space")
    time.sleep(1.5)
    moved = shot("running", ["space"])
    d = imgcheck.diff_fraction(base, moved, centre)
    check(d > 0.002, "space runs the simulation (%.4f of pixels differ)" % d)
    img = shot("reset", ["r"])
    d = imgcheck.diff_fraction(base, img, tol=0)
    check(d == 0.0, "'r' restores the first frame (%.5f of pixels differ)" % d)

    # Mouse: left-drag rotates, 'r' resets the camera too.
    xdo("mousemove", "--window", wid, 320, 200)
    xdo("mousedown", 1)
    for i in range(1, 6):
        xdo("mousemove", "--window", wid, 320 + 20 * i, 200 + 6 * i)
        time.sleep(0.05)
    xdo("mouseup", 1)
    img = shot("rotated")
    d = imgcheck.diff_fraction(base, img, centre)
    check(d > 0.01, "left-drag rotates the view (%.4f of pixels differ)" % d)
    img = shot("camera_reset", ["r"])
    check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "'r' resets the camera too")
    # Wheel (X buttons 4/5) and right-drag zoom: nearer means more lit pixels.
    xdo("mousemove", "--window", wid, 320, 200)
    for _ in range(4):
        xdo("click", 4)
    near = shot("wheel_in")
    xdo("key", "--window", wid, "r")
    for _ in range(4):
        xdo("click", 5)
    far = shot("wheel_out")
    ln, lf, l0 = (imgcheck.lit_fraction(x, centre) for x in (near, far, base))
    check(ln > l0 > lf, "wheel zooms in and out: lit %.4f (in) > %.4f > %.4f (out)"
          % (ln, l0, lf))
    xdo("key", "--window", wid, "r")
    xdo("mousemove", "--window", wid, 320, 200)
    xdo("mousedown", 3)
    for i in range(1, 6):
        xdo("mousemove", "--window", wid, 320, 200 - 15 * i)
        time.sleep(0.05)
    xdo("mouseup", 3)
    img = shot("right_drag")
    check(imgcheck.lit_fraction(img, centre) > l0, "right-drag up zooms in")
    xdo("key", "--window", wid, "r")
    xdo("mousemove", "--window", wid, 320, 200)
    xdo("mousedown", 2)
    for i in range(1, 6):
        xdo("mousemove", "--window", wid, 320 + 20 * i, 200)
        time.sleep(0.05)
    xdo("mouseup", 2)
    img = shot("pan")
    left, right = imgcheck.region(img, 0, 0, 0.5, 1), imgcheck.region(img, 0.5, 0, 1, 1)
    shift = (imgcheck.lit_fraction(img, right) - imgcheck.lit_fraction(img, left)) - (
        imgcheck.lit_fraction(base, right) - imgcheck.lit_fraction(base, left))
    check(shift > 0.002, "middle-drag right pans the bodies right (lit balance +%.4f)"
          % shift)

    # dt keys, logged by the viewer.
    xdo("key", "--window", wid, "r", "bracketleft", "bracketright")
    help_img = shot("help", ["h"])
    d = imgcheck.diff_fraction(base, help_img, centre)
    check(d > 0.005, "'h' shows the help overlay (%.4f of pixels differ)" % d)
    hud = shot("hud", ["h", "i"])
    check(imgcheck.lit_fraction(hud, hud_box) > imgcheck.lit_fraction(base, hud_box) + 0.01,
          "'i' shows the HUD again")

    # 'f': full screen fills the Xvfb screen (1280x800), a second 'f' restores the window.
    xdo("key", "--window", wid, "i", "f")
    time.sleep(0.6)  # the resize reaches the window asynchronously
    full = shot("fullscreen")
    xdo("key", "--window", wid, "f")
    time.sleep(0.6)
    back = shot("windowed")
    check(full is not None and (full.w, full.h) == (1280, 800),
          "'f' goes full screen (%s)" % (full and "%dx%d" % (full.w, full.h)))
    check(back is not None and (back.w, back.h) == (640, 400),
          "second 'f' restores 640x400 (%s)" % (back and "%dx%d" % (back.w, back.h)))

    xdo("key", "--window", wid, "q")
    try:
        rc = proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        rc = None
    log.flush()
    full = open(os.path.join(shots, "galaxy.log")).read()
    if rc is not None and sanitizer.only_unloaded_driver_leaks(full):
        print("note: LeakSanitizer saw only leaks inside the unloaded GL driver (ignored)")
        rc = sanitizer.effective_returncode(rc, full)
    check(rc == 0, "'q' exits with status 0 (got %s)" % rc)
finally:
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    log.close()
    text = sanitizer.strip_report(open(os.path.join(shots, "galaxy.log")).read())
    print("---- viewer log ----\n" + text)
check("dt = 0.005" in text and "dt = 0.01" in text, "'[' halves and ']' doubles dt")
check("error" not in text.lower(), "the viewer logged no error")
sys.exit(1 if failures else 0)
