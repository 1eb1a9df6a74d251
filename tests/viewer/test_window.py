# The real viewer under Xvfb + Mesa: keys sent with xdotool, screenshots ('s' and
# --screenshot-after) measured. Run under an X server (ctest starts one with xvfb.py).
# SPDX-License-Identifier: MIT
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imgcheck  # noqa: E402
import sanitizer  # noqa: E402

# Usage: test_window.py GALAXY [PART]; PART is "keys" (the default: keys_and_mouse below),
# "levels" (hermite_levels), "timeline" (first_frame and time_line) or "panel"
# (encounter_panel). ctest runs each part as its own test, under its own X server, so a
# failure shows in its own output and one part's X state cannot reach the other.
galaxy = sys.argv[1]
part = sys.argv[2] if len(sys.argv) > 2 else "keys"
if part not in ("keys", "levels", "timeline", "panel"):
    print("test_window.py: unknown part %r (keys, levels, timeline or panel)" % part)
    sys.exit(2)
if not os.environ.get("DISPLAY"):
    print("SKIP: no DISPLAY (run under an X server: tests/viewer/xvfb.py starts one)")
    sys.exit(77)
tmp = os.environ.get("GC_TEST_TMP", "/tmp")
shots = os.path.join(tmp, "viewer_window" if part == "keys" else "viewer_window_" + part)
shutil.rmtree(shots, ignore_errors=True)
os.makedirs(shots)
keep = os.environ.get("GC_VIEWER_KEEP")  # folder to copy the checked screenshots into
has_record = os.environ.get("GC_TEST_HAS_RECORD")  # "1" or "0" under ctest; None by hand
expected_errors = []  # error lines the test asks for itself (see unexpected_errors)
data = os.path.join(os.environ.get("GC_SHARED_DATA", ""), "dubinski.tab.gz")
source = ["--data", data] if os.path.exists(data) else []
proc, wid = None, ""  # the viewer now running and its window


def logged(text, prefix):
    """What the viewer logged after prefix, line by line (the modes it took, in order)."""
    return [l.split(prefix, 1)[1] for l in text.splitlines() if prefix in l]


def xdo(*args):
    """Runs xdotool; its output. A failure, a time-out or a slow call is noted in the log."""
    cmd = ["xdotool"] + [str(a) for a in args]
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        print("note: %s timed out after 20 s" % " ".join(cmd), flush=True)
        return ""
    took = time.time() - t0
    if r.returncode != 0 or r.stderr.strip() or took > 2.0:
        print("note: %s: status %d after %.1f s%s" % (" ".join(cmd), r.returncode, took,
              (": " + r.stderr.strip()) if r.stderr.strip() else ""), flush=True)
    return r.stdout.strip()


def pngs():
    return sorted(glob.glob(os.path.join(shots, "galaxy-*.png")))


def wait_new_png(before, timeout=20.0):
    t = time.time() + timeout
    while time.time() < t:
        now = pngs()
        if len(now) > len(before):
            return now[-1]
        if proc.poll() is not None:
            print("note: the viewer exited (status %s) before the screenshot" % proc.returncode)
            return None
        time.sleep(0.05)
    print("note: no new screenshot within %.0f s; the window's title: %r"
          % (timeout, xdo("getwindowname", wid) if wid else ""))
    dump_stacks()
    return None


def shot(name, keys=(), timeout=20.0):
    """Sends keys, then 's'; returns the decoded screenshot (or None)."""
    before = pngs()
    for k in keys:
        xdo("key", "--window", wid, k)
        time.sleep(0.15)
    xdo("key", "--window", wid, "s")
    path = wait_new_png(before, timeout)
    check(path is not None, "'s' saved a screenshot (%s)" % name)
    if path is None:
        return None
    if keep:
        shutil.copy(path, os.path.join(keep, "window_%s.png" % name))
    return imgcheck.read_png(path)


def wait_geometry(size, timeout=10.0):
    """Waits (up to timeout) until X reports the viewer window at size ("WxH")."""
    t = time.time() + timeout
    while time.time() < t and "Geometry: " + size not in xdo("getwindowgeometry", wid):
        time.sleep(0.05)
    time.sleep(0.1)


def focus(window, timeout=3.0):
    """Gives window the keyboard focus and waits (a bounded while) until X says it has it.
    Keys go to the window itself (xdotool key --window), so a focus that does not come is
    noted, not failed: xdotool's own --sync would wait 15 s, silently."""
    xdo("windowfocus", window)
    t = time.time() + timeout
    while time.time() < t:
        if xdo("getwindowfocus") == window:
            return
        time.sleep(0.05)
    print("note: window %s did not get the focus within %.0f s" % (window, timeout))


def dump_stacks():
    """Prints the threads' stacks of a viewer that stopped answering (gdb, where there)."""
    if proc.poll() is not None or not shutil.which("gdb"):
        return
    r = subprocess.run(["gdb", "-p", str(proc.pid), "-batch", "-ex", "thread apply all bt"],
                       capture_output=True, text=True, timeout=90)
    frames = [l for l in r.stdout.splitlines() if l.startswith(("#", "Thread"))]
    print("---- the viewer's threads ----\n" + "\n".join(frames[:80]))


def unexpected_errors(text):
    """The viewer's log lines that say "error", less those the test provoked on purpose."""
    return [l for l in text.splitlines()
            if "error" in l.lower() and not any(e in l for e in expected_errors)]


