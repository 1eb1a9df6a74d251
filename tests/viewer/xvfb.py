# Runs a command under a private Xvfb whose display number the server picks itself
# (-displayfd). xvfb-run -a guesses a free number from lock files, and two runs starting
# together can both take :99; the loser's client then meets the other server and fails with
# "failed to open display" (seen once in a CI run while another Xvfb was starting).
# Usage: python3 xvfb.py WxHxD COMMAND...   exit status: the command's.
# SPDX-License-Identifier: MIT
import os
import select
import shutil
import subprocess
import sys

screen, cmd = sys.argv[1], sys.argv[2:]
xvfb = shutil.which("Xvfb")
if not xvfb or not cmd:
    print("SKIP: Xvfb is not installed" if not xvfb else "usage: xvfb.py WxHxD COMMAND...")
    sys.exit(77 if not xvfb else 2)

r, w = os.pipe()
server = subprocess.Popen([xvfb, "-displayfd", str(w), "-screen", "0", screen, "-nolisten", "tcp"],
                          pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
os.close(w)
number = b""
ready, _, _ = select.select([r], [], [], 30.0)
while ready:
    chunk = os.read(r, 16)
    if not chunk:
        break
    number += chunk
    if number.endswith(b"\n"):
        break
    ready, _, _ = select.select([r], [], [], 30.0)
os.close(r)
if not number.strip().isdigit():
    server.kill()
    err = server.communicate()[1].decode(errors="replace")
    print("FAIL: Xvfb did not report a display within 30 s:\n" + err)
    sys.exit(1)

env = dict(os.environ, DISPLAY=":" + number.decode().strip())
env.pop("WAYLAND_DISPLAY", None)
env.pop("XAUTHORITY", None)
try:
    rc = subprocess.call(cmd, env=env)
finally:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
sys.exit(rc)
