# --headless --record: a short H.264 movie through EGL (Mesa in CI), its format and its pixels.
# SPDX-License-Identifier: MIT
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imgcheck  # noqa: E402
import moviecheck  # noqa: E402
import sanitizer  # noqa: E402

galaxy = sys.argv[1]
tmp = os.environ.get("GC_TEST_TMP", "/tmp")
os.makedirs(tmp, exist_ok=True)
env = dict(os.environ)
for k in ("DISPLAY", "WAYLAND_DISPLAY"):
    env.pop(k, None)
env = sanitizer.keep_driver_loaded(env, galaxy)


def run(args):
    cmd = [galaxy, "--headless", "-n", "2048", "--size", "320x200"] + args
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
    sys.stdout.write(p.stderr)
    p.raw_rc = p.returncode
    p.returncode = sanitizer.effective_returncode(p.returncode, p.stderr)
    return p


def probe(path):
    """codec, width, height, pixel format, frames decoded, duration in seconds."""
    p = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                        "-show_entries",
                        "stream=codec_name,width,height,pix_fmt,nb_read_frames,duration",
                        "-of", "default=noprint_wrappers=1", path],
                       capture_output=True, text=True, timeout=60)
    return dict(line.split("=", 1) for line in p.stdout.split() if "=" in line)