def finish_viewer(logf, title):
    """Kills the viewer if it still runs; returns its log (sanitizer reports cut), printed."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    logf.close()
    text = sanitizer.strip_report(open(logf.name).read())
    # The screenshot lines are many and alike: counted, not listed, so that what matters
    # stays near the checks.
    lines = text.splitlines()
    saved = [l for l in lines if "saved screenshot" in l]
    rest = [l for l in lines if "saved screenshot" not in l]
    print("---- %s (%d screenshot lines left out) ----\n%s" % (title, len(saved),
                                                            "\n".join(rest)))
    return text


def quit_viewer(logfile):
    """'q', then the exit status (LeakSanitizer's reports on the GL driver aside)."""
    # Not through xdo(): the viewer may close its window between the key's press and its
    # release, and xdotool then reports the release's BadWindow.
    subprocess.run(["xdotool", "key", "--window", wid, "q"], capture_output=True, timeout=20)
    try:
        rc = proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        print("note: the viewer still ran 15 s after 'q'")
        dump_stacks()
        return None
    full = open(logfile).read()
    if sanitizer.only_unloaded_driver_leaks(full):
        print("note: LeakSanitizer saw only leaks inside the unloaded GL driver (ignored)")
        rc = sanitizer.effective_returncode(rc, full)
    return rc


def start_viewer(args, label):
    """Starts galaxy with args, its log in shots/galaxy.log; waits for its first frame
    (--screenshot-after 1) and for its window (wid, focused). (log file, first frame's path
    or None); wid stays "" when no window showed."""
    global proc, wid
    log = open(os.path.join(shots, "galaxy.log"), "w")
    proc = subprocess.Popen([galaxy] + args + ["--screenshot-after", "1", "--screenshot-dir",
                                               shots],
                            stdout=log, stderr=subprocess.STDOUT,
                            env=sanitizer.keep_driver_loaded(os.environ, galaxy))
    first_path = wait_new_png([], timeout=60)
    check(first_path is not None, label + "--screenshot-after 1 saved the first frame")
    if first_path is None:
        return log, None
    found = xdo("search", "--sync", "--onlyvisible", "--name", "^galaxy").split()
    check(bool(found), label + "found the viewer window with xdotool")
    if found:
        wid = found[0]
        focus(wid)
    return log, first_path


def keys_and_mouse():
    """Leapfrog on the galaxy pair: every key and mouse action the help lists."""
    # A fixed exposure: pictures compare pixel for pixel (auto exposure glides after changes;
    # test_headless.py covers it). Paused: the first frame stays the initial state.
    log, first_path = start_viewer(["-n", "2048", "--size", "640x400", "--exposure", "-2",
                                    "--paused"] + source, "")
    try:
        if first_path is None or not wid:
            raise SystemExit(1)  # a bare SystemExit would exit 0: a pass
        first = imgcheck.read_png(first_path)
        if keep:
            shutil.copy(first_path, os.path.join(keep, "window_first_frame.png"))
        # The window's title names the program and the scene, no statistics.
        time.sleep(1.5)
        title = xdo("getwindowname", wid)
        check(title.startswith("galaxy: ") and "bodies" in title and "GFLOP" not in title and
              "fps" not in title, "window title names the program and the scene: %r" % title)

        # Regions: the HUD panel sits top left; bodies are framed around the centre.
        hud_box = imgcheck.region(first, 0.0, 0.0, 0.75, 0.3)
        centre = imgcheck.region(first, 0.15, 0.1, 0.85, 0.9)

        # Hide the guides (time line, names, scale bar), reset: the initial state without
        # text, as the first frame was under its guides.
        plain = shot("plain", ["g"])
        base = shot("base", ["r"])
        lit = imgcheck.lit_fraction(base, centre)
        check(lit > 0.01, "bodies visible: %.3f of the central region lit (> 0.01)" % lit)
        check(lit >= imgcheck.lit_fraction(base), "bodies concentrate in the centre")
        d = imgcheck.diff_fraction(plain, base, tol=0)
        check(d == 0.0, "'r' shows the first frame again (%.5f of pixels differ)" % d)
        d = imgcheck.diff_fraction(first, base)
        check(d > 0.002, "'g' hides the guides (%.4f of pixels differ)" % d)
        hud = shot("hud_on", ["i"])
        check(imgcheck.lit_fraction(hud, hud_box) > imgcheck.lit_fraction(base, hud_box) + 0.01,
              "'i' shows the statistics")
        img = shot("hud_off", ["i"])
        check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "'i' again hides them")

        # Draw modes: sprites -> plain (one colour) -> points -> sprites.
        img = shot("draw_plain", ["d"])
        dist = sum(abs(x - y) for x, y in zip(imgcheck.mean_rgb(img, centre),
                                              imgcheck.mean_rgb(base, centre)))
        check(dist > 10.0, "'d' draws in one colour (mean lit colour moved by %.1f)" % dist)
        img2 = shot("draw_points", ["d"])
        d = imgcheck.diff_fraction(img, img2, centre)
        check(d > 0.01, "'d' again draws points (%.4f of pixels differ)" % d)
        img = shot("draw_cycled", ["d"])
        d = imgcheck.diff_fraction(base, img, tol=0)
        check(d == 0.0, "three 'd' presses return to sprites (%.5f differ)" % d)

        prev, cbase = base, imgcheck.mean_rgb(base, centre)
        for name in ("color_galaxy", "color_component", "color_velocity", "color_speed"):
            img = shot(name, ["c"])
            m = imgcheck.mean_rgb(img, centre)
            dist = sum(abs(x - y) for x, y in zip(m, imgcheck.mean_rgb(prev, centre)))
            check(dist > 10.0, "'c' (%s) changes the colours: mean lit colour %s, moved by %.1f"
                  % (name, tuple(round(x) for x in m), dist))
            prev = img
        img = shot("color_cycled", ["c"])
        check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "five 'c' presses return to "
              "stellar colours")

        # A larger sprite spreads the same light over more pixels: count the faint ones too.
        big = shot("bigger", ["plus", "plus"])
        lb, l0 = (imgcheck.lit_fraction(x, centre, level=8) for x in (big, base))
        check(lb > 1.15 * l0, "'+' makes sprites larger: lit %.4f -> %.4f" % (l0, lb))
        small = shot("smaller", ["minus", "minus", "minus", "minus"])
        ls = imgcheck.lit_fraction(small, centre, level=8)
        check(ls < 0.9 * l0, "'-' makes sprites smaller: lit %.4f -> %.4f" % (l0, ls))
        img = shot("size_restored", ["plus", "plus"])
        check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "'+' undoes '-'")

        # Dark matter: hidden by default; 'm' adds a faint haze, then shows it alone.
        faint = shot("halo_faint", ["m"])
        lf = imgcheck.lit_fraction(faint)
        check(lf > imgcheck.lit_fraction(base), "'m' adds the faint halo: lit %.4f -> %.4f"
              % (imgcheck.lit_fraction(base), lf))
        alone = shot("halo_only", ["m"])
        d = imgcheck.diff_fraction(faint, alone, centre)
        check(d > 0.01, "'m' again shows the halo alone (%.4f of pixels differ)" % d)
        img = shot("halo_cycled", ["m"])
        check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "three 'm' presses hide it again")

        # Exposure half a stop up brightens; down again restores the picture exactly.
        img = shot("brighter", ["period", "period"])
        mb, m0 = sum(imgcheck.mean_rgb(img, centre)), sum(imgcheck.mean_rgb(base, centre))
        check(mb > m0 + 5.0, "'.' brightens: mean lit level %.1f -> %.1f" % (m0, mb))
        img = shot("exposure_restored", ["comma", "comma"])
        check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "',' undoes '.'")
        img = shot("glow_off", ["b"])
        check(imgcheck.diff_fraction(base, img, centre, tol=2) > 0.001, "'b' turns the glow off")
        img = shot("glow_on", ["b"])
        check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "'b' again turns it back on")

        # Camera presets move smoothly (1.5 s) to views that follow the galaxies; 'r' goes home.
        for key, name in (("1", "face-on"), ("2", "edge-on"), ("3", "overview")):
            xdo("key", "--window", wid, key)
            time.sleep(0.4)
            mid = shot("view_%s_moving" % name)
            time.sleep(2.0)
            img = shot("view_%s" % name)
            d = imgcheck.diff_fraction(base, img, centre)
            check(d > 0.005, "'%s' turns to the %s view (%.4f of pixels differ)" % (key, name, d))
            # Sprites keep the home view's scale; the presets sit well beyond the (filled)
            # home view, so their sprites are small and faint: count faint changes too.
            d = imgcheck.diff_fraction(mid, img, centre, tol=4)
            check(d > 0.002, "'%s' moves there smoothly (%.4f of pixels differ half way)"
                  % (key, d))
        img = shot("view_home", ["r"])
        check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "'r' brings the home view back")
        # 'p': presentation title and time on top of the picture, off again with 'p'.
        img = shot("present", ["p"])
        top = imgcheck.region(img, 0.0, 0.0, 1.0, 0.15)
        check(imgcheck.lit_fraction(img, top) > imgcheck.lit_fraction(base, top) + 0.005,
              "'p' shows the presentation title")
        img = shot("present_off", ["p"])
        check(imgcheck.diff_fraction(base, img, tol=0) == 0.0, "'p' again hides it")
        # 'v' records a movie of the window until 'v' again.
        movies = set(glob.glob(os.path.join(shots, "galaxy-*.mp4")))
        xdo("key", "--window", wid, "v")
        time.sleep(1.5)
        xdo("key", "--window", wid, "v")
        time.sleep(0.5)
        new = sorted(set(glob.glob(os.path.join(shots, "galaxy-*.mp4"))) - movies)
        recorded = len(new) == 1 and os.path.getsize(new[0]) > 0
        cannot = "no movie recording" in open(log.name).read()
        # Whether this build records movies: ctest says (viewer.cmake, from the gc_record it
        # built); run by hand, the viewer's own message decides. Without FFmpeg the movie
        # checks report SKIP (not ok); the test still passes or fails on all the others, as
        # ctest cannot skip part of a test.
        if has_record == "0" or (has_record is None and cannot and not new):
            check(cannot and not new, "'v' in a build without FFmpeg makes no movie and says "
                  "so (%s)" % (new or "no movie"))
            checks.skip("'v' twice records a movie", "this build has no FFmpeg")
            expected_errors.append("this build has no movie recording")
        else:
            check(recorded and not cannot, "'v' twice records a movie (%s)" % (new or "none"))
            if recorded and not shutil.which("ffprobe"):
                checks.skip("the movie is H.264 at the window's size", "ffprobe is not installed")
            elif recorded:
                probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0",
                                        "-show_entries", "stream=codec_name,width,height",
                                        "-of", "csv=p=0", new[0]], capture_output=True,
                                       text=True)
                check(probe.stdout.strip() == "h264,640,400", "the movie is H.264 at the "
                      "window's size (%r)" % probe.stdout.strip())
                # Stamped by the wall clock: as long as it was recorded (1.5 s between the
                # keys), however few frames the window drew (Mesa draws a few a second).
                probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries",
                                        "format=duration", "-of", "csv=p=0", new[0]],
                                       capture_output=True, text=True)
                try:
                    length = float(probe.stdout.strip())
                except ValueError:
                    length = 0.0
                check(1.0 <= length <= 3.0, "the movie plays at the pace the window showed: "
                      "%.2f s for 1.5 s of recording" % length)

        img = shot("single_steps", ["n"] * 8)
        d = imgcheck.diff_fraction(base, img, centre, tol=8)
        check(d > 0.0005, "'n' steps while paused (%.5f of pixels differ)" % d)
        img2 = shot("still_paused")
        check(imgcheck.diff_fraction(img, img2, tol=0) == 0.0, "paused: nothing moves by itself")

        # Run a while (space), pause, check motion; then 'r' must restore the base frame.
        xdo("key", "--window", wid, "space")
        time.sleep(2.5)
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
        # Wheel (X buttons 4/5) and right-drag zoom: nearer means more lit pixels. The home
        # view fills the frame, so zooming in moves the galaxies out of the central box:
        # count the whole frame.
        xdo("mousemove", "--window", wid, 320, 200)
        for _ in range(4):
            xdo("click", 4)
        near = shot("wheel_in")
        xdo("key", "--window", wid, "r")
        for _ in range(4):
            xdo("click", 5)
        far = shot("wheel_out")
        ln, lf, l0 = (imgcheck.lit_fraction(x) for x in (near, far, base))
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
        check(imgcheck.lit_fraction(img) > l0, "right-drag up zooms in")
        xdo("key", "--window", wid, "r")
        xdo("mousemove", "--window", wid, 320, 200)
        xdo("mousedown", 2)
        for i in range(1, 6):
            xdo("mousemove", "--window", wid, 320 + 20 * i, 200)
            time.sleep(0.05)
        xdo("mouseup", 2)
        img = shot("pan")
        # The bodies' left edge follows the drag (100 px at the target's depth); a balance of
        # lit halves would not do, the galaxies fill the frame and leave it on the right.
        b0, b1 = imgcheck.lit_box(base), imgcheck.lit_box(img)
        shift = b1[0] - b0[0] if b0 and b1 else 0
        check(shift > 50, "middle-drag right pans the bodies right (left edge +%d px)" % shift)

        # dt keys, logged by the viewer.
        xdo("key", "--window", wid, "r", "bracketleft", "bracketright")
        help_img = shot("help", ["h"])
        d = imgcheck.diff_fraction(base, help_img, centre)
        check(d > 0.005, "'h' shows the help overlay (%.4f of pixels differ)" % d)
        hud = shot("hud", ["h", "i"])
        check(imgcheck.lit_fraction(hud, hud_box) > imgcheck.lit_fraction(base, hud_box) + 0.01,
              "'i' shows the statistics again")

        # 'f': full screen fills the Xvfb screen (1280x800), a second 'f' restores the window.
        # The resize reaches the window asynchronously: 's' is sent once X has it, so the viewer
        # meets the new size before the key.
        xdo("key", "--window", wid, "i", "f")
        wait_geometry("1280x800")
        full = shot("fullscreen")
        xdo("key", "--window", wid, "f")
        wait_geometry("640x400")
        back = shot("windowed")
        check(full is not None and (full.w, full.h) == (1280, 800),
              "'f' goes full screen (%s)" % (full and "%dx%d" % (full.w, full.h)))
        check(back is not None and (back.w, back.h) == (640, 400),
              "second 'f' restores 640x400 (%s)" % (back and "%dx%d" % (back.w, back.h)))

        # A window of another shape: 'r' gives the home view fitted to it, both galaxies
        # inside the frame (the landscape fit, kept, cut them at the sides).
        xdo("windowsize", wid, 400, 640)
        wait_geometry("400x640")
        tall = shot("portrait_home", ["r"])
        box = imgcheck.lit_box(tall) if tall is not None else None
        check(box is not None and box[0] > 0.02 * tall.w and box[2] < 0.98 * tall.w and
              box[2] - box[0] > 0.3 * tall.w,
              "a portrait window's home view frames the galaxies (lit columns %s of %s)"
              % (box and "%d-%d" % (box[0], box[2]), tall and tall.w))
        xdo("windowsize", wid, 640, 400)
        wait_geometry("640x400")

        rc = quit_viewer(log.name)
        check(rc == 0, "'q' exits with status 0 (got %s)" % rc)
    finally:
        text = finish_viewer(log, "viewer log")
    check("dt = 0.005" in text and "dt = 0.01" in text, "'[' halves and ']' doubles dt")
    # Each key press, once: a lost or doubled key shows here, whatever the pictures say.
    got = logged(text, "colours: ")
    check(got == ["galaxy", "component", "velocity direction", "speed", "stellar"],
          "the viewer took each 'c' and skipped the time-step levels (%s)" % ", ".join(got))
    got = logged(text, "drawing ")
    check(got == ["plain sprites", "points", "sprites"], "the viewer took each 'd' (%s)"
          % ", ".join(got))
    errors = unexpected_errors(text)
    check(not errors, "the viewer logged no error%s%s" % (
          " but the no-FFmpeg one 'v' asked for" if expected_errors else "",
          "" if not errors else " (%s)" % " | ".join(errors[:3])))


