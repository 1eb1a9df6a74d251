# How long the encounter panel's restart takes: key to the new run's first frame, at N bodies.
# SPDX-License-Identifier: MIT
#
# Usage (on the GPU machine, from the repository root, after a build):
#     python3 tests/viewer/xvfb.py 1280x800x24 python3 tests/gpu/restart_time.py build/galaxy [N]
# N defaults to 1048576. Opens the window, presses e, picks the next preset each time and
# Enter, five times, and prints the viewer's own timings ("restart: ... built in X s,
# uploaded in Y s; running Z s after the key" and "first frame ... W s after the key") with
# their medians. Also the headless build of the same N, for comparison. Exit 1 when a restart
# did not happen within a minute.
import os
import statistics
import subprocess
import sys
import tempfile
import time

galaxy = sys.argv[1]
n = sys.argv[2] if len(sys.argv) > 2 else "1048576"
tmp = tempfile.mkdtemp(prefix="gc_restart_")
log_path = os.path.join(tmp, "galaxy.log")


def xdo(*args):
    return subprocess.run(["xdotool"] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=30).stdout.strip()


def logged(text):
    return open(log_path).read().count(text)


log = open(log_path, "w")
proc = subprocess.Popen([galaxy, "-n", n, "--paused", "--size", "1280x720",
                         "--screenshot-after", "1", "--screenshot-dir", tmp],
                        stdout=log, stderr=subprocess.STDOUT)
try:
    t = time.time() + 300
    while time.time() < t and not any(f.endswith(".png") for f in os.listdir(tmp)):
        time.sleep(0.2)
    wid = xdo("search", "--sync", "--onlyvisible", "--name", "^galaxy").split()[0]
    xdo("windowfocus", wid)
    xdo("key", "--window", wid, "e")
    time.sleep(0.5)
    for k in range(5):
        xdo("key", "--window", wid, "Down")  # the next preset (mw-m31 first)
        time.sleep(0.2)
        xdo("key", "--window", wid, "Return")
        t = time.time() + 60
        while time.time() < t and logged("first frame was drawn") < k + 1:
            time.sleep(0.05)
        if logged("first frame was drawn") < k + 1:
            print("FAIL: restart %d did not show within a minute" % (k + 1))
            sys.exit(1)
    xdo("key", "--window", wid, "q")
    proc.wait(timeout=60)
finally:
    if proc.poll() is None:
        proc.kill()
    log.close()
text = open(log_path).read()
print(text)
runs = [l for l in text.splitlines() if "restart:" in l and "after the key" in l and "built" in l]
firsts = [float(l.split("drawn ")[1].split(" s")[0]) for l in text.splitlines()
          if "first frame was drawn" in l]
print("N = %s: key to the new run's first frame: %s s, median %.2f s" %
      (n, ", ".join("%.2f" % f for f in firsts), statistics.median(firsts)))
head = subprocess.run([galaxy, "-n", n, "--scenario", "antennae", "--headless", "--frames", "1"],
                      capture_output=True, text=True, timeout=600)
print("headless: " + "".join(l for l in head.stderr.splitlines(True) if "built in" in l))
