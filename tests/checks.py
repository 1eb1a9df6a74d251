# ok/FAIL lines for the Python tests and their count of failures (check.h's CHECK, for Python).
# SPDX-License-Identifier: MIT
failures = 0
failed = []


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures += 1
        failed.append(what)
    return cond


def summary():
    """Repeats the failed checks last (logs in between can be long); the exit status."""
    if failed:
        print("%d check(s) failed:" % len(failed))
        for what in failed:
            print("FAIL " + what)
    return 1 if failed else 0
