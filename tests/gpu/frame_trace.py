#!/usr/bin/env python3
"""Figures of the frame pipeline from a GC_CUDA_TRACE timeline (src/backends/backend_cuda_trace.c).

Usage: frame_trace.py TRACE.csv [--skip FRACTION]
Prints medians over the steady frames (the first FRACTION, default 0.2, left out): the force
pass, the step period and what the compute stream does between force passes, the picture's
map, kernels and unmap, and how much of the picture's kernels ran while a force pass did.
"""
import argparse
import bisect
import csv
import statistics
import sys


def load(path):
    marks = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            marks.setdefault(row["mark"], {})[int(row["index"])] = float(row["ms"])
    return {m: [v[k] for k in sorted(v)] for m, v in marks.items()}


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def overlap(a, b, starts, ends):
    """Time of [a, b] covered by the intervals [starts[i], ends[i]] (sorted, disjoint)."""
    total = 0.0
    i = max(bisect.bisect_right(starts, a) - 1, 0)
    while i < len(starts) and starts[i] < b:
        total += max(0.0, min(b, ends[i]) - max(a, starts[i]))
        i += 1
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("--skip", type=float, default=0.2)
    args = ap.parse_args()
    m = load(args.trace)
    f0, f1 = m.get("force_start", []), m.get("force_end", [])
    n = min(len(f0), len(f1))
    if n < 10:
        sys.exit(f"{args.trace}: {n} force passes, too few to say anything")
    s = int(n * args.skip)
    span = [f1[k] - f0[k] for k in range(s, n)]
    period = [f0[k + 1] - f0[k] for k in range(s, n - 1)]
    gap = [f0[k + 1] - f1[k] for k in range(s, n - 1)]
    print(f"force passes: {n} (first {s} left out)")
    print(f"  force pass      {med(span):.4f} ms (median)")
    print(f"  step period     {med(period):.4f} ms = {med(period) / med(span):.4f} x the force pass")
    print(f"  between passes  {med(gap):.4f} ms (mean {statistics.fmean(gap):.4f})")
    p0, pm = m.get("picture_start", []), m.get("mapped", [])
    p1, pu = m.get("picture_end", []), m.get("unmapped", [])
    q = min(len(p0), len(pm), len(p1), len(pu))
    if q >= 10:
        t = int(q * args.skip)
        ks = range(t, q)
        kern = [p1[k] - pm[k] for k in ks]
        cover = [overlap(pm[k], p1[k], f0[:n], f1[:n]) for k in ks]
        print(f"pictures: {q} (first {t} left out)")
        print(f"  map             {med([pm[k] - p0[k] for k in ks]):.4f} ms")
        print(f"  kernels         {med(kern):.4f} ms, of which {med(cover):.4f} ms during a force pass")
        print(f"  unmap           {med([pu[k] - p1[k] for k in ks]):.4f} ms")
        print(f"  picture period  {med([p0[k + 1] - p0[k] for k in range(t, q - 1)]):.4f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
