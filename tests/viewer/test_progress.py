# Long runs without a window show how far they are on a terminal: a line refreshed in place
# on stderr (frames or steps done of the total, simulated time, rate, time left), cleared
# before the summary; nothing of it when stderr is a pipe or with --quiet.
# SPDX-License-Identifier: MIT
import os
import pty
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sanitizer  # noqa: E402

galaxy = sys.argv[1]
env = dict(os.environ)
for k in ("DISPLAY", "WAYLAND_DISPLAY"):
    env.pop(k, None)
env = sanitizer.keep_driver_loaded(env, galaxy)
# Runs of a few seconds on one CPU thread: longer than the second before the first line.
# All pairs, which cost about the same with and without AddressSanitizer (less than twice:
# most of the time is in the vector loops) and do not fall to the tree's cost.
n = "12288"
headless = ["--headless", "--frames", "60", "--size", "160x100", "-n", n, "--backend",
            "cpu", "--threads", "1", "--force", "allpairs"]
steps = ["--steps", "100", "-n", n, "--backend", "cpu", "--threads", "1", "--force",
         "allpairs"]


def on_terminal(args):
    """Runs galaxy with stderr on a pseudo-terminal: its exit status, what it wrote there and
    how many seconds it ran."""
    t0 = time.monotonic()
    master, slave = pty.openpty()
    p = subprocess.Popen([galaxy] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=slave, env=env, close_fds=True)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the program closed its end
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    rc = p.wait(timeout=300)
    return rc, out.decode(errors="replace"), time.monotonic() - t0


def piped(args):
    p = subprocess.run([galaxy] + args, env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stderr


LIVE = {"frame": r"\rframe (\d+)/60 \((\d+)%\), t = [0-9.]+ Myr, [0-9.e+]+ frames/s, "
                 r"[0-9.]+ (s|min|h) left\x1b\[K",
        "step": r"\rstep (\d+)/100 \((\d+)%\), t = [0-9.]+ Myr, [0-9.e+]+ steps/s, "
                r"[0-9.]+ (s|min|h) left\x1b\[K"}

rc, out, seconds = on_terminal(headless)
if rc != 0 and "no EGL display" in out:
    print("SKIP: no EGL display on this machine")
    sys.exit(77)
for what, args in (("frame", headless), ("step", steps)):
    if what == "step":
        rc, out, seconds = on_terminal(args)
    rc = sanitizer.effective_returncode(rc, out)
    lines = re.findall(LIVE[what], out)
    done = [int(m[0]) for m in lines]
    check(rc == 0 and len(lines) >= 2, "on a terminal, %ss done, time and rate are shown in "
          "place (%d lines, exit %d): %r" % (what, len(lines), rc, out[-400:]))
    check(done == sorted(done) and all(0 < d <= (60 if what == "frame" else 100) for d in done),
          "the %s count grows and stays within the total: %s" % (what, done))
    # At most 4 refreshes a second, however long the run took (a sanitizer build is slower).
    check(len(lines) <= 4 * seconds + 2, "refreshed at most a few times a second (%d lines in "
          "%.1f s)" % (len(lines), seconds))
    summary = "galaxy: headless:" if what == "frame" else "       100 "
    check(re.search(r"\r\x1b\[K(\r\n)?" + re.escape(summary), out) is not None or
          (what == "step" and "\r\x1b[K" in out),
          "the %s line is cleared before what follows" % what)
    rc, err = piped(args)
    check(rc == 0 and "\r" not in err and not re.search(r"%s \d+/" % what, err),
          "with stderr in a pipe, no %s progress (exit %d): %r" % (what, rc, err[-300:]))
rc, out, seconds = on_terminal(headless + ["--quiet"])
check(rc == 0 and "frame " not in out and "\r" not in out.replace("\r\n", "\n"),
      "--quiet on a terminal shows no progress: %r" % out[-300:])
sys.exit(1 if checks.failures else 0)
