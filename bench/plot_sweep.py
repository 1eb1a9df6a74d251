#!/usr/bin/env python3
"""Plots interactions/s versus N from `galaxy-bench --benchmark --sweep --json` output.

Usage: python3 bench/plot_sweep.py sweep.json out.png [ceiling_interactions_per_s]
The ceiling line defaults to the H100 SXM issue limit of issue 6: 132 SMs x 4 warp
instructions per clock x 32 lanes x 1.98 GHz / 13 instructions per interaction.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    src, dst = sys.argv[1], sys.argv[2]
    ceiling = float(sys.argv[3]) if len(sys.argv) > 3 else 132 * 4 * 32 * 1.98e9 / 13
    with open(src) as f:
        data = json.load(f)
    rows = data["results"]
    n = [r["n"] for r in rows]
    fig, ax = plt.subplots(figsize=(8, 5))
    ax.plot(n, [r["interactions_per_s"] for r in rows], "o-", label="leapfrog step (force + update)")
    if any(r.get("ms_kernel", 0) > 0 for r in rows):
        ax.plot(n, [r["kernel_interactions_per_s"] for r in rows], "s--", label="force kernel alone")
        ax.plot(n, [r["reference_interactions_per_s"] for r in rows], "^:",
                label="classic GPU Gems kernel (reference)")
    ax.axhline(ceiling, color="k", lw=1, ls="-.", label="issue limit %.2e /s (13 issues/pair)" % ceiling)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("N (bodies)")
    ax.set_ylabel("interactions / s (N^2 per step)")
    ax.set_title("All-pairs gravity, fp32, %s" % data.get("device", ""))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(dst, dpi=110)


if __name__ == "__main__":
    main()