def hermite_levels():
    """Block time steps: the 'c' key reaches the time-step level colours (leapfrog skips
    them, above). In a Plummer sphere the dense core takes shorter steps than the outskirts,
    so the core is warm (yellow) and the outskirts blue, from the very first frame."""
    hlog, first_path = start_viewer(["--model", "plummer", "-n", "4096", "--paused", "--size",
                                     "640x400", "--exposure", "1"], "hermite4: ")
    path = hlog.name
    try:
        if first_path is None or not wid:
            return
        base = shot("hermite_stellar", ["g"])  # without the time line and the scale bar
        speed = shot("hermite_speed", ["c"] * 4)
        level = shot("hermite_level", ["c"])
        again = shot("hermite_cycled", ["c"])
        # Each 'c' taken once, in order: a lost key would put the pictures below off by one.
        got = logged(open(path).read(), "colours: ")
        check(got == ["galaxy", "component", "velocity direction", "speed", "time-step level",
                      "stellar"], "hermite4: the viewer took each 'c' (%s)" % ", ".join(got))
        if None in (base, speed, level, again):
            return
        whole = imgcheck.region(level, 0.15, 0.1, 0.85, 0.9)
        spread = imgcheck.blue_share_spread(level, whole)
        check(spread > 0.05, "time-step level: bodies take their own level's colour (spread "
              "of the blue share %.3f; one colour for all gives ~0)" % spread)

        def blue_share(box):
            m = imgcheck.mean_rgb(level, box)
            return m[2] / max(sum(m), 1e-9)
        core = blue_share(imgcheck.region(level, 0.45, 0.38, 0.55, 0.58))
        outskirts = 0.5 * (blue_share(imgcheck.region(level, 0.25, 0.15, 0.4, 0.85)) +
                           blue_share(imgcheck.region(level, 0.6, 0.15, 0.75, 0.85)))
        check(core < 0.75 * outskirts, "time-step level: the core (short steps) is warmer "
              "than the outskirts (blue share %.3f against %.3f)" % (core, outskirts))
        d = imgcheck.diff_fraction(speed, level, whole, tol=8)
        check(d > 0.01, "time-step level is not the speed picture (%.4f of pixels differ)" % d)
        d = imgcheck.diff_fraction(base, again, tol=0)
        check(d == 0.0, "hermite4: six 'c' presses return to stellar colours (%.5f differ)"
              % d)
        rc = quit_viewer(path)
        check(rc == 0, "hermite4: 'q' exits with status 0 (got %s)" % rc)
    finally:
        htext = finish_viewer(hlog, "hermite4 viewer log")
    check("error" not in htext.lower(), "hermite4: the viewer logged no error")


