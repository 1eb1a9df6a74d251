#!/usr/bin/env python3
# Runs galaxy with --snapshot-every and checks every snapshot with h5py against the run:
# the GADGET/SWIFT header, the layout, IDs, snapshot_000000 against the --save table (exactly),
# each snapshot's energy against the --steps table, a restart from a snapshot, and the
# one-component rule; with MAKE_BAD_SNAPSHOTS, also a float64 file exactly.
# Usage: check_snapshots.py GALAXY TMPDIR [MAKE_BAD_SNAPSHOTS]. Exit 77 without h5py.
# SPDX-License-Identifier: MIT
import functools
import os
import re
import shutil
import subprocess
import sys

try:
    import h5py
    import numpy as np
except ImportError as e:
    print(f"SKIP: {e} (needs h5py and numpy)")
    sys.exit(77)

from snapshot_checks import G_CGS, MSUN_G, UL, UM, UT, UV, check, finish  # noqa: E402
import snapshot_checks  # noqa: E402

GALAXY, TMP = sys.argv[1], sys.argv[2]
T = 0.1            # --snapshot-every; dt = 0.01 (default), so 10 steps per snapshot
STEPS, EVERY = 40, 10
N = 512
EPS = float(np.float32(0.025))  # the default softening, a float in the program
TYPE_OF = {"halo": 1, "disk": 2, "bulge": 3, "star": 4}
BLOCKS = [(0, "disk"), (1, "disk"), (0, "bulge"), (1, "bulge"), (0, "halo"), (1, "halo")]
run = functools.partial(snapshot_checks.run, GALAXY)


def table_rows(stdout):
    """step -> (time[Myr], energy as printed) from the --steps table."""
    rows = {}
    for line in stdout.splitlines():
        f = line.split()
        if len(f) == 9 and not line.startswith("#"):
            rows[int(f[0])] = (f[1], f[2])
    return rows


GALAXY_WORDS = "galaxy: N-body units with G = 1, 1 length unit = 3.2 kpc, 1 time unit = 18 Myr"
HENON_WORDS = "henon: Henon units of a star cluster, G = M = 1, E = -1/4, no physical scale"


def text(v):
    return v.decode() if isinstance(v, bytes) else str(v)


def close(a, b, rel=1e-13):
    return abs(a - b) <= rel * abs(b)


