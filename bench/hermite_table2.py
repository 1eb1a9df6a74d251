#!/usr/bin/env python3
"""Table 2 of Portegies Zwart, Belleman & Geldof (2007) beside ours, from the logs of
bench/hermite_device.sh (galaxy-bench --t-end ... --report-every 0.25 rows), and the plot of
time per block step against the active count from bench/hermite_blocks output.

Usage: python3 bench/hermite_table2.py DIR [plot.png]
DIR holds the stage logs of bench/hermite_device.sh: h4.txt + h4big.txt, h6.txt + h6big.txt,
blocks.txt (the first run's folder names them h4_double.txt, h4_double_524288.txt, h6.txt,
h6_262144.txt, blocks_65536.txt; either set is read).
Interval t = 0.25 -> 0.5: seconds, block steps and interactions are differences of the two
rows (the rows' wall column excludes the energy measurements); dE is relative to E(0.25).
"""
import re
import sys
from pathlib import Path

GRAPE = dict(zip([256 << k for k in range(9)],
                 [0.07098, 0.1410, 0.3327, 0.7652, 1.991, 5.552, 16.32, 51.68, 178.2]))
G8800 = dict(zip([256 << k for k in range(12)],
                 [2.708, 8.777, 17.46, 45.27, 128.3, 342.7, 924.4, 1907, 3973, 8844, 22330,
                  63960]))
FLOPS = {4: 60, 6: 94}  # PZ2007's count for hermite4; ours for hermite6 (see BENCHMARKS.md)


def runs(path):
    """Yields (order, N, {time: (blocks, energy, wall, interactions)}) per run in a log."""
    cur = None
    for line in Path(path).read_text().splitlines():
        m = re.match(r"## hermite(\d) N=(\d+)", line)
        if line.startswith("## eta"):  # an extra run at another eta: not part of the table
            if cur:
                yield cur
            cur = None
            continue
        if m:
            if cur:
                yield cur
            cur = (int(m.group(1)), int(m.group(2)), {})
            continue
        f = line.split()
        if cur and len(f) == 9 and not line.startswith("#"):
            cur[2][round(float(f[1]), 5)] = (int(f[0]), float(f[2]), float(f[7]), float(f[8]))
    if cur:
        yield cur


def table(files):
    rows = {}
    for path in files:
        if Path(path).exists():
            for order, n, r in runs(path):
                if 0.25 in r and 0.5 in r:
                    rows[n] = (order, r)
    out = ["| N | block steps | interactions | seconds | interactions/s | GFLOP/s | dE/E (0.25-0.5) "
           "| dE/E (0-1) | GRAPE-6Af s | 8800GTX s | vs GRAPE | vs 8800GTX |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n in sorted(rows):
        order, r = rows[n]
        b0, e0, w0, i0 = r[0.25]
        b1, e1, w1, i1 = r[0.5]
        sec, ints = w1 - w0, i1 - i0
        de = (e1 - e0) / abs(e0)
        de01 = (r[1.0][1] - r[0.0][1]) / abs(r[0.0][1]) if 1.0 in r else None
        g, t = GRAPE.get(n), G8800.get(n)
        out.append(
            f"| {n} | {b1 - b0} | {ints:.3e} | {sec:.3f} | {ints / sec:.3e} | "
            f"{ints / sec * FLOPS[order] / 1e9:.0f} | {de:.1e} | "
            f"{'%.1e' % de01 if de01 is not None else '-'} | {g if g else '-'} | "
            f"{t if t else '-'} | {'%.0fx' % (g / sec) if g else '-'} | "
            f"{'%.0fx' % (t / sec) if t else '-'} |")
    return "\n".join(out)


def blocks(path):
    """Rows of bench/hermite_blocks: (m at the bin's geometric centre, median us, interactions/s)."""
    m, us, ips = [], [], []
    for line in Path(path).read_text().splitlines():
        f = line.split()
        if len(f) == 6 and not line.startswith("#"):
            lo, hi = float(f[0]), float(f[1])
            m.append((lo * hi) ** 0.5 if hi > lo else lo)
            us.append(float(f[3]))
            ips.append(float(f[5]))
    return m, us, ips


def plot(blocks_path, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    m, us, ips = blocks(blocks_path)
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.loglog(m, us, "o-", label="median time per block step (host-driven, 2 syncs)")
    ax.set_xlabel("active bodies m")
    ax.set_ylabel("microseconds per block step")
    ax.grid(True, which="both", alpha=0.3)
    ax2 = ax.twinx()
    ax2.semilogx(m, [x / 1e9 for x in ips], "s--", color="tab:orange",
                 label="interactions/s (1e9)")
    ax2.set_ylabel("1e9 interactions/s (m x N / time)")
    ax.set_title("Hermite 4, Plummer N = 65536, H100: time per block step vs m")
    h1, l1 = ax.get_legend_handles_labels()
    h2, l2 = ax2.get_legend_handles_labels()
    ax.legend(h1 + h2, l1 + l2, loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=110)


def precision(paths):
    """The force pass the logs name (## ... precision=P); logs before --precision: double."""
    for p in paths:
        if Path(p).exists():
            m = re.search(r"precision=(\w+)", Path(p).read_text())
            if m:
                return m.group(1)
    return "double"


if __name__ == "__main__":
    d = Path(sys.argv[1])
    h4 = [d / "h4_double.txt", d / "h4_double_524288.txt", d / "h4.txt", d / "h4big.txt"]
    print("hermite4 (%s kernel)\n" % precision(h4))
    print(table(h4))
    print("\nhermite6 (%s kernel)\n" % precision([d / "h6.txt", d / "h6big.txt"]))
    print(table([d / "h6.txt", d / "h6_262144.txt", d / "h6big.txt"]))
    if len(sys.argv) > 2:
        first = d / "blocks_65536.txt"
        plot(first if first.exists() else d / "blocks.txt", sys.argv[2])
