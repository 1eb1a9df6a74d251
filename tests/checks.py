# ok/FAIL/SKIP lines for the Python tests and their count of failures (check.h's CHECK, for Python).
# SPDX-License-Identifier: MIT
failures = 0
failed = []
skipped = []


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures += 1
        failed.append(what)
    return cond


def skip(what, why):
    """A check that cannot run here: a SKIP line, never an ok. ctest has no partly skipped
    test, so a test that runs other checks still passes or fails on those; summary() lists
    the skipped ones again at the end, so the output never reads as if they had passed."""
    print("SKIP %s: %s" % (what, why), flush=True)
    skipped.append("%s: %s" % (what, why))


def summary():
    """Repeats the skipped and failed checks last (logs in between can be long); the exit
    status."""
    if skipped:
        print("%d check(s) skipped, not passed:" % len(skipped))
        for what in skipped:
            print("SKIP " + what)
    if failed:
        print("%d check(s) failed:" % len(failed))
        for what in failed:
            print("FAIL " + what)
    return 1 if failed else 0
