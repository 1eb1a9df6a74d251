#!/usr/bin/env python3
"""Montage of tools/viewer_shots.sh screenshots: Dubinski run above, built-in model below."""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

src, out = sys.argv[1], sys.argv[2]
times = [0, 25, 50, 75]
fig, axes = plt.subplots(2, 4, figsize=(16, 5.4), facecolor="black")
for row, (lab, title) in enumerate((("dubinski", "Dubinski table"), ("model", "built-in model"))):
    for col, t in enumerate(times):
        ax = axes[row, col]
        ax.imshow(plt.imread(f"{src}/{lab}_t{t}.png"))
        ax.axis("off")
        ax.set_title(f"{title}, t = {t} ({t * 18} Myr)", color="white", fontsize=9)
fig.suptitle("galaxy --headless screenshots, 8192 bodies with halos, CPU backend, dt 0.025, "
             "default camera", color="white", fontsize=10)
fig.tight_layout()
fig.savefig(out, dpi=80, facecolor="black")
print(out, os.path.getsize(out), "bytes")