def last_text_row(img):
    """The lowest lit row of the statistics panel's corner (top left; the bodies of the
    model below lie outside it), or -1."""
    x0, y0, x1, y1 = imgcheck.region(img, 0.0, 0.0, 0.35, 0.32)
    for y in range(y1 - 1, y0 - 1, -1):
        row = img.rows[y]
        if any(max(row[3 * x], row[3 * x + 1], row[3 * x + 2]) > imgcheck.LIT
               for x in range(x0, x1)):
            return y
    return -1


def hud_groups():
    """Regularised close groups: the statistics panel has a line for them (how many, the
    hardest binary) that a run without them lacks. The Pythagorean problem of binaries
    starts with its three binaries as groups."""
    global proc, wid
    rows = {}
    for mode in ("auto", "off"):
        for old in pngs():
            os.remove(old)
        proc, wid = None, ""
        log, first_path = start_viewer(["--model", "pythagorean-binaries", "--regularize", mode,
                                         "--paused", "--size", "640x400", "--backend", "cpu"],
                                        "groups %s: " % mode)
        try:
            if first_path is None or not wid:
                return
            panel = shot("groups_%s" % mode, ["i"])  # the statistics, off at the start
            if panel is None:
                return
            rows[mode] = last_text_row(panel)
            quit_viewer(log.name)
        finally:
            text = finish_viewer(log, "groups %s viewer log" % mode)
        check("error" not in text.lower(), "groups %s: the viewer logged no error" % mode)
    # One more line of text (9-10 rows at this size) with the groups than without.
    check(rows["off"] > 0 and rows["auto"] >= rows["off"] + 6,
          "the statistics show a line for the regularised groups (panel text ends at row %d "
          "with them, %d without)" % (rows["auto"], rows["off"]))


