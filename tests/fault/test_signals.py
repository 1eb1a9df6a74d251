# The stop signals (SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGPIPE, SIGTERM) at random moments
# during snapshots, movies and tables: galaxy stops at its next step or frame (or cuts its
# start-up short), finishes or removes what it was writing, says where it stopped and exits
# 128 + the signal; a second signal ends it at once; a closed pipe is a stop, not a silent
# end. Usage: test_signals.py GALAXY [MPIEXEC ARGS... -n]
# GC_SIGNALS_SEED picks the moments (fixed in CI); GC_SIGNALS_SWEEP=K runs every signal K
# times on each output (the long sweep, run by hand) instead of the few runs CI makes.
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
sweep = int(os.environ.get("GC_SIGNALS_SWEEP", "0"))
failures = []
runs = 0
STOPS = (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1, signal.SIGPIPE,
         signal.SIGTERM)


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


def wait_caught(p, sig, limit=120.0):
    """Waits until the process catches sig (the kernel's SigCgt mask): a signal before main()
    installs its handlers gets the default action, and MPI's start-up alone can take a
    second on a loaded machine."""
    end = time.time() + limit
    while time.time() < end and p.poll() is None:
        try:
            with open("/proc/%d/status" % p.pid) as f:
                for line in f:
                    if line.startswith("SigCgt:") and int(line.split()[1], 16) >> (sig - 1) & 1:
                        return
        except OSError:
            return
        time.sleep(0.02)


def readable(snapshot, name):
    """The last complete snapshot loads again."""
    p = subprocess.run([galaxy, "--data", snapshot, "--steps", "1", "--backend", "cpu",
                        "--quiet"], capture_output=True, text=True, env=env, timeout=120)
    if p.returncode != 0:
        fail("%s: the last complete snapshot %s does not load" % (name, snapshot), p.stderr)


def check_stopped(name, sig, rc, out, err, folder=None, want_rc=None, where=" at t = "):
    signame = signal.Signals(sig).name
    want = 128 + sig if want_rc is None else want_rc
    if rc != want:
        fail("%s: exit %d after %s, want %d" % (name, rc, signame, want), err)
        return
    if err.count("stopped by %s%s" % (signame, where)) != 1:
        fail("%s: no single 'stopped by %s%s...' line" % (name, signame, where), err)
    if "error:" in err or "Sanitizer" in err or "runtime error" in err:
        fail("%s: an error after %s" % (name, signame), err)
    if folder is not None:
        parts = glob.glob(os.path.join(folder, "*.part"))
        if parts:
            fail("%s: partial files left: %s" % (name, parts))
        if "last complete snapshot: " + folder not in err:
            fail("%s: the last complete snapshot is not named" % name, err)


# 1. Write-heavy runs (a snapshot every step), leapfrog and Hermite, signalled at random
# moments: 24 runs, each stop signal in turn.
for k in range(24 if not sweep else sweep * len(STOPS)):
    sig = STOPS[k % len(STOPS)]
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

