# Without an X display the viewer must say so clearly and exit non-zero, not crash, and say
# what to run instead: the README's headless example.
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
    ok = (p.returncode == 1 and "cannot open display" in p.stderr and
          "run 'galaxy --headless --frames 30 --substeps 100 --screenshot out.png'" in p.stderr and
          "'galaxy --steps 1000'" in p.stderr)
    print("%s: exit %d, stderr: %s" % (label, p.returncode, p.stderr.strip()))
    if not ok:
        print("FAIL: expected exit 1 and a 'cannot open display' message naming the headless "
              "command to run instead")
        failures += 1
sys.exit(1 if failures else 0)
