# Runs a command under a private Xvfb, and makes sure the display answers before it does.
# Why not xvfb-run -a, nor Xvfb -displayfd alone: both start at the lowest free display
# number, :99 or :0, which every other X server on a shared CI host tries first too. Two CI
# runs have failed with "failed to open display" on such a number: once while another Xvfb
# was starting (xvfb-run -a), once on ':0' with -displayfd. So each try takes a random high
# number, waits for the server to report it ready (-displayfd), then opens the display with
# Xlib as the viewer will; a try that fails is logged and the next takes another number.
# Usage: python3 xvfb.py WxHxD COMMAND...   exit status: the command's.
# SPDX-License-Identifier: MIT
import ctypes
import ctypes.util
import os
import random
import select
import shutil
import subprocess
import sys
import threading

TRIES = 5
READY_S = 30.0


class Server:
    """One Xvfb on display :number; its stderr is drained (a full pipe would stall it)."""

    def __init__(self, xvfb, number, screen):
        r, w = os.pipe()
        self.number = number
        self.proc = subprocess.Popen(
            [xvfb, ":%d" % number, "-displayfd", str(w), "-screen", "0", screen,
             "-nolisten", "tcp", "-noreset"],
            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(w)
        self.err = []
        self.drain = threading.Thread(target=self._drain, daemon=True)
        self.drain.start()
        self.reported = self._read_ready(r)
        os.close(r)

    def _drain(self):
        for line in self.proc.stderr:
            self.err.append(line.decode(errors="replace"))
            del self.err[:-40]

    def _read_ready(self, fd):
        """The number the server writes once it accepts clients; "" if it exits first."""
        text = b""
        while not text.endswith(b"\n"):
            ready, _, _ = select.select([fd], [], [], READY_S)
            chunk = os.read(fd, 16) if ready else b""
            if not chunk:
                break
            text += chunk
        return text.decode(errors="replace").strip()

    def log(self):
        return "".join(self.err[-20:]) or "(Xvfb printed nothing)\n"

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.drain.join(timeout=5)


def display_answers(name):
    """Opens and closes the display with Xlib (what freeglut does); xdotool if no libX11."""
    path = ctypes.util.find_library("X11")
    if path:
        x11 = ctypes.CDLL(path)
        x11.XOpenDisplay.restype = ctypes.c_void_p
        x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
        dpy = x11.XOpenDisplay(name.encode())
        if dpy:
            x11.XCloseDisplay(dpy)
        return bool(dpy)
    probe = subprocess.run(["xdotool", "getdisplaygeometry"], env=dict(os.environ, DISPLAY=name),
                           capture_output=True, timeout=20)
    return probe.returncode == 0


def start(xvfb, screen):
    """A server whose display answers, or None after TRIES tries (each one reported)."""
    for attempt in range(1, TRIES + 1):
        number = random.randrange(200, 30000)
        server = Server(xvfb, number, screen)
        why = None
        if server.reported != str(number):
            why = "did not report display :%d ready within %.0f s (reported %r, exit %s)" % (
                number, READY_S, server.reported, server.proc.poll())
        elif not display_answers(":%d" % number):
            why = "reported :%d ready, but Xlib could not open it" % number
        if why is None:
            return server
        server.stop()
        print("xvfb.py: try %d of %d: Xvfb %s; its log:\n%s" % (attempt, TRIES, why,
                                                                 server.log()), flush=True)
    return None


def main():
    screen, cmd = sys.argv[1], sys.argv[2:]
    xvfb = shutil.which("Xvfb")
    if not xvfb or not cmd:
        print("SKIP: Xvfb is not installed" if not xvfb else "usage: xvfb.py WxHxD COMMAND...")
        return 77 if not xvfb else 2
    server = start(xvfb, screen)
    if server is None:
        print("FAIL: no private Xvfb display answered in %d tries" % TRIES)
        return 1
    env = dict(os.environ, DISPLAY=":%d" % server.number)
    env.pop("WAYLAND_DISPLAY", None)
    env.pop("XAUTHORITY", None)
    try:
        rc = subprocess.call(cmd, env=env)
    finally:
        alive = server.proc.poll() is None
        server.stop()
    if rc not in (0, 77):
        # What the server said, for a failure that may be the display's and not the viewer's.
        print("xvfb.py: the command exited %d; Xvfb :%d was %s; its log:\n%s" % (
            rc, server.number, "still running" if alive else "gone", server.log()))
    return rc


if __name__ == "__main__":
    sys.exit(main())
