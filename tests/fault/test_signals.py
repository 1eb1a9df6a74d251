# SIGINT, SIGTERM and SIGUSR1 at random moments: galaxy stops at its next step or frame,
# finishes what it was writing, says where it stopped and exits 130 / 143 / 138; a second
# signal ends it at once. Usage: test_signals.py GALAXY [MPIEXEC ARGS... -n]
# SPDX-License-Identifier: MIT
import glob
import os
import random
import shutil
import signal
import subprocess
import sys
import time

galaxy = sys.argv[1]
mpiexec = sys.argv[2:]
tmp = os.path.join(os.environ.get("GC_TEST_TMP", "/tmp"), "signals")
shutil.rmtree(tmp, ignore_errors=True)
os.makedirs(tmp)
env = dict(os.environ)
for k in ("DISPLAY", "WAYLAND_DISPLAY"):
    env.pop(k, None)
# Mesa's driver, unloaded at exit, leaves leaks LeakSanitizer cannot name (the viewer tests
# check headless runs for leaks); the runs here check what a signal does.
env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":detect_leaks=0"
rng = random.Random(int(os.environ.get("GC_SIGNALS_SEED", "22")))
failures = []
runs = 0


def fail(what, err=""):
    failures.append(what)
    print("FAIL: %s" % what)
    if err:
        print("\n".join(err.strip().splitlines()[-8:]))


def start(args, name, launcher=()):
    out = open(os.path.join(tmp, name + ".out"), "w")
    err = open(os.path.join(tmp, name + ".err"), "w")
    p = subprocess.Popen(list(launcher) + [galaxy] + args, stdout=out, stderr=err, env=env,
                         stdin=subprocess.DEVNULL)
    return p, out, err


def finish(p, out, err, name, timeout=120):
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = p.wait()
        fail("%s: did not stop within %d s of the signal" % (name, timeout))
    out.close()
    err.close()
    with open(os.path.join(tmp, name + ".err")) as f:
        e = f.read()
    with open(os.path.join(tmp, name + ".out")) as f:
        o = f.read()
    return rc, o, e


def wait_started(p, name, limit=120.0, marker="dE/|E0|", stream=".out"):
    """Waits until the run prints marker (the table's header by default; its signal handlers
    are in place before): a loaded machine under a sanitizer can take seconds to start, and
    a signal before main() gets the default action, not the program's."""
    end = time.time() + limit
    while time.time() < end and p.poll() is None:
        with open(os.path.join(tmp, name + stream)) as f:
            if marker in f.read():
                return
        time.sleep(0.05)


def readable(snapshot, name):
    """The last complete snapshot loads again."""
    p = subprocess.run([galaxy, "--data", snapshot, "--steps", "1", "--backend", "cpu",
                        "--quiet"], capture_output=True, text=True, env=env, timeout=120)
    if p.returncode != 0:
        fail("%s: the last complete snapshot %s does not load" % (name, snapshot), p.stderr)


def check_stopped(name, sig, rc, out, err, folder=None, want_rc=None):
    signame = signal.Signals(sig).name
    want = 128 + sig if want_rc is None else want_rc
    if rc != want:
        fail("%s: exit %d after %s, want %d" % (name, rc, signame, want), err)
        return
    if err.count("stopped by %s at t = " % signame) != 1:
        fail("%s: no single 'stopped by %s at t = ...' line" % (name, signame), err)
    if "error:" in err or "Sanitizer" in err or "runtime error" in err:
        fail("%s: an error after %s" % (name, signame), err)
    if folder is not None:
        parts = glob.glob(os.path.join(folder, "*.part"))
        if parts:
            fail("%s: partial files left: %s" % (name, parts))
        if "last complete snapshot: " + folder not in err:
            fail("%s: the last complete snapshot is not named" % name, err)


# 1. Write-heavy runs (a snapshot every step), leapfrog and Hermite, signalled at random
# moments: 24 runs, SIGINT and SIGTERM alternately, every eighth SIGUSR1.
for k in range(24):
    sig = signal.SIGINT if k % 2 == 0 else signal.SIGTERM
    if k % 8 == 3:
        sig = signal.SIGUSR1
    name = "run%02d" % k
    folder = os.path.join(tmp, name)
    if k % 3 == 2:
        args = ["--model", "plummer", "-n", "512", "--t-end", "100000", "--snapshot-every",
                "0.0625"]
    else:
        args = ["-n", "2048", "--steps", "10000000", "--snapshot-every", "0.01"]
    args += ["--backend", "cpu", "--snapshot-dir", folder]
    p, o, e = start(args, name)
    wait_started(p, name)
    time.sleep(rng.uniform(0.0, 1.3))
    p.send_signal(sig)
    rc, out, err = finish(p, o, e, name)
    runs += 1
    check_stopped(name, sig, rc, out, err, folder)
    if "# stopped by" not in out:
        fail("%s: the table does not end with where it stopped" % name, out)
    snaps = sorted(glob.glob(os.path.join(folder, "snapshot_*.hdf5")))
    if k % 6 == 0 and snaps:
        readable(snaps[-1], name)

