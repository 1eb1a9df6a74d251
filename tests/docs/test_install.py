# cmake --install gives the documented layout, and the installed programs run from any
# working folder: the viewer finds its shaders relative to itself (and only there, or in
# GC_SHADER_DIR).
# SPDX-License-Identifier: MIT
#
# Usage: test_install.py CMAKE BUILD_DIR SOURCE_DIR
import glob
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import checks  # noqa: E402
from checks import check  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "viewer"))
import sanitizer  # noqa: E402

cmake, build, src = sys.argv[1:4]
tmp = os.path.join(os.environ.get("GC_TEST_TMP", "/tmp"), "install")
prefix = os.path.join(tmp, "prefix")


shutil.rmtree(tmp, ignore_errors=True)
p = subprocess.run([cmake, "--install", build, "--prefix", prefix], capture_output=True,
                   text=True, timeout=120)
check(p.returncode == 0, "cmake --install --prefix %s (exit %d) %s" % (prefix, p.returncode, p.stderr))
shaders = sorted(os.path.basename(f) for f in glob.glob(os.path.join(src, "shaders", "*.vert")) +
                 glob.glob(os.path.join(src, "shaders", "*.frag")))
want = ["bin/galaxy", "bin/galaxy-bench", "share/man/man1/galaxy.1", "share/man/man1/galaxy-bench.1",
        "share/doc/galaxy/README.md", "share/doc/galaxy/LICENSE", "share/doc/galaxy/docs/usage.md",
        "share/doc/galaxy/docs/physics.md"]
want += ["share/galaxy/shaders/" + s for s in shaders]
check(len(shaders) >= 2, "the source tree has shaders (%s)" % shaders)
for f in want:
    check(os.path.isfile(os.path.join(prefix, f)), "installed " + f)
if checks.failures:
    sys.exit(1)

galaxy = os.path.join(prefix, "bin", "galaxy")
env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "GC_SHADER_DIR")}
env = sanitizer.keep_driver_loaded(env, galaxy)


def run(exe, *args, extra_env=None):
    e = dict(env, **(extra_env or {}))
    p = subprocess.run([exe] + list(args), cwd="/", env=e, capture_output=True, text=True,
                       timeout=120)
    p.returncode = sanitizer.effective_returncode(p.returncode, p.stderr)
    return p


for exe in (galaxy, os.path.join(prefix, "bin", "galaxy-bench")):
    p = run(exe, "--version")
    check(p.returncode == 0 and p.stdout.startswith(os.path.basename(exe) + " "),
          "%s --version from / (exit %d: %s)" % (os.path.basename(exe), p.returncode, p.stdout.strip()))
p = run(galaxy, "--steps", "1", "-n", "64", "--backend", "cpu")
check(p.returncode == 0, "galaxy --steps 1 from / (exit %d)" % p.returncode)

# The viewer's shaders, from / : the installed copy relative to the binary.
png = os.path.join(tmp, "frame.png")
args = ("--headless", "--frames", "2", "-n", "256", "--backend", "cpu", "--size", "160x100")
p = run(galaxy, *args, "--screenshot", png)
if p.returncode != 0 and "no EGL display" in p.stderr:
    print("SKIP: no EGL display here; the layout and --steps were checked")
    sys.exit(1 if checks.failures else 77)
ok = p.returncode == 0 and os.path.isfile(png) and os.path.getsize(png) > 0
check(ok, "galaxy --headless from / renders with the installed shaders (exit %d)%s"
      % (p.returncode, "" if ok else "\n" + p.stderr))
# Moved away from its share/ folder it finds none, and says where it looked.
alone = os.path.join(tmp, "alone", "bin")
os.makedirs(alone)
shutil.copy2(galaxy, alone)
p = run(os.path.join(alone, "galaxy"), *args)
check(p.returncode != 0 and "shaders not found" in p.stderr and "../share/galaxy/shaders" in p.stderr,
      "a binary without share/galaxy/shaders beside it reports where it looked (exit %d): %s"
      % (p.returncode, sanitizer.strip_report(p.stderr).strip()))
# GC_SHADER_DIR still overrides the installed copy.
empty = os.path.join(tmp, "empty")
os.makedirs(empty)
p = run(galaxy, *args, extra_env={"GC_SHADER_DIR": empty})
check(p.returncode != 0 and "GC_SHADER_DIR=%s holds no particles.vert" % empty in p.stderr,
      "GC_SHADER_DIR overrides the installed shaders (exit %d)" % p.returncode)
sys.exit(1 if checks.failures else 0)
