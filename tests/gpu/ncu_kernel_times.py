#!/usr/bin/env python3
"""Per-kernel launch counts and durations from an ncu --csv run of gpu__time_duration.sum.

Usage: ncu_kernel_times.py NCU.csv [PREFIX]   (one line a kernel, longest total first)
"""
import csv
import statistics
import sys


def main():
    prefix = sys.argv[2] if len(sys.argv) > 2 else "ncu"
    rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
    if not rows:
        sys.exit("ncu: no rows")
    h = rows[0]
    ki, vi, ui = h.index("Kernel Name"), h.index("Metric Value"), h.index("Metric Unit")
    by = {}
    for r in rows[1:]:
        v = float(r[vi].replace(",", ""))
        v = v / 1e3 if r[ui] in ("ns", "nsecond") else v * 1e3 if r[ui] in ("ms", "msecond") else v
        by.setdefault(r[ki].split("(")[0][:60], []).append(v)
    for k, v in sorted(by.items(), key=lambda kv: -sum(kv[1])):
        print(f"{prefix} {k}: {len(v)} launches, median {statistics.median(v):.1f} us, "
              f"min {min(v):.1f} us")


if __name__ == "__main__":
    main()