def check_header(path, f, units):
    """Every /Header attribute, its type and value, and /Units; units is "galaxy", "henon"
    or None (a file written without its run)."""
    h = f["Header"].attrs
    want = {"NumPart_ThisFile": np.uint32, "NumPart_Total": np.uint32,
            "NumPart_Total_HighWord": np.uint32, "MassTable": np.float64, "Time": np.float64,
            "Redshift": np.float64, "BoxSize": np.float64, "NumFilesPerSnapshot": np.int32,
            "Omega0": np.float64, "OmegaLambda": np.float64, "HubbleParam": np.float64,
            "Flag_DoublePrecision": np.int32, "Flag_Sfr": np.int32, "Flag_Feedback": np.int32,
            "Flag_Cooling": np.int32, "Flag_StellarAge": np.int32, "Flag_Metals": np.int32,
            "Flag_Entropy_ICs": np.int32}
    if units == "galaxy":
        want.update({"UnitLength_in_cm": np.float64, "UnitMass_in_g": np.float64,
                     "UnitVelocity_in_cm_per_s": np.float64, "Time_GYR": np.float64})
    check(sorted(h.keys()) == sorted(want), f"{path}: /Header attributes {sorted(h.keys())}")
    for k, t in want.items():
        check(k in h and np.asarray(h[k]).dtype == t, f"{path}: /Header {k} is {t.__name__}")
    check(all(h.get(k) == 0.0 for k in ("Redshift", "BoxSize", "Omega0", "OmegaLambda")),
          f"{path}: Redshift, BoxSize, Omega0, OmegaLambda are 0")
    check(h.get("HubbleParam") == 1.0 and h.get("NumFilesPerSnapshot") == 1,
          f"{path}: HubbleParam 1, one file")
    check(all(h.get(k) == 0 for k in want if k.startswith("Flag_") and k != "Flag_DoublePrecision"),
          f"{path}: Flag_* 0 but the precision")
    params = f["Parameters"].attrs if "Parameters" in f else {}
    check("HubbleParam" not in params and "Omega0" not in params,
          f"{path}: no cosmology in /Parameters (pynbody would treat the run as cosmological)")
    if units is None:
        check("Units" not in f, f"{path}: no /Units without the run's units")
        return
    check("Units" in f, f"{path}: /Units")
    if "Units" not in f:
        return
    u = f["Units"].attrs
    if units == "henon":
        check(sorted(u.keys()) == ["UnitSystem"] and text(u["UnitSystem"]) == HENON_WORDS,
              f"{path}: /Units states Henon units and no cgs: {dict(u)}")
        check("Time_GYR" not in params, f"{path}: no Time_GYR in Henon units")
        return
    cgs = {"UnitLength_in_cm": UL, "UnitMass_in_g": UM, "UnitVelocity_in_cm_per_s": UV,
           "UnitTime_in_s": UT, "Unit length in cgs (U_L)": UL, "Unit mass in cgs (U_M)": UM,
           "Unit time in cgs (U_t)": UT, "Unit current in cgs (U_I)": 1.0,
           "Unit temperature in cgs (U_T)": 1.0}
    check(sorted(u.keys()) == sorted(list(cgs) + ["UnitSystem"]), f"{path}: /Units {sorted(u.keys())}")
    check(text(u.get("UnitSystem", b"")) == GALAXY_WORDS, f"{path}: /Units UnitSystem")
    for k, v in cgs.items():
        check(k in u and np.asarray(u[k]).dtype == np.float64 and close(float(u[k]), v),
              f"{path}: /Units {k} = {u.get(k)} vs {v}")
        if k in want:
            check(close(float(h[k]), v), f"{path}: /Header {k} = {h[k]} vs {v}")
    # G = 1 in these units, and the scaling docs/physics.md states.
    check(close(G_CGS * float(u["UnitMass_in_g"]) * float(u["UnitTime_in_s"]) ** 2
                / float(u["UnitLength_in_cm"]) ** 3, 1.0, 1e-12), f"{path}: G = 1")
    check(abs(UM / MSUN_G / 2.25e10 - 1) < 0.01, f"{path}: mass unit 2.25e10 Msun")
    gyr = float(h["Time"]) * 18.0e-3
    check(close(float(h["Time_GYR"]), gyr, 1e-15) and "Time_GYR" in params and
          close(float(params["Time_GYR"]), gyr, 1e-15), f"{path}: Time_GYR in /Header and /Parameters")


def load(path, units="galaxy"):
    """The snapshot's bodies in ID order (= the run's order) plus its header, checking the
    layout on the way."""
    f = h5py.File(path, "r")
    check_header(path, f, units)
    h = f["Header"].attrs
    counts = h["NumPart_ThisFile"]
    check(counts.dtype == np.uint32 and counts.shape == (6,), f"{path}: NumPart_ThisFile type")
    check(np.array_equal(h["NumPart_Total"], counts), f"{path}: NumPart_Total")
    check(np.array_equal(h["NumPart_Total_HighWord"], np.zeros(6)), f"{path}: HighWord")
    mt = h["MassTable"]
    check(mt.dtype == np.float64 and np.array_equal(mt, np.zeros(6)), f"{path}: MassTable")
    check(h["NumFilesPerSnapshot"] == 1, f"{path}: NumFilesPerSnapshot")
    check(h["Redshift"] == 0.0 and h["BoxSize"] == 0.0, f"{path}: Redshift/BoxSize")
    check(counts[0] == 0 and counts[5] == 0, f"{path}: only types 1-4")
    groups = sorted(k for k in f.keys() if k.startswith("PartType"))
    check(groups == [f"PartType{t}" for t in range(6) if counts[t] > 0],
          f"{path}: groups {groups} vs counts {counts}")
    n = int(counts.sum())
    x = np.zeros((n, 3), np.float64)
    v = np.zeros((n, 3), np.float64)
    m = np.zeros(n, np.float64)
    gal = np.full(n, -1)
    comp = np.empty(n, object)
    for name in groups:
        g = f[name]
        t = int(name[8:])
        c = g.attrs["Component"]
        c = c.decode() if isinstance(c, bytes) else str(c)
        check(TYPE_OF.get(c) == t, f"{path}: {name} holds {c}")
        nt = counts[t]
        for ds, shape, kind in (("Coordinates", (nt, 3), "f"), ("Velocities", (nt, 3), "f"),
                                ("Masses", (nt,), "f"), ("ParticleIDs", (nt,), "u"),
                                ("GalaxyIndex", (nt,), "u")):
            check(ds in g and g[ds].shape == shape and g[ds].dtype.kind == kind,
                  f"{path}: {name}/{ds} shape/type")
        check(g["ParticleIDs"].dtype == np.uint64, f"{path}: {name}/ParticleIDs is uint64")
        check(g["GalaxyIndex"].dtype == np.uint8, f"{path}: {name}/GalaxyIndex is uint8")
        ids = g["ParticleIDs"][...].astype(np.int64)
        check(np.all(np.diff(ids) > 0), f"{path}: {name} IDs increase (run order)")
        i = ids - 1
        x[i] = g["Coordinates"][...]
        v[i] = g["Velocities"][...]
        m[i] = g["Masses"][...]
        gal[i] = g["GalaxyIndex"][...]
        comp[i] = c
    allids = np.sort(np.concatenate([f[g]["ParticleIDs"][...] for g in groups]).astype(np.int64))
    check(np.array_equal(allids, np.arange(1, n + 1)), f"{path}: IDs are 1..N once each")
    dtype = f[groups[0]]["Coordinates"].dtype
    out = dict(time=float(h["Time"]), counts=counts, x=x, v=v, m=m, gal=gal, comp=comp,
               dtype=dtype, dp=int(h["Flag_DoublePrecision"]), file=f)
    return out