# The scene the frames are compared on: a fixed, bright exposure and a long step, so the two
# galaxies (one blue, one orange) light about a tenth of the picture and move from frame to
# frame; at the default exposure 1% of it is lit and too little would be compared.
SCENE = ["--fps", "30", "--exposure", "4", "--dt", "0.1"]
FRAMES = 45
movie = os.path.join(tmp, "movie_test.mp4")
last_shot = os.path.join(tmp, "movie_test_frame%d.png" % (FRAMES - 1))
for k in (0, FRAMES // 2, FRAMES - 1):
    f = os.path.join(tmp, "movie_test_frame%d.png" % k)
    if os.path.exists(f):
        os.remove(f)
if os.path.exists(movie):
    os.remove(movie)
p = run(["--frames", str(FRAMES)] + SCENE + ["--record", movie, "--screenshot", last_shot])
if p.raw_rc != 0 and "no movie recording" in p.stderr:
    print("SKIP: this build has no movie recording (FFmpeg's libraries were not found)")
    sys.exit(77)
if p.raw_rc != 0 and "no EGL display" in p.stderr:
    print("SKIP: no EGL display on this machine")
    sys.exit(77)
if not shutil.which("ffprobe") or not shutil.which("ffmpeg"):
    print("SKIP: ffprobe or ffmpeg is not installed")
    sys.exit(77)
check(p.returncode == 0, "--record exits 0 (got %d)" % p.returncode)
check(os.path.exists(movie) and os.path.getsize(movie) > 0, "wrote %s" % movie)
info = probe(movie)
print("ffprobe: %s" % info)
check(info.get("codec_name") == "h264", "codec is H.264 (%s)" % info.get("codec_name"))
check((info.get("width"), info.get("height")) == ("320", "200"),
      "size is 320x200 (%sx%s)" % (info.get("width"), info.get("height")))
check(info.get("pix_fmt") == "yuv420p", "4:2:0 pixels, as players expect (%s)"
      % info.get("pix_fmt"))
# Frame-exact: every drawn frame is one movie frame at 1/fps.
check(info.get("nb_read_frames") == "45", "45 frames decoded (%s)" % info.get("nb_read_frames"))
try:
    duration = float(info.get("duration", "nan"))
except ValueError:
    duration = float("nan")
check(abs(duration - 1.5) < 0.02, "lasts 45 / 30 = 1.5 s (%s s)" % info.get("duration"))
check("recorded %s: 45 frames" % movie in p.stderr, "the log gives the frame count")

# The pixels: the first, middle and last frame decoded from the movie against a screenshot of
# the same frame. Headless runs are frame-exact, so frame k of the movie is the last frame of
# the same run stopped after k + 1 frames. moviecheck says what is compared and its bounds.
for k in (0, FRAMES // 2, FRAMES - 1):
    shot = last_shot
    if k != FRAMES - 1:
        shot = os.path.join(tmp, "movie_test_frame%d.png" % k)
        q = run(["--frames", str(k + 1)] + SCENE + ["--screenshot", shot])
        if not check(q.returncode == 0 and os.path.exists(shot),
                     "screenshot of frame %d (exit %d)" % (k, q.returncode)):
            continue
    ok, line = moviecheck.check_frame(movie, k, shot)
    check(ok, line)

# Frame-exact: the middle screenshot is closer to the movie's frame of the same number than
# to either neighbour (the scene moves, so neighbours differ by about twice as much).
k = FRAMES // 2
middle_shot = os.path.join(tmp, "movie_test_frame%d.png" % k)
diff = {}
for j in (k - 1, k, k + 1) if os.path.exists(middle_shot) else ():
    try:
        diff[j] = sum(moviecheck.measure(moviecheck.decode_frame(movie, j),
                                         imgcheck.read_png(middle_shot))["lit_diff"])
    except moviecheck.DecodeError as e:
        check(False, str(e))
if len(diff) == 3:
    check(diff[k] < min(diff[k - 1], diff[k + 1]),
          "screenshot of frame %d is closest to movie frame %d (lit blocks differ by %s)"
          % (k, k, ", ".join("%.1f from frame %d" % (d, j) for j, d in sorted(diff.items()))))

# The comparison itself can fail: the last screenshot made wrong the ways movies went wrong
# (uniform magenta, magenta and green stripes, upside down; red and blue swapped, as swapped
# U and V look) is refused. Made from the screenshot, not from the movie, so that this holds
# whatever the recorder does.
shot = imgcheck.read_png(last_shot)
magenta = bytes((227, 4, 250)) * shot.w
green = bytes((0, 135, 0)) * shot.w
wrong = {
    "uniform magenta": [magenta] * shot.h,
    "stripes": [r if y % 16 < 8 else (magenta if y % 32 < 16 else green)
                for y, r in enumerate(shot.rows)],
    "upside down": shot.rows[::-1],
    "red and blue swapped": [bytes(b for px in zip(r[2::3], r[1::3], r[0::3]) for b in px)
                             for r in shot.rows],
}
for what, rows in wrong.items():
    bad, _ = moviecheck.compare(imgcheck.Image(shot.w, shot.h, rows), shot)
    check(bool(bad), "a frame made %s is refused (%s)" % (what, "; ".join(bad) or "passed"))

# An odd size is rounded down to even (4:2:0), with the camera tour on.
p = run(["--frames", "10", "--size", "321x201", "--tour", "--record", movie])
info = probe(movie)
check(p.returncode == 0 and (info.get("width"), info.get("height")) == ("320", "200"),
      "odd size 321x201 records as 320x200 (%sx%s)" % (info.get("width"), info.get("height")))
check(info.get("nb_read_frames") == "10", "10 frames decoded (%s)" % info.get("nb_read_frames"))

# Failures: one message and a non-zero exit, no crash, no movie left half written.
bad = os.path.join(tmp, "no-such-folder", "x.mp4")
p = run(["--frames", "3", "--record", bad])
check(p.raw_rc == 1 and "cannot write" in p.stderr and bad in p.stderr,
      "unwritable --record path: exit 1 naming it (exit %d)" % p.raw_rc)
p = run(["--frames", "3", "--record", os.path.join(tmp, "movie.txt")])
check(p.raw_rc == 2 and "no container" in p.stderr and "[" not in p.stderr,
      "--record with a file name no container fits: one message, exit 2 (exit %d)"
      % p.raw_rc)
p = subprocess.run([galaxy, "--steps", "2", "-n", "64", "--record", movie], env=env,
                   capture_output=True, text=True, timeout=60)
check(p.returncode != 0 and "--record" in p.stderr,
      "--record without a window or --headless is refused (exit %d)" % p.returncode)
sys.exit(1 if checks.failures else 0)