def stop_viewer():
    """Ends the viewer with SIGTERM, as a stop request (no 'q': seen under load, the next
    viewer, whose window X gave the same id, closed by itself just after its first frame)."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            dump_stacks()


def now_marker_x(img):
    """Where the time line's marker of the present (the only pure white on the strip at the
    bottom) is, mean x in pixels; None when it is not drawn."""
    xs = []
    for y in range(int(0.93 * img.h), img.h):
        row = img.rows[y]
        xs += [x for x in range(img.w) if min(row[3 * x], row[3 * x + 1], row[3 * x + 2]) >= 250]
    return sum(xs) / len(xs) if xs else None


def bar_row(img):
    """A row of the strip at the bottom lit across most of the width (the time line's bar)."""
    for y in range(int(0.85 * img.h), img.h):
        row = img.rows[y]
        lit = sum(1 for x in range(img.w)
                  if max(row[3 * x], row[3 * x + 1], row[3 * x + 2]) > imgcheck.LIT)
        if lit > 0.85 * img.w:
            return y
    return None


def warm_change(before, after, box):
    """Pixels in box that changed to the warning colour (orange-red text, anti-aliased: red
    well above green, green above blue) from `before` to `after`."""
    x0, y0, x1, y1 = box
    n = 0
    for y in range(y0, y1):
        ra, rb = before.rows[y], after.rows[y]
        for x in range(x0, x1):
            r, g, b = rb[3 * x], rb[3 * x + 1], rb[3 * x + 2]
            changed = max(abs(ra[3 * x + k] - rb[3 * x + k]) for k in range(3)) > 24
            n += changed and r > 100 and r > g + 40 and g > b
    return n


# Going back starts the run over (2,900 steps of 512 bodies to the passage): a second or
# two on a quiet machine, longer on a shared one.
SEEK_S = 120.0
WALL_LABELS_S = 8.5  # the names are gone this long after the first frame (annotations.c)


def first_frame():
    """What an audience sees first: no statistics, the galaxies' names, a scale bar, the time
    line; the speed keys leave dt alone, a dt beyond the accurate range is warned about."""
    global proc, wid
    for old in pngs():
        os.remove(old)
    proc, wid = None, ""
    log, first_path = start_viewer(["-n", "512", "--size", "640x400", "--exposure", "-2",
                                    "--paused", "--backend", "cpu"], "first frame: ")
    t0 = time.time()
    try:
        if first_path is None or not wid:
            raise SystemExit(1)
        first = imgcheck.read_png(first_path)
        plain = shot("tl_plain", ["g"])  # the guides hidden
        stats = shot("tl_stats", ["i"])
        again = shot("tl_plain_again", ["i"])
        if None in (plain, stats, again):
            raise SystemExit(1)
        hud_box = imgcheck.region(first, 0.0, 0.0, 0.75, 0.3)
        d_stats = imgcheck.diff_fraction(plain, stats, hud_box)
        d_first = imgcheck.diff_fraction(plain, first, hud_box)
        check(d_stats > 0.02 and d_first < 0.3 * d_stats, "statistics hidden at the start: the "
              "panel changes %.4f of its corner, the first frame %.4f" % (d_stats, d_first))
        check(imgcheck.diff_fraction(plain, again, tol=0) == 0.0, "'i' hides them again")
        # The time line: a bar across the bottom, not there without the guides.
        check(bar_row(first) is not None and bar_row(plain) is None,
              "the time line's bar is drawn across the bottom (row %s)" % bar_row(first))
        check(now_marker_x(first) is not None and now_marker_x(first) < 0.1 * first.w,
              "the marker of the present sits at the bar's start (x %s)" % now_marker_x(first))
        # The scale bar: a white line above the time line's right end, with its length.
        box = imgcheck.region(first, 0.6, 0.75, 1.0, 0.915)
        d = imgcheck.diff_fraction(plain, first, box)
        check(d > 0.005, "a scale bar above the time line's right end (%.4f of its box)" % d)
        # The names: text beside the galaxies, above the strip, outside the scale bar's box.
        d = max(imgcheck.diff_fraction(plain, first, imgcheck.region(first, 0.0, 0.0, 1.0, 0.7)),
                imgcheck.diff_fraction(plain, first, imgcheck.region(first, 0.0, 0.7, 0.6, 0.85)))
        check(d > 0.001, "the galaxies' names are drawn (%.4f of the picture above the strip)"
              % d)
        text = open(log.name).read()
        check("automatic speed" not in text, "nothing said yet")
        # Speed keys: faster, faster, slower, automatic: dt stays. The statistics' rows of the
        # time step (t, dt, step) and the energy (paused: nothing else moves them) are the
        # same pixels after them; ] changes the first. Rows 4 and 5 of the panel, 6 pixels
        # and a line of 9 pixels at this size (overlay.c).
        stats = shot("tl_stats_before", ["i"])
        for k in ("Up", "Up", "Down", "a"):
            xdo("key", "--window", wid, k)
            time.sleep(0.2)
        sped = shot("tl_stats_sped")
        doubled = shot("tl_stats_dt", ["bracketright"])
        shot("tl_stats_off", ["bracketleft", "i", "g"])
        if None in (stats, sped, doubled):
            raise SystemExit(1)
        sc = max(1, stats.h // 400)
        rows = (0, 6 * sc + 4 * 9 * sc, int(0.75 * stats.w), 6 * sc + 6 * 9 * sc)
        check(imgcheck.lit_fraction(stats, rows) > 0.02, "the step and energy rows are there "
              "(%.3f lit)" % imgcheck.lit_fraction(stats, rows))
        d = imgcheck.diff_fraction(stats, sped, rows, tol=0)
        check(d == 0.0, "speed keys leave the step and energy rows as they were (%.4f differ)"
              % d)
        d = imgcheck.diff_fraction(stats, doubled, rows, tol=0)
        check(d > 0.002, "] changes the step's row (%.4f differ)" % d)
        time.sleep(max(0.0, WALL_LABELS_S - (time.time() - t0)) + 4.5)  # names and notes gone
        calm = shot("tl_speed_keys")
        xdo("key", "--window", wid, "bracketright")
        xdo("key", "--window", wid, "bracketright")
        warned = shot("tl_dt_warning")
        xdo("key", "--window", wid, "bracketleft")
        xdo("key", "--window", wid, "bracketleft")
        calm2 = shot("tl_dt_back")
        if None in (calm, warned, calm2):
            raise SystemExit(1)
        msg = imgcheck.region(calm, 0.0, 0.6, 1.0, 0.92)
        n1, n2 = warm_change(calm, warned, msg), warm_change(calm, calm2, msg)
        check(n1 > 100 and n2 == 0, "dt beyond the accurate range is warned about on screen "
              "(%d pixels turned to the warning's colour with dt = 0.04, %d back at 0.01)"
              % (n1, n2))
        rc = quit_viewer(log.name)
        check(rc == 0, "first frame: 'q' exits with status 0 (got %s)" % rc)
    finally:
        text = finish_viewer(log, "first frame viewer log")
    speed = logged(text, "galaxy: ")
    check([l for l in speed if l.startswith("speed ")] and "automatic speed" in speed,
          "the speed keys were taken: %s" % [l for l in speed if "speed" in l])
    dts = logged(text, "dt = ")
    check(dts[:2] == ["0.02 (0.36 Myr)", "0.01 (0.18 Myr)"] and len(dts) == 6,
          "dt changed only with [ and ] (%s)" % dts)


def time_line():
    """Start at the first passage (--start-at), jump back to the start and to the passage
    again, run backwards: the clock moves as the keys say, the pictures are those of the
    times they name."""
    global proc, wid
    common = ["-n", "512", "--size", "640x400", "--exposure", "-2", "--paused", "--backend",
              "cpu"]
    log, first_path = start_viewer(common, "t = 0: ")
    try:
        time.sleep(0.5)
        zero = shot("tl_zero", ["g"]) if first_path and wid else None
        if zero is not None and bar_row(zero) is not None:
            # Seen under load: the first key after a second window opened did not arrive.
            print("note: 'g' did not hide the guides; sent again")
            zero = shot("tl_zero", ["g"])
        check(zero is not None and bar_row(zero) is None, "t = 0: the picture without guides")
        stop_viewer()
    finally:
        finish_viewer(log, "t = 0 viewer log")
    for old in pngs():
        os.remove(old)
    proc, wid = None, ""
    log, first_path = start_viewer(common + ["--start-at", "first-passage"], "passage: ")
    try:
        if first_path is None or not wid or zero is None:
            raise SystemExit(1)
        text = open(log.name).read()
        m = re.search(r"start at first passage: t = ([0-9.]+) Myr, reached without drawing in "
                      r"([0-9.]+) s", text)
        check(m is not None and 200.0 < float(m.group(1)) < 350.0, "--start-at first-passage "
              "lands at the passage and says how long it took (%s)" % (m and m.group(0)))
        first = imgcheck.read_png(first_path)
        x_pass = now_marker_x(first)
        check(x_pass is not None and x_pass > 0.3 * first.w, "the present's marker stands "
              "well along the bar at the passage (x %s)" % x_pass)
        at_pass = shot("tl_at_passage", ["g"])
        home = shot("tl_home", ["Home"], SEEK_S)
        d = imgcheck.diff_fraction(zero, home, tol=0) if home else 1.0
        check(d == 0.0, "Home goes back to t = 0: the picture of a run at its start (%.5f of "
              "pixels differ)" % d)
        marked = shot("tl_home_guides", ["g"])
        x_home = now_marker_x(marked) if marked else None
        check(x_home is not None and x_pass is not None and x_home < x_pass - 0.2 * first.w,
              "Home moves the clock back: the marker from x %s to %s" % (x_pass, x_home))
        shot("tl_end", ["g", "End"], SEEK_S)
        back = shot("tl_page_up", ["Prior"], SEEK_S)
        d = imgcheck.diff_fraction(at_pass, back, tol=0) if back else 1.0
        check(d == 0.0, "Page Up from the end goes back to the passage: its picture again "
              "(%.5f of pixels differ)" % d)
        same = shot("tl_page_down", ["Next"])
        check(same is not None and imgcheck.diff_fraction(back, same, tol=0) == 0.0,
              "Page Down with no later event found stays (and says so)")
        # Backwards a while, with the guides: the marker moves left.
        marked = shot("tl_before_j", ["g"])
        x0 = now_marker_x(marked) if marked else None
        xdo("key", "--window", wid, "j")
        time.sleep(2.0)
        after = shot("tl_after_j", ["space"])
        x1 = now_marker_x(after) if after else None
        check(x0 is not None and x1 is not None and x1 < x0 - 1,
              "'j' runs backwards: the marker moves from x %s to %s" % (x0, x1))
        # A click on the bar's first quarter goes there.
        y = bar_row(after) if after else None
        if y is not None:
            xdo("mousemove", "--window", wid, int(0.25 * after.w), y)
            xdo("click", 1)
            time.sleep(0.3)
            clicked = shot("tl_clicked", (), SEEK_S)
            x2 = now_marker_x(clicked) if clicked else None
            check(x2 is not None and abs(x2 - 0.25 * after.w) < 0.03 * after.w,
                  "a click on the time line goes where it was clicked (marker at x %s)" % x2)
        stop_viewer()
    finally:
        text = finish_viewer(log, "passage viewer log")
    check("no later event found yet" in text, "Page Down says there is no later event yet")
    check("running backwards" in text, "'j' says it runs backwards")
    errors = unexpected_errors(text)
    check(not errors, "the viewer logged no error (%s)" % " | ".join(errors[:3]))
def wait_logged(path, text, timeout=60.0):
    """Waits until the viewer's log holds text; True if it did."""
    t = time.time() + timeout
    while time.time() < t:
        if text in open(path).read():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.1)
    return False


def encounter_panel():
    """The encounter panel: 'e' opens it over the picture, the arrows reach the mass ratio
    and change it, Enter restarts with the new encounter (the log says so), and the picture
    is another one; a click on a preset and Enter start that preset."""
    plog, first_path = start_viewer(["-n", "2048", "--paused", "--size", "640x400",
                                     "--exposure", "-2"], "panel: ")
    path = plog.name
    try:
        if first_path is None or not wid:
            return
        base = shot("panel_base", ["i"])
        opened = shot("panel_open", ["e"])
        if base is None or opened is None:
            return
        right = imgcheck.region(base, 0.5, 0.0, 1.0, 0.75)
        check(imgcheck.lit_fraction(opened, right) > imgcheck.lit_fraction(base, right) + 0.02,
              "'e' opens the panel on the right (lit %.3f -> %.3f)"
              % (imgcheck.lit_fraction(base, right), imgcheck.lit_fraction(opened, right)))
        # Down past the eight presets to the mass ratio (mw-m31's 1:2.1), one step lighter.
        for _ in range(8):
            xdo("key", "--window", wid, "Down")
        changed = shot("panel_changed", ["Left"])
        d = imgcheck.diff_fraction(opened, changed, right)
        check(d > 0.001, "the arrows move the selection and change the value (%.4f of the "
              "panel's pixels differ)" % d)
        xdo("key", "--window", wid, "Return")
        check(wait_logged(path, "restart: mw-m31 (changed)"), "Enter restarts with the new "
              "encounter (log: 'restart: mw-m31 (changed)')")
        check("encounter mw-m31 (changed): mass ratio 1:2.5," in open(path).read(),
              "the new encounter has the mass ratio chosen (1:2.5)")
        after = shot("panel_restarted", ["e"])
        if after is not None:
            centre = imgcheck.region(base, 0.1, 0.1, 0.9, 0.9)
            d = imgcheck.diff_fraction(base, after, centre)
            check(d > 0.02, "the picture is of the new encounter (%.4f of pixels differ)" % d)
            check(imgcheck.lit_fraction(after, centre) > 0.005, "the new galaxies are drawn "
                  "(lit %.4f)" % imgcheck.lit_fraction(after, centre))
        # The mouse: a click on the second preset (prograde), then Enter. Rows are a line
        # (9 text pixels at this size) apart below the heading, from 2 pads (12 pixels) down.
        xdo("key", "--window", wid, "e")
        time.sleep(0.3)
        xdo("mousemove", "--window", wid, 620, 12 + int(2.5 * 9))
        xdo("click", 1)
        time.sleep(0.3)
        xdo("key", "--window", wid, "Return")
        check(wait_logged(path, "restart: prograde,"), "a click on 'prograde' and Enter "
              "restart with that preset")
        # The mass ratio stops at 1:1: prograde's own, so twenty steps up change nothing and
        # Enter restarts with prograde as it is (not "changed", not refused).
        for _ in range(7):
            xdo("key", "--window", wid, "Down")
        for _ in range(20):
            xdo("key", "--window", wid, "Right")
        xdo("key", "--window", wid, "Return")
        t = time.time() + 60
        while time.time() < t and open(path).read().count("restart: prograde,") < 2:
            time.sleep(0.1)
        text = open(path).read()
        check(text.count("restart: prograde,") == 2 and "prograde (changed)" not in text,
              "the mass ratio stops at 1:1 (a second unchanged prograde restart)")
        # 'w' writes the scene on screen; --scene starts the same encounter from it.
        xdo("key", "--window", wid, "w")
        check(wait_logged(path, "wrote scene "), "'w' writes the scene")
        scenes = glob.glob(os.path.join(shots, "galaxy-*.ini"))
        body = open(scenes[0]).read() if len(scenes) == 1 else ""
        check("scenario = prograde" in body and "bodies = 2048" in body and "camera = " in body,
              "the scene holds the preset, N and the camera (%r)" % body[-200:])
        if scenes:
            r = subprocess.run([galaxy, "--scene", scenes[0], "--steps", "1", "--backend", "cpu"],
                               capture_output=True, text=True, timeout=120)
            check(r.returncode == 0 and "encounter prograde: mass ratio 1:1," in r.stderr,
                  "--scene starts from it (exit %d)" % r.returncode)
        rc = quit_viewer(path)
        check(rc == 0, "panel: 'q' exits with status 0 (got %s)" % rc)
    finally:
        text = finish_viewer(plog, "panel viewer log")
    check(not unexpected_errors(text), "panel: the viewer logged no error")


if part == "keys":
    keys_and_mouse()
elif part == "timeline":
    time_line()
    first_frame()  # last: it alone ends its viewer with 'q'

elif part == "panel":
    encounter_panel()
else:
    hermite_levels()
    hud_groups()
sys.exit(checks.summary())