def energy(s):
    """K + W in float64 from the snapshot's values (W softened with the run's eps)."""
    m, x, v = s["m"], s["x"], s["v"]
    kin = 0.5 * np.sum(m * np.sum(v * v, axis=1))
    w = 0.0
    eps2 = float(np.float32(EPS * EPS))
    for i in range(len(m) - 1):
        d = x[i + 1:] - x[i]
        w -= m[i] * np.sum(m[i + 1:] / np.sqrt(np.sum(d * d, axis=1) + eps2))
    return kin, w


if os.path.isdir(TMP):
    shutil.rmtree(TMP)
os.makedirs(TMP)
a_dir, b_dir, c_dir = (os.path.join(TMP, d) for d in ("a", "b", "c"))
init = os.path.join(TMP, "init.tab")

# ---- run A: the snapshots of a --steps run
out, err = run("--backend", "cpu", "-n", str(N), "--steps", str(STEPS), "--report-every",
               str(EVERY), "--snapshot-every", str(T), "--snapshot-dir", a_dir, "--save", init)
rows = table_rows(out)
K = STEPS // EVERY
names = sorted(os.listdir(a_dir))
check(names == [f"snapshot_{k:06d}.hdf5" for k in range(K + 1)], f"snapshot files: {names}")
check(len(re.findall(r"galaxy: wrote .*snapshot_\d{6}\.hdf5 \(t = ", err)) == K + 1,
      "one info line per snapshot")
snaps = [load(os.path.join(a_dir, f"snapshot_{k:06d}.hdf5")) for k in range(K + 1)]
for k, s in enumerate(snaps):
    check(s["time"] == k * T, f"snapshot_{k:06d}: Time {s['time']!r} != {k * T!r}")
    check(s["dtype"] == np.float32 and s["dp"] == 0, f"snapshot_{k:06d}: float32 (leapfrog)")
    check(int(s["counts"].sum()) == N, f"snapshot_{k:06d}: N")
    check(np.array_equal(s["m"], snaps[0]["m"]), f"snapshot_{k:06d}: masses as at start")
    check(np.array_equal(s["gal"], snaps[0]["gal"]), f"snapshot_{k:06d}: galaxies as at start")

# snapshot_000000 against the --save table, exactly: each block (galaxy, component) of the
# table lists its bodies in run order, as the snapshot's type group does by ID.
with open(init) as fh:
    lines = fh.read().splitlines()
layout = [int(c) for c in next(l for l in lines if l.startswith("# gc-layout:")).split()[2:]]
data = np.array([[np.float32(float(t)) for t in l.split()] for l in lines if not l.startswith("#")],
                np.float32)
