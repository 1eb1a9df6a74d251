#!/usr/bin/env python3
"""The wave-aware force-pass layout against the kernel before it, from one call of
bench/hermite_device.sh (stages ab, blocks, blocksref, eta6, h6big):

- A/B: the same galaxy-bench command with the kernel before (ref/), the new layout without
  the unrolled inner loop (nounroll/) and this kernel, interleaved, two rounds: interval
  t = 0.25 -> 0.5 seconds, medians, ratios against ref.
- Equal time: hermite6 at larger eta against hermite4 at its default, same binary.
- Hermite 6 at N = 262144 (Table 2's interval) and its sustained rate.
- The block-time plot, before and after.

Usage: python3 bench/hermite_layout.py DIR [plot.png]
"""
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hermite_table2 import FLOPS, blocks, runs  # noqa: E402


def interval(r):
    b0, e0, w0, i0 = r[0.25]
    b1, e1, w1, i1 = r[0.5]
    return w1 - w0, i1 - i0, b1 - b0, (e1 - e0) / abs(e0)


def ab(path):
    variants = []
    for line in Path(path).read_text().splitlines():
        if line.startswith("## ab "):
            variants.append(line.split("variant=")[1].strip())
    res = {}
    for v, (order, n, r) in zip(variants, runs(path)):
        sec, ints, blocks, de = interval(r)
        res.setdefault((order, n), {}).setdefault(v, []).append((sec, ints, blocks, de))
    out = ["| scheme | N | kernel | interval s (each round) | median s | interactions/s | "
           "vs before | block steps | dE/E (0.25-0.5) |",
           "|---|---:|---|---|---:|---:|---:|---:|---:|"]
    for (order, n), by in sorted(res.items()):
        ref = statistics.median(x[0] for x in by["ref"])
        for v in ("ref", "nounroll", "this"):
            if v not in by:
                continue
            xs = by[v]
            med = statistics.median(x[0] for x in xs)
            name = {"ref": "before (df34b01)", "nounroll": "new layout, loop not unrolled",
                    "this": "new layout + unrolled loop"}[v]
            out.append(f"| hermite{order} | {n} | {name} | "
                       f"{', '.join('%.3f' % x[0] for x in xs)} | {med:.3f} | "
                       f"{xs[0][1] / med:.3e} | {ref / med:.2f}x | {xs[0][2]} | {xs[0][3]:.1e} |")
    return "\n".join(out), res


def equal_time(eta_path, ab_res):
    out = ["| scheme | N | eta | interval s | dE/E (0.25-0.5) | dE/E (0-1) |",
           "|---|---:|---:|---:|---:|---:|"]
    for (order, n), by in sorted(ab_res.items()):
        if order == 4 and "this" in by:
            sec = statistics.median(x[0] for x in by["this"])
            out.append(f"| hermite4 | {n} | 0.01 (default) | {sec:.3f} | "
                       f"{by['this'][0][3]:.1e} | - |")
    etas = []
    for line in Path(eta_path).read_text().splitlines():
        if line.startswith("## hermite"):
            etas.append(line.split("--eta")[1].strip())
    for eta, (order, n, r) in zip(etas, runs(eta_path)):
        sec, _, _, de = interval(r)
        de01 = (r[1.0][1] - r[0.0][1]) / abs(r[0.0][1])
        out.append(f"| hermite{order} | {n} | {eta} | {sec:.3f} | {de:.1e} | {de01:.1e} |")
    return "\n".join(out)


def big(path):
    lines = []
    for order, n, r in runs(path):
        sec, ints, blocks, de = interval(r)
        lines.append(f"hermite{order} N={n}: t = 0.25 -> 0.5 in {sec:.3f} s, {blocks} block steps, "
                     f"{ints:.4e} interactions, {ints / sec:.4e} interactions/s = "
                     f"{ints / sec * FLOPS[order] / 1e12:.2f} TFLOPS at {FLOPS[order]} "
                     f"flops/interaction, dE/E {de:.1e}")
    return "\n".join(lines)


def plot(d, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, label, style in (("blocksref.txt", "before (df34b01)", "o--"),
                               ("blocks.txt", "wave-aware layout", "s-")):
        m, us, ips = blocks(d / name)
        ax.loglog(m, us, style, label=label)
        ax2.semilogx(m, [x / 1e9 for x in ips], style, label=label)
    ax.set_xlabel("active bodies m")
    ax.set_ylabel("median microseconds per block step (host-driven)")
    ax2.set_xlabel("active bodies m")
    ax2.set_ylabel("1e9 interactions/s (m x N / time)")
    for a in (ax, ax2):
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=8)
    fig.suptitle("Hermite 4, Plummer N = 65536, H100: block step time against the active count")
    fig.tight_layout()
    fig.savefig(png, dpi=110)


if __name__ == "__main__":
    d = Path(sys.argv[1])
    text, res = ab(d / "ab.txt")
    print(text)
    print()
    print(equal_time(d / "eta6.txt", res))
    print()
    print(big(d / "h6big.txt"))
    if len(sys.argv) > 2:
        plot(d, sys.argv[2])
