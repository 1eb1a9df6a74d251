# Without an X display the viewer must say so clearly and exit non-zero, not crash.
# SPDX-License-Identifier: MIT
import os
import subprocess
import sys

galaxy = sys.argv[1]
failures = 0
for label, display in (("DISPLAY unset", None), ("DISPLAY=:987 (no server)", ":987")):
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    if display:
        env["DISPLAY"] = display
    p = subprocess.run([galaxy, "-n", "256"], env=env, capture_output=True, text=True,
                       timeout=60)
    ok = p.returncode == 1 and "cannot open display" in p.stderr and "--headless" in p.stderr
    print("%s: exit %d, stderr: %s" % (label, p.returncode, p.stderr.strip()))
    if not ok:
        print("FAIL: expected exit 1 and a 'cannot open display ... --headless' message")
        failures += 1
sys.exit(1 if failures else 0)