# 2. Headless frames with a movie and a screenshot: the movie is finished and plays, the
# screenshot of the frame where it stopped is written and said so (where EGL and FFmpeg are
# there).
for k in range(len(STOPS) * max(sweep, 1)):
    sig = STOPS[k % len(STOPS)]
    name = "movie%d" % k
    movie = os.path.join(tmp, name + ".mp4")
    shot = os.path.join(tmp, name + ".png")
    p, o, e = start(["--headless", "--backend", "cpu", "-n", "2048", "--size", "320x200",
                     "--frames", "100000", "--record", movie, "--screenshot", shot], name)
    wait_started(p, name, marker="galaxy:", stream=".err")
    time.sleep(rng.uniform(1.5, 3.0))
    p.send_signal(sig)
    rc, out, err = finish(p, o, e, name)
    runs += 1
    # (Only an error line counts: every headless run's log names its EGL platform.)
    if rc == 1 and any("EGL" in line or "no movie recording" in line
                       for line in err.splitlines() if "error:" in line):
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
    if not os.path.exists(shot):
        fail("%s: no screenshot %s after the stop" % (name, shot), err)
    else:
        with open(shot, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n":
                fail("%s: the screenshot is not a PNG" % name)
    if "the screenshot %s shows frame" % shot not in err:
        fail("%s: the stopped run does not say which frame its screenshot shows" % name, err)

# 2b. A table (--save) of 400,000 bodies, signalled while the model is built, the table
# written or the steps run: each stop signal once (K times in the sweep). No .part is left;
# a table under its name is whole; one line says where it stopped.
for k in range(len(STOPS) * max(sweep, 1)):
    sig = STOPS[k % len(STOPS)]
    name = "table%d" % k
    table = os.path.join(tmp, name + ".tab")
    p, o, e = start(["--backend", "cpu", "-n", "400000", "--steps", "100000", "--save", table],
                    name)
    wait_caught(p, sig)
    time.sleep(rng.uniform(0.0, 4.0))
    p.send_signal(sig)
    rc, out, err = finish(p, o, e, name)
    runs += 1
    signame = signal.Signals(sig).name
    if rc != 128 + sig:
        fail("%s: exit %d after %s, want %d" % (name, rc, signame, 128 + sig), err)
    elif err.count("stopped by %s" % signame) != 1:
        fail("%s: no single 'stopped by %s' line" % (name, signame), err)
    elif "error:" in err or "Sanitizer" in err or "runtime error" in err:
        fail("%s: an error after %s" % (name, signame), err)
    if os.path.exists(table + ".part"):
        fail("%s: %s.part left" % (name, table))
    if os.path.exists(table):
        with open(table) as f:
            rows = sum(1 for line in f if not line.startswith("#"))
        if rows != 400000:
            fail("%s: %s holds %d rows, not 400000" % (name, table, rows))

# 2c. A stop during the start-up of 2M bodies (model, first forces and energy: a minute on
# two cores) is heard within 2 s.
name = "startup"
p, o, e = start(["--backend", "cpu", "-n", "2000000", "--steps", "1000"], name)
wait_caught(p, signal.SIGTERM)
time.sleep(rng.uniform(0.5, 3.0))
t0 = time.time()
p.send_signal(signal.SIGTERM)
rc, out, err = finish(p, o, e, name, timeout=60)
runs += 1
waited = time.time() - t0
limit = float(os.environ.get("GC_SIGNALS_STARTUP_S", "2"))
if waited > limit:
    fail("%s: exited %.1f s after SIGTERM during start-up (limit %.1f s)" % (name, waited, limit))
check_stopped(name, signal.SIGTERM, rc, out, err, where=" during start-up")

# 2d. A pipe closed by its reader (galaxy --steps ... | head -n 1): a stop by SIGPIPE, said
# on stderr, not a silent end.
name = "pipe"
err_f = open(os.path.join(tmp, name + ".err"), "w")
p = subprocess.Popen([galaxy, "--backend", "cpu", "-n", "1024", "--steps", "10000000",
                      "--report-every", "1"], stdout=subprocess.PIPE, stderr=err_f, env=env,
                     stdin=subprocess.DEVNULL)
p.stdout.readline()
p.stdout.close()
try:
    rc = p.wait(timeout=60)
except subprocess.TimeoutExpired:
    p.kill()
    rc = p.wait()
    fail("%s: did not stop when its pipe was closed" % name)
err_f.close()
runs += 1
with open(os.path.join(tmp, name + ".err")) as f:
    err = f.read()
check_stopped(name, signal.SIGPIPE, rc, "", err)

# 3. A second signal ends the process at once, while the first waits for work in progress
# to end: here a table written into a FIFO whose reader reads nothing, so the write blocks
# whatever the build's speed (the kernel's wait channel says when it does).
name = "twice"
fifo = os.path.join(tmp, "twice.fifo")
os.mkfifo(fifo)
reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
p, o, e = start(["-n", "65536", "--steps", "1", "--backend", "cpu", "--save", fifo], name)
blocked = False
end = time.time() + 120
while time.time() < end and p.poll() is None and not blocked:
    try:
        with open("/proc/%d/wchan" % p.pid) as f:
            blocked = "pipe_write" in f.read()
    except OSError:
        break
    time.sleep(0.05)
if not blocked:
    fail("%s: the table's write into the FIFO never blocked" % name)
p.send_signal(signal.SIGINT)
time.sleep(0.3)
if p.poll() is not None:
    fail("%s: the first SIGINT ended the process (exit %d) while its write was blocked"
         % (name, p.returncode))
p.send_signal(signal.SIGINT)
rc, out, err = finish(p, o, e, name, timeout=20)
os.close(reader)
runs += 1
if rc != -signal.SIGINT:
    fail("%s: a second SIGINT did not end the process at once (exit %d)" % (name, rc), err)

# 4. Under mpiexec, every rank stops the same way: rank 0 decides, the others follow.
if mpiexec:
    name = "mpi"
    folder = os.path.join(tmp, name)
    p, o, e = start(["--backend", "cpu", "--threads", "1", "-n", "2048", "--steps",
                     "10000000", "--snapshot-every", "0.01", "--snapshot-dir", folder], name,
                    launcher=mpiexec + ["2"])
    time.sleep(4.0)
    p.send_signal(signal.SIGTERM)
    rc, out, err = finish(p, o, e, name)
    runs += 1
    # The launcher's own exit status is its own business; what the ranks did is not.
    check_stopped(name, signal.SIGTERM, rc, out, err, folder, want_rc=rc)
    if "MPI_ABORT" in err or "exited on signal" in err:
        fail("%s: a rank was killed or aborted instead of stopping" % name, err)

    # 5. A signal to one rank alone (not rank 0): every rank hears it at its next step and
    # they stop together within seconds, with the same summary as above.
    def rank_pid(rank):
        """The galaxy process of this run whose MPI rank is `rank` (from its environment)."""
        for d in os.listdir("/proc"):
            try:
                with open("/proc/%s/environ" % d, "rb") as f:
                    e = f.read().split(b"\0")
                with open("/proc/%s/cmdline" % d, "rb") as f:
                    c = f.read()
            except OSError:
                continue
            if os.path.basename(galaxy).encode() in c.split(b"\0")[0] and \
                    ("OMPI_COMM_WORLD_RANK=%d" % rank).encode() in e and \
                    folder.encode() in c:
                return int(d)
        return None
    name = "mpi1"
    folder = os.path.join(tmp, name)
    p, o, e = start(["--backend", "cpu", "--threads", "1", "-n", "2048", "--steps",
                     "10000000", "--snapshot-every", "0.01", "--snapshot-dir", folder], name,
                    launcher=mpiexec + ["2"])
    wait_started(p, name)
    time.sleep(1.0)
    pid = rank_pid(1)
    if pid is None:
        fail("%s: rank 1's process not found" % name)
        p.send_signal(signal.SIGTERM)
    else:
        os.kill(pid, signal.SIGTERM)
    t0 = time.time()
    rc, out, err = finish(p, o, e, name)
    runs += 1
    if time.time() - t0 > 5.0:
        fail("%s: the ranks took %.1f s to stop after rank 1's SIGTERM" % (name, time.time() - t0))
    check_stopped(name, signal.SIGTERM, rc, out, err, folder, want_rc=rc)
    if "MPI_ABORT" in err or "exited on signal" in err:
        fail("%s: a rank was killed or aborted instead of stopping" % name, err)

print("%d runs, %d failures" % (runs, len(failures)))
sys.exit(1 if failures else 0)