# 2. Headless frames with a movie: the movie is finished and plays (where EGL and FFmpeg
# are there).
for k, sig in enumerate((signal.SIGINT, signal.SIGTERM)):
    name = "movie%d" % k
    movie = os.path.join(tmp, name + ".mp4")
    p, o, e = start(["--headless", "--backend", "cpu", "-n", "2048", "--size", "320x200",
                     "--frames", "100000", "--record", movie], name)
    wait_started(p, name, marker="galaxy:", stream=".err")
    time.sleep(rng.uniform(1.5, 3.0))
    p.send_signal(sig)
    rc, out, err = finish(p, o, e, name)
    runs += 1
    if rc != 128 + sig and ("EGL" in err or "no movie recording" in err):
        print("note: %s not checked (no EGL or no FFmpeg here)" % name)
        continue
    check_stopped(name, sig, rc, out, err)
    if not os.path.exists(movie) or os.path.exists(movie + ".part"):
        fail("%s: the movie is not finished under its name" % name)
    elif shutil.which("ffprobe"):
        q = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                            "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", movie],
                           capture_output=True, text=True, timeout=60)
        if q.returncode != 0 or not q.stdout.strip().isdigit() or int(q.stdout) < 1:
            fail("%s: the movie does not play: %s" % (name, q.stderr.strip()))

# 3. A second signal ends the process at once, in the middle of a long step (65,536 bodies on
# one thread: a second or more a step; the table's header is printed just before the first).
name = "twice"
p, o, e = start(["-n", "65536", "--steps", "1000", "--backend", "cpu", "--threads", "1"], name)
wait_started(p, name, 30.0)
time.sleep(0.3)
p.send_signal(signal.SIGINT)
time.sleep(0.3)
p.send_signal(signal.SIGINT)
rc, out, err = finish(p, o, e, name, timeout=20)
runs += 1
if rc != -signal.SIGINT:
    fail("%s: a second SIGINT did not end the process at once (exit %d)" % (name, rc), err)

# 4. Under mpiexec, every rank stops the same way: rank 0 decides, the others follow.
def launcher_passes_sigterm():
    """Whether mpiexec passes SIGTERM on to the ranks and shows what they print after it.
    Open MPI 5's ends the ranks itself (SIGCONT, SIGTERM 0.25 s later, SIGKILL 0.25 s after
    that) and shows nothing of theirs from the signal on; Open MPI 4's waits longer and
    shows their output."""
    probe = os.path.join(tmp, "probe.out")
    with open(probe, "w") as out:
        p = subprocess.Popen(mpiexec + ["1", "sh", "-c", "trap 'echo passed on; exit 0' TERM; "
                                        "echo ready; while :; do sleep 0.05; done"],
                             stdout=out, stderr=subprocess.STDOUT, env=env,
                             stdin=subprocess.DEVNULL)
        wait_started(p, "probe", 60.0, marker="ready")
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    with open(probe) as f:
        return "passed on" in f.read()


def mpi_run(name, sig):
    global runs
    folder = os.path.join(tmp, name)
    p, o, e = start(["--backend", "cpu", "--threads", "1", "-n", "2048", "--steps",
                     "10000000", "--snapshot-every", "0.01", "--snapshot-dir", folder], name,
                    launcher=mpiexec + ["2"])
    wait_started(p, name)
    time.sleep(rng.uniform(0.5, 2.0))
    p.send_signal(sig)
    rc, out, err = finish(p, o, e, name)
    runs += 1
    # The launcher's own exit status is its own business; what the ranks did is not.
    check_stopped(name, sig, rc, out, err, folder, want_rc=rc)
    if "MPI_ABORT" in err or "exited on signal" in err:
        fail("%s: a rank was killed or aborted instead of stopping" % name, err)


if mpiexec:
    # SIGUSR1, which every launcher passes on and leaves the ranks to end on their own.
    mpi_run("mpi_usr1", signal.SIGUSR1)
    if launcher_passes_sigterm():
        mpi_run("mpi_term", signal.SIGTERM)
    else:
        print("SKIP (SIGTERM to mpiexec): this mpiexec ends the ranks itself and shows none "
              "of their output after a SIGTERM (Open MPI 5); SIGUSR1 stops such runs "
              "(checked above)")

print("%d runs, %d failures" % (runs, len(failures)))
sys.exit(1 if failures else 0)
