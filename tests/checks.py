# ok/FAIL lines for the Python tests and their count of failures (check.h's CHECK, for Python).
# SPDX-License-Identifier: MIT
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures += 1
