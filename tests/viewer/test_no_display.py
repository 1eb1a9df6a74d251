# Without an X display the viewer must say so clearly and exit non-zero, not crash, and say
# what to run instead: the README's headless example (its third code block), named as the
# program was started (./build/galaxy in the build tree, galaxy once installed).
# SPDX-License-Identifier: MIT
# Usage: test_no_display.py GALAXY SOURCE_DIR
import os
import re
import subprocess
import sys

galaxy, src = os.path.abspath(sys.argv[1]), sys.argv[2]
readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
example = re.findall(r"^```[^\n]*\n(.*?)^```", readme, re.M | re.S)[2].strip()
failures = 0
# (how it is started, the name it goes by, DISPLAY)
cases = (([galaxy], galaxy, None), ([galaxy], galaxy, ":987"), (["galaxy"], "galaxy", None))
for argv, name, display in cases:
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    env["PATH"] = os.path.dirname(galaxy) + os.pathsep + env.get("PATH", "")
    if display:
        env["DISPLAY"] = display
    p = subprocess.run(argv + ["-n", "256"], env=env, capture_output=True, text=True,
                       timeout=60)
    hint = example.replace("./build/galaxy", name, 1)
    ok = (p.returncode == 1 and "cannot open display" in p.stderr and
          "run '%s'" % hint in p.stderr and "'%s --steps 1000'" % name in p.stderr)
    label = "%s, DISPLAY %s" % (" ".join(argv), display or "unset")
    print("%s: exit %d, stderr: %s" % (label, p.returncode, p.stderr.strip()))
    if not ok:
        print("FAIL: expected exit 1 and a 'cannot open display' message naming what to run "
              "instead: '%s' (the README's) and '%s --steps 1000'" % (hint, name))
        failures += 1
sys.exit(1 if failures else 0)
