#!/usr/bin/env python3
"""Side-by-side projected density of the Dubinski run and the built-in model (docs/images/model_vs_dubinski_density.png).

Usage: tools/compare_tails.py BUILD_DIR [OUT.png] [N] [DT]
Runs BUILD_DIR/tools/compare_tails (built by tools/CMakeLists.txt) on ../shared/data/dubinski.tab.gz
to t = 0, 25, 50, 75 (N-body units; 1 unit = 18 Myr) unless its CSVs already exist in
/tmp/gc_compare_tails_N_DT, then draws disk + bulge bodies projected on the x-y plane (the table's
frame: disk A lies in it, the orbital plane is 22 degrees from it), galaxy A in orange and
B in blue, one row per initial condition.
"""
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

build = sys.argv[1] if len(sys.argv) > 1 else "build-model"
out = sys.argv[2] if len(sys.argv) > 2 else "docs/images/model_vs_dubinski_density.png"
n = sys.argv[3] if len(sys.argv) > 3 else "8192"
dt = sys.argv[4] if len(sys.argv) > 4 else "0.05"
times = [0, 25, 50, 75]
tmp = f"/tmp/gc_compare_tails_{n}_{dt}"
os.makedirs(tmp, exist_ok=True)
here = os.path.dirname(os.path.abspath(__file__))
data = os.path.join(here, "..", "..", "shared", "data", "dubinski.tab.gz")
if not all(os.path.exists(f"{tmp}/{lab}_t{t}.csv") for lab in ("dubinski", "model") for t in times):
    subprocess.run([os.path.join(build, "tools", "compare_tails"), data, tmp, n, dt,
                    ",".join(str(t) for t in times)], check=True)

lim = 40.0
fig, axes = plt.subplots(2, len(times), figsize=(3.2 * len(times), 6.6), facecolor="black")
for row, (lab, title) in enumerate((("dubinski", "Dubinski table (thinned)"),
                                    ("model", "built-in model"))):
    for col, t in enumerate(times):
        d = np.loadtxt(f"{tmp}/{lab}_t{t}.csv", delimiter=",", ndmin=2)
        ax = axes[row, col]
        ax.set_facecolor("black")
        for g, colour in ((0, (1.0, 0.6, 0.2)), (1, (0.4, 0.7, 1.0))):
            s = d[:, 3] == g
            ax.scatter(d[s, 0], d[s, 1], s=0.5, color=colour, alpha=0.6, linewidths=0)
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(f"{title}\nt = {t} ({t * 18:.0f} Myr)", color="white", fontsize=9)
fig.suptitle(f"Disk + bulge bodies projected on x-y, {n} bodies with halos, dt {dt}, eps 0.025; "
             "orange: galaxy A (Milky Way), blue: B (Andromeda); box +-40 units (128 kpc)",
             color="white", fontsize=9)
fig.tight_layout()
fig.savefig(out, dpi=80, facecolor="black")
print(out, os.path.getsize(out), "bytes")
