#!/usr/bin/env python3
# Loads snapshots with pynbody as an analyst would: a galaxy run's time in Myr, masses in
# solar masses, positions in kpc and velocities in km/s from the file's units (the scaling
# computed here from physical constants), the families of its default type mapping and of
# the mapping docs/usage.md gives; a star cluster's stars as pynbody's stars.
# Usage: check_snapshots_pynbody.py GALAXY TMPDIR. Exit 77 without pynbody.
# SPDX-License-Identifier: MIT
import functools
import json
import os
import shutil
import subprocess
import sys
import warnings

try:
    import h5py
    import numpy as np
    import pynbody
except ImportError as e:
    print(f"SKIP: {e} (needs pynbody: pip install pynbody)")
    sys.exit(77)

from snapshot_checks import MSUN_G, UL, UM, UT, check, finish  # noqa: E402
import snapshot_checks  # noqa: E402

GALAXY, TMP = sys.argv[1], sys.argv[2]
run = functools.partial(snapshot_checks.run, GALAXY)


def rel(a, b):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b)) / np.maximum(np.abs(b), 1e-30)))


if os.path.isdir(TMP):
    shutil.rmtree(TMP)
os.makedirs(TMP)
g_dir, p_dir = os.path.join(TMP, "galaxy"), os.path.join(TMP, "plummer")
run("--backend", "cpu", "-n", "96", "--steps", "20", "--snapshot-every", "0.1",
    "--snapshot-dir", g_dir)
run("--backend", "cpu", "--model", "plummer", "-n", "32", "--t-end", "0.02",
    "--snapshot-every", "0.01", "--snapshot-dir", p_dir)
path = os.path.join(g_dir, "snapshot_000002.hdf5")

# The file's own values, in ID order, and its counts by component.
with h5py.File(path, "r") as f:
    counts = f["Header"].attrs["NumPart_ThisFile"]
    ids = np.concatenate([f[f"PartType{t}"]["ParticleIDs"][...] for t in (1, 2, 3)])
    order = np.argsort(ids)
    m = np.concatenate([f[f"PartType{t}"]["Masses"][...] for t in (1, 2, 3)]).astype(np.float64)[order]
    x = np.concatenate([f[f"PartType{t}"]["Coordinates"][...] for t in (1, 2, 3)]).astype(np.float64)[order]
    v = np.concatenate([f[f"PartType{t}"]["Velocities"][...] for t in (1, 2, 3)]).astype(np.float64)[order]
check(list(counts) == [0, 38, 38, 20, 0, 0], f"galaxy: counts {list(counts)}")

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    s = pynbody.load(path)
    t_myr = float(s.properties["time"].in_units("Myr"))
    s_ids = np.asarray(s["iord"])
    so = np.argsort(s_ids)
    m_sun = np.asarray(s["mass"].in_units("Msol"))[so]
    x_kpc = np.asarray(s["pos"].in_units("kpc"))[so]
    v_kms = np.asarray(s["vel"].in_units("km s**-1"))[so]
    fams = {f.name: len(s[f]) for f in s.families()}
# What pynbody says when it falls back to GADGET's cosmological default units or to a
# cosmology (its note that datasets carry no EAGLE-style VarDescription is not one).
unit_warnings = [str(w.message) for w in caught
                 if any(k in str(w.message) for k in ("No unit information", "cosmological",
                                                       "Assuming default value"))]
check(type(s).__name__ == "GadgetHDFSnap", f"pynbody reads it as {type(s).__name__}")
check(not unit_warnings, f"pynbody warns about units: {unit_warnings}")
check(abs(t_myr - 0.2 * 18.0) < 1e-9, f"time {t_myr} Myr, expected 3.6")
check(len(s) == 96 and np.array_equal(np.sort(s_ids), np.arange(1, 97)), "all 96 bodies, IDs 1..96")
# pynbody's own solar mass and parsec differ from the IAU values here in the fifth digit.
check(rel(m_sun, m * UM / MSUN_G) < 1e-4, f"masses in Msun: {rel(m_sun, m * UM / MSUN_G)}")
check(abs(m_sun.sum() / (m.sum() * 2.2481e10) - 1) < 1e-3, f"total mass {m_sun.sum():.4e} Msun")
check(rel(x_kpc, x * 3.2) < 1e-6, "positions in kpc (3.2 kpc per unit)")
check(rel(v_kms, v * UL / UT / 1e5) < 1e-6, "velocities in km/s")
check(fams == {"dm": 96}, f"default families {fams}: PartType1-3 are pynbody's dm")

# The mapping docs/usage.md gives: the halo is dm, disk and bulge are stars (pynbody reads
# its configuration once, at import: a fresh interpreter with its own HOME).
home = os.path.join(TMP, "home")
os.makedirs(home)
with open(os.path.join(home, ".pynbodyrc"), "w") as fh:
    fh.write("[gadgethdf-type-mapping]\ndm: PartType1\nstar: PartType2, PartType3, PartType4\n")
code = ("import json, sys, warnings; warnings.simplefilter('ignore'); import pynbody; "
        "s = pynbody.load(sys.argv[1]); "
        "print(json.dumps({f.name: [len(s[f]), float(s[f]['mass'].in_units('Msol').sum())] "
        "for f in s.families()}))")
p = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True,
                   env={**os.environ, "HOME": home}, cwd=TMP)
got = json.loads(p.stdout) if p.returncode == 0 else {}
check(sorted(got) == ["dm", "star"] and got["dm"][0] == counts[1] and
      got["star"][0] == counts[2] + counts[3], f"mapped families {got} (stderr: {p.stderr[-300:]})")
if "dm" in got:
    with h5py.File(path, "r") as f:
        mh = float(np.sum(f["PartType1"]["Masses"][...].astype(np.float64))) * UM / MSUN_G
    check(abs(got["dm"][1] / mh - 1) < 1e-4, f"halo mass {got['dm'][1]:.6e} vs {mh:.6e} Msun")

# A star cluster: its stars are pynbody's stars.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    c = pynbody.load(os.path.join(p_dir, "snapshot_000001.hdf5"))
    cf = {f.name: len(c[f]) for f in c.families()}
check(cf == {"star": 32}, f"cluster families {cf}")

sys.exit(finish())