check(data.shape == (N, 7), f"--save table shape {data.shape}")
s0 = snaps[0]
row = 0
for (g, c), cnt in zip(BLOCKS, layout):
    sel = np.nonzero((s0["gal"] == g) & (s0["comp"] == c))[0]
    check(len(sel) == cnt, f"block {g} {c}: {len(sel)} bodies in snapshot, {cnt} in table")
    blk = data[row:row + cnt]
    row += cnt
    if len(sel) != cnt:
        continue
    check(np.array_equal(blk[:, 0], s0["m"][sel].astype(np.float32)), f"block {g} {c}: masses")
    check(np.array_equal(blk[:, 1:4], s0["x"][sel].astype(np.float32)), f"block {g} {c}: positions")
    check(np.array_equal(blk[:, 4:7], s0["v"][sel].astype(np.float32)), f"block {g} {c}: velocities")

# Energies against the table (the program sums the potential in float blocks: ~1e-7).
m0 = re.search(r"kinetic ([-+0-9.e]+), potential ([-+0-9.e]+)", out)
kin0, w0 = energy(s0)
check(m0 is not None and abs(kin0 - float(m0.group(1))) <= 1e-8 * abs(kin0),
      f"snapshot_000000 kinetic {kin0:.9e} vs printed {m0 and m0.group(1)}")
check(m0 is not None and abs(w0 - float(m0.group(2))) <= 1e-6 * abs(w0),
      f"snapshot_000000 potential {w0:.9e} vs printed {m0 and m0.group(2)}")
for k, s in enumerate(snaps):
    step = k * EVERY
    check(step in rows, f"no table row at step {step}")
    if step not in rows:
        continue
    myr, e_print = rows[step]
    check(abs(float(myr) - k * T * 18.0) < 0.006, f"row {step}: time {myr} Myr")
    e = sum(energy(s))
    check(abs(e - float(e_print)) <= 1e-6 * abs(e),
          f"snapshot_{k:06d}: energy {e:.9e} vs table {e_print} at step {step}")
# The snapshots are different states (the run moved), not copies of one.
check(not np.array_equal(snaps[0]["x"], snaps[-1]["x"]), "last snapshot differs from first")

# ---- run B: restart from snapshot_000002; continue with the same schedule
k0 = 2
out_b, err_b = run("--backend", "cpu", "--data", os.path.join(a_dir, f"snapshot_{k0:06d}.hdf5"),
                   "--steps", str(STEPS - k0 * EVERY), "--report-every", str(EVERY),
                   "--snapshot-every", str(T), "--snapshot-dir", b_dir)
rows_b = table_rows(out_b)
check(f"snapshot of {N} bodies at t = 0.2" in err_b, "restart says what it read")
check(rows_b.get(0, (None, None))[1] == rows[k0 * EVERY][1],
      f"restart's first energy {rows_b.get(0)} vs run A at step {k0 * EVERY} {rows[k0 * EVERY]}")
# The restart continues the series: its clock and numbering go on from snapshot_000002, which
# it writes again, and each of its snapshots is the continuous run's, exactly.
check(not os.path.exists(os.path.join(b_dir, "snapshot_000000.hdf5")),
      "restart: no snapshot_000000 (its clock starts at the snapshot's time)")
for j in range(k0, K + 1):
    sb = load(os.path.join(b_dir, f"snapshot_{j:06d}.hdf5"))
    sa = snaps[j]
    check(sb["time"] == sa["time"], f"restart snapshot_{j:06d}: Time {sb['time']} vs {sa['time']}")
    for key in ("x", "v", "m", "gal"):
        check(np.array_equal(sa[key], sb[key]),
              f"restart snapshot_{j:06d} {key} != run A snapshot_{j:06d}")

# ---- a set whose bodies all carry one tag: the type of its component alone, the tag kept
os.makedirs(c_dir)
one = os.path.join(c_dir, "one.tab")
with open(one, "w") as fh:
    for i in range(8):
        fh.write(f"0.125 {i} {0.5 * i} 0 0 {0.1 * i} 0\n")
run("--backend", "cpu", "--data", one, "--steps", "2", "--snapshot-every", "0.01",
    "--snapshot-dir", c_dir)
s = load(os.path.join(c_dir, "snapshot_000000.hdf5"))
check(list(s["counts"]) == [0, 0, 8, 0, 0, 0], f"one component: counts {s['counts']}")
check(set(s["comp"]) == {"disk"} and set(s["gal"]) == {0}, "one component: disk of galaxy A")
back = os.path.join(c_dir, "back.tab")
run("--backend", "cpu", "--data", os.path.join(c_dir, "snapshot_000000.hdf5"), "--steps", "1",
    "--save", back)
