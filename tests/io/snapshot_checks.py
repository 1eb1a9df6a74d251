# What the snapshot checks share: the galaxy scaling in cgs computed from physical constants
# (not from the program), a check that counts failures, and a galaxy run that must succeed.
# SPDX-License-Identifier: MIT
import subprocess
import sys

import numpy as np

# 1 length unit = 3.2 kpc, 1 time unit = 18 Myr, G = 1 fixes the mass unit.
AU_CM = 1.495978707e13                    # IAU 2012
KPC_CM = AU_CM * 648000 / np.pi * 1e3     # parsec = 648000/pi au
MYR_S = 1e6 * 365.25 * 86400              # Julian years
G_CGS = 6.67430e-8                        # CODATA 2018
MSUN_G = 1.98841e33                       # IAU 2015 nominal GM over G
UL = 3.2 * KPC_CM
UT = 18.0 * MYR_S
UV = UL / UT
UM = UL ** 3 / (G_CGS * UT ** 2)

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def run(galaxy, *args):
    """Runs galaxy with args; its stdout and stderr, or the test ends when it fails."""
    p = subprocess.run([galaxy, *args], capture_output=True, text=True)
    if p.returncode != 0:
        print(p.stdout, p.stderr)
        sys.exit(f"galaxy {' '.join(args)} exited with {p.returncode}")
    return p.stdout, p.stderr


def finish():
    """Prints the failure count; the exit status."""
    print(f"{len(failures)} failures")
    return 1 if failures else 0