with open(back) as fh:
    check("# gc-layout: 8 0 0 0 0 0" in fh.read(), "one component reads back as disk A")

# ---- a star cluster: its stars in PartType4, its units stated as Henon units
p_dir = os.path.join(TMP, "plummer")
run("--backend", "cpu", "--model", "plummer", "-n", "32", "--t-end", "0.02",
    "--snapshot-every", "0.01", "--snapshot-dir", p_dir)
s = load(os.path.join(p_dir, "snapshot_000001.hdf5"), units="henon")
check(list(s["counts"]) == [0, 0, 0, 0, 32, 0], f"plummer: counts {s['counts']}")
check(set(s["comp"]) == {"star"}, "plummer: stars")
s["file"].close()

# ---- files of the previous layout (no units; a one-component set in PartType1), kept as
# written by the program before it wrote units and part types by component: each still
# loads, every body as the file holds it.
BLOCK_ORDER = BLOCKS + [(0, "star")]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
for name, steps in (("old_layout_galaxy.hdf5", ["--steps", "1"]),
                    ("old_layout_plummer.hdf5", ["--t-end", "0.02"])):
    path = os.path.join(DATA, name)
    with h5py.File(path, "r") as f:
        check("Units" not in f and "UnitLength_in_cm" not in f["Header"].attrs,
              f"{name}: a file of the previous layout (no units)")
        rows, wide = {}, None
        for g in (k for k in f if k.startswith("PartType")):
            wide = f[g]["Coordinates"].dtype.type
            c = f[g].attrs["Component"]
            c = c.decode() if isinstance(c, bytes) else str(c)
            grp = f[g]
            for i, gal, m, x, v in zip(grp["ParticleIDs"][...], grp["GalaxyIndex"][...],
                                       grp["Masses"][...], grp["Coordinates"][...],
                                       grp["Velocities"][...]):
                rows[int(i)] = ((int(gal), c), np.concatenate(([m], x, v)).astype(np.float64))
    tab = os.path.join(TMP, name + ".tab")
    run("--backend", "cpu", "--data", path, *steps, "--save", tab)
    with open(tab) as fh:
        lines = fh.read().splitlines()
    lay = [int(c) for c in next(l for l in lines if l.startswith("# gc-layout:")).split()[2:]]
    got = np.array([[float(t) for t in l.split()] for l in lines if not l.startswith("#")])
    want = [rows[i][1] for blk in BLOCK_ORDER for i in sorted(rows) if rows[i][0] == blk]
    # The table prints float32 values with the digits that bring them back exactly.
    wide = wide or np.float64
    want = np.array(want).astype(wide)
    check((lay + [0])[:7] == [sum(1 for r in rows.values() if r[0] == blk) for blk in BLOCK_ORDER],
          f"{name}: layout {lay}")
    check(got.shape == want.shape and np.array_equal(got.astype(wide), want),
          f"{name}: bodies read back as written")

# ---- float64: a body set with double-precision state is written as float64, exactly
if len(sys.argv) > 3:
    gen_dir = os.path.join(TMP, "gen")
    os.makedirs(gen_dir)
    subprocess.run([sys.argv[3], gen_dir], check=True)
    s = load(os.path.join(gen_dir, "good64.hdf5"), units=None)
    check(s["dtype"] == np.float64 and s["dp"] == 1, "good64: float64, Flag_DoublePrecision 1")
    check(s["time"] == 2.5, "good64: Time")
    for i in range(9):
        for k in range(3):
            check(s["x"][i, k] == i + 0.25 * k + i * 1e-10, f"good64: x[{i}][{k}]")
            check(s["v"][i, k] == 0.1 * k - 0.05 * i + 1e-12, f"good64: v[{i}][{k}]")
        check(s["m"][i] == 0.01 * (i + 1) + 1e-13, f"good64: m[{i}]")
        check(s["gal"][i] == (i & 1) and s["comp"][i] == ("disk", "bulge", "halo")[i % 3],
              f"good64: tag of body {i}")
    for g in ("PartType1", "PartType2", "PartType3"):
        check(all(s["file"][g][d].dtype == np.float64 for d in ("Coordinates", "Velocities", "Masses")),
              f"good64: {g} datasets are float64")
    s["file"].close()

for s in snaps:
    s["file"].close()
sys.exit(finish())
